package org.gamecert.producer.search.pn;

import org.gamecert.producer.cert.CertificateWriter;
import org.gamecert.producer.cert.RankedCertificate;
import org.gamecert.producer.game.Loa;
import org.gamecert.producer.search.LoaSolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The proof-number search of Lines of Action ({@link LoaPn}) and what it proves. */
class LoaPnTest {
    /** A 5×5 position the side to move wins (ply 3 of LoaLinesMain's 5×5 line), and one it loses (ply 4). */
    static final String WIN5 = "c1-c3 a2-c4 d1-d3", LOSS5 = "c1-c3 a2-c4 d1-d3 a3-c5";

    /** +1 / -1 with the proof's entries, or 0 (no win for either side, or a search stuck in a cycle). */
    record Solved(int value, List<RankedCertificate.Node> proof, LoaPn search) {}

    static Solved solve(Loa loa, long m, long o, long tableBytes) throws IOException {
        LoaPn win = new LoaPn(loa, new PnTable(tableBytes));
        if (win.prove(m, o, true, null) > 0) return new Solved(1, RankedCertificate.extract(loa, win, m, o, true), win);
        LoaPn loss = new LoaPn(loa, new PnTable(tableBytes));
        if (loss.prove(m, o, false, null) > 0) return new Solved(-1, RankedCertificate.extract(loa, loss, m, o, false), loss);
        return new Solved(win.stuck() || loss.stuck() ? 2 : 0, List.of(), loss);
    }

    static long[] randomPosition(Loa loa, Random rnd, int plies) {
        long[] p = loa.start();
        long m = p[0], o = p[1];
        int[] mv = new int[64];
        long[] out = new long[3];
        for (int i = 0; i < plies; i++) {
            int c = loa.moves(m, o, mv);
            int pick = mv[rnd.nextInt(c)];
            int t = loa.play(m, o, pick >>> 8 & 0xFF, pick & 0xFF, out);
            if (t == Loa.TERMINAL) return null;
            m = out[0];
            o = out[1];
        }
        return new long[] {m, o};
    }

    @Test
    void fastMoveGenerationIsTheRulesMoveGeneration() {
        for (int n = 4; n <= 6; n++) {
            Loa loa = new Loa(n);
            LoaMoves gen = new LoaMoves(n);
            int[] a = new int[64], b = new int[64];
            for (int game = 0; game < 200; game++) {
                for (int plies = 0; plies < 40; plies++) {
                    long[] p = randomPosition(loa, new Random(game * 1000L + plies), plies);
                    if (p == null) break;
                    int ca = loa.moves(p[0], p[1], a), cb = gen.moves(p[0], p[1], b);
                    assertEquals(ca, cb);
                    for (int i = 0; i < ca; i++) assertEquals(a[i], b[i]);
                    assertEquals(ca, gen.count(p[0], p[1]));
                    assertEquals(loa.moves(p[1], p[0], a), gen.count(p[1], p[0]));
                }
            }
        }
    }

    /**
     * Every entry of a proof, checked with the producer's rules alone: a win's move leads to a
     * terminal win or to an entry of lower rank that claims the right thing (a loss for the
     * opponent, a win after the opponent passes); every move of a loss likewise.
     */
    static void assertRanksDecreaseAlongEveryProofEdge(Loa loa, List<RankedCertificate.Node> proof) {
        Map<String, RankedCertificate.Node> byKey = new HashMap<>();
        for (RankedCertificate.Node x : proof) assertTrue(byKey.put(x.mover + "/" + x.opponent, x) == null, "a position twice");
        int[] mv = new int[64];
        long[] out = new long[3];
        for (RankedCertificate.Node x : proof) {
            int c = loa.moves(x.mover, x.opponent, mv), edges = 0;
            for (int i = 0; i < c; i++) {
                if (x.win && (mv[i] >>> 16) != x.code) continue;
                edges++;
                int t = loa.play(x.mover, x.opponent, mv[i] >>> 8 & 0xFF, mv[i] & 0xFF, out);
                if (t == Loa.TERMINAL) {
                    assertEquals(x.win ? 1 : -1, out[2], "a terminal proof edge ends the right way");
                    continue;
                }
                RankedCertificate.Node child = byKey.get(out[0] + "/" + out[1]);
                assertNotNull(child, "every proof edge leads to an entry");
                assertEquals(t == Loa.CHILD ? !x.win : x.win, child.win, "the child claims what the parent needs");
                assertTrue(child.rank < x.rank, "rank " + child.rank + " below " + x.rank);
            }
            assertTrue(x.win ? edges == 1 : edges == c, "a win has its move, a loss every move");
        }
    }

    @Test
    void theProofsOf4x4And5x5PositionsLowerTheRankAlongEveryEdge() throws IOException {
        Loa four = new Loa(4), five = new Loa(5);
        long[] s = four.start();
        Solved a = solve(four, s[0], s[1], 1 << 20);
        assertEquals(1, a.value);
        assertRanksDecreaseAlongEveryProofEdge(four, a.proof);
        for (String moves : new String[] {WIN5, LOSS5}) {
            long[] p = five.parseMoves(moves);
            Solved b = solve(five, p[0], p[1], 64 << 20);
            assertEquals(moves.equals(WIN5) ? 1 : -1, b.value, moves);
            assertRanksDecreaseAlongEveryProofEdge(five, b.proof);
        }
    }

    /**
     * On random positions of 4×4 and 5×5 games, the proof-number search and the iterative deepening
     * (an independent search) agree: a win or loss the deepening finds within 7 plies is the PN
     * search's result, and a PN proof of rank r <= 7 is found by the deepening within r plies (ranks
     * are true depth bounds). Positions the deepening cannot settle within its table of 2^16
     * positions are skipped (few), and so are those where a PN search gave up, stuck in a cycle of
     * the graph (at most 2).
     */
    @Test
    void proofNumberSearchAgreesWithIterativeDeepening() throws IOException {
        int compared = 0, wins = 0, losses = 0, none = 0, stuck = 0;
        for (int n = 4; n <= 5; n++) {
            Loa loa = new Loa(n);
            for (int seed = 0; seed < (n == 4 ? 60 : 30); seed++) {
                Random rnd = new Random(seed);
                long[] p = randomPosition(loa, rnd, 4 + rnd.nextInt(n == 4 ? 6 : 14));
                if (p == null || loa.isTerminal(p[0], p[1]) || !loa.hasMove(p[0], p[1])) continue;
                Solved pn = solve(loa, p[0], p[1], 16 << 20);
                if (pn.value == 2) { stuck++; continue; } // no result: nothing to compare
                int rank = pn.value == 0 ? 7 : pn.proof.get(0).rank;
                LoaSolver id = new LoaSolver(loa, Long.MAX_VALUE, 1 << 16);
                int v;
                try { v = id.solve(p[0], p[1], Math.min(rank, 7)); }
                catch (LoaSolver.OutOfBudget e) { continue; }
                if (pn.value != 0 && rank <= 7) assertEquals(pn.value, v, "rank " + rank + " is a depth bound, seed " + seed);
                if (v != 0) assertEquals(v, pn.value, "the deepening's result is the PN search's, seed " + seed);
                if (pn.value != 0) assertRanksDecreaseAlongEveryProofEdge(loa, pn.proof);
                compared++;
                if (pn.value > 0) wins++; else if (pn.value < 0) losses++; else none++;
            }
        }
        assertTrue(stuck <= 2, stuck + " searches stuck in a cycle");
        assertTrue(compared >= 40 && wins > 10 && losses > 10, compared + " compared: " + wins + " wins, " + losses + " losses, " + none + " neither");
    }

    @Test
    void the5x5StartIsAWinForBlack() throws IOException {
        Loa five = new Loa(5);
        long[] s = five.start();
        LoaPn pn = new LoaPn(five, new PnTable(256 << 20));
        assertEquals(1, pn.prove(s[0], s[1], true, null));
        List<RankedCertificate.Node> proof = RankedCertificate.extract(five, pn, s[0], s[1], true);
        assertRanksDecreaseAlongEveryProofEdge(five, proof);
        assertTrue(pn.nodes < 349_076, pn.nodes + " MID calls, below the published PN² figure");
    }

    private static byte[] certificate(Loa loa, long m, long o, List<RankedCertificate.Node> proof, int value, Path file) throws IOException {
        RankedCertificate.write(file, RankedCertificate.header(loa, m, o, value, CertificateWriter.INFO_PRODUCER), proof);
        return Files.readAllBytes(file);
    }

    /**
     * The search depends on the table's limit only once the table is full: the same proof from
     * tables of 2^16 slots and up (no collection); a table small enough to be collected many times
     * still gives a proof whose ranks decrease along every edge, the same value, and the same
     * proof again when run twice.
     */
    @Test
    void theProofDependsOnTheTableOnlyWhenItIsCollected(@TempDir Path dir) throws IOException {
        Loa five = new Loa(5);
        long[] p = five.parseMoves(WIN5);
        byte[] first = null;
        for (long bytes : new long[] {4 << 20, 64 << 20, 512 << 20}) {
            Solved s = solve(five, p[0], p[1], bytes);
            assertEquals(0, s.search.table().collections);
            byte[] b = certificate(five, p[0], p[1], s.proof, s.value, dir.resolve("c" + bytes));
            if (first == null) first = b;
            else assertArrayEquals(first, b, "the same bytes with a table of " + bytes + " bytes");
        }
        long small = 1; // the least table, 2^10 slots, collected at 768 entries; the search makes 1,023
        Solved c = solve(five, p[0], p[1], small), d = solve(five, p[0], p[1], small);
        assertTrue(c.search.table().collections > 0, "collected");
        assertEquals(1, c.value);
        assertRanksDecreaseAlongEveryProofEdge(five, c.proof);
        assertArrayEquals(certificate(five, p[0], p[1], c.proof, 1, dir.resolve("x")), certificate(five, p[0], p[1], d.proof, 1, dir.resolve("y")));
    }

    /**
     * The replacement rule: a full table removes the unproven entries of least work first, keeps
     * every proven one, and says so when proven entries alone fill it.
     */
    @Test
    void collectionsKeepProvenEntriesAndRemoveTheLeastWorkFirst() {
        PnTable t = new PnTable(1); // 2^10 slots, collected at 768 entries down to 512
        assertEquals(1024, t.capacity());
        for (int i = 1; i <= 700; i++) {
            int s = t.findOrAdd(i, 0, 5, 5);
            if (i <= 300) { t.markProven(s); t.pn[s] = 0; t.dn[s] = LoaPn.INF; }
            else t.aux[s] = i <= 500 ? 1 : 1000; // work
        }
        for (int i = 701; i <= 800; i++) t.findOrAdd(i, 0, 5, 5); // the 768th triggers a collection
        assertEquals(1, t.collections);
        for (int i = 1; i <= 300; i++) assertTrue(t.find(i, 0) >= 0, "proven entries stay");
        for (int i = 501; i <= 700; i++) assertTrue(t.find(i, 0) >= 0, "the entries of most work stay");
        for (int i = 301; i <= 500; i++) assertTrue(t.find(i, 0) < 0, "the entries of least work go");
        PnTable u = new PnTable(1);
        assertThrows(PnTable.Full.class, () -> {
            for (int i = 1; i <= 1000; i++) { int s = u.findOrAdd(i, 0, 5, 5); u.markProven(s); u.pn[s] = 0; u.dn[s] = LoaPn.INF; }
        });
    }

    /**
     * A search stopped at any slice (as by kill -9 after its last checkpoint) and resumed from its
     * checkpoint makes the proof of the uninterrupted search, byte for byte.
     */
    @Test
    void aSearchResumedFromItsCheckpointMakesTheSameProof(@TempDir Path dir) throws IOException {
        Loa five = new Loa(5);
        long[] p = five.start();
        long slice = 4096;
        LoaPn whole = new LoaPn(five, new PnTable(64 << 20), slice);
        assertEquals(1, whole.prove(p[0], p[1], true, null));
        assertTrue(whole.slices() > 8, "several slices");
        byte[] expected = certificate(five, p[0], p[1], RankedCertificate.extract(five, whole, p[0], p[1], true), 1, dir.resolve("whole"));
        byte[] determining = "test".getBytes();
        for (long killAt : new long[] {1, 5, whole.slices() - 1}) {
            Path stateDir = dir.resolve("state" + killAt);
            PnState state = new PnState(stateDir, determining);
            LoaPn first = new LoaPn(five, new PnTable(64 << 20), slice);
            class Killed extends RuntimeException {}
            assertThrows(Killed.class, () -> first.prove(p[0], p[1], true, (x, pn, dn) -> {
                state.save(x, null, 0);
                if (x.slices() == killAt) throw new Killed();
            }));
            PnState.Saved saved = new PnState(stateDir, determining).load(five, slice);
            assertEquals(killAt, saved.win.slices());
            assertEquals(1, saved.win.prove(p[0], p[1], true, null));
            assertEquals(whole.nodes, saved.win.nodes);
            byte[] resumed = certificate(five, p[0], p[1], RankedCertificate.extract(five, saved.win, p[0], p[1], true), 1,
                    dir.resolve("resumed" + killAt));
            assertArrayEquals(expected, resumed, "resumed after slice " + killAt);
        }
        assertThrows(PnState.Mismatch.class, () -> new PnState(dir.resolve("state1"), "other".getBytes()).load(five, slice));
    }
}
