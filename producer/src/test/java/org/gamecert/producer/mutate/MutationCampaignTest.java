package org.gamecert.producer.mutate;

import org.gamecert.producer.cli.ProduceMain;
import org.gamecert.producer.game.Game;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.engine.Verifier;
import org.gamecert.verifier.kernel.Violation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A small in-process campaign: every mutation class, a few seeds, on small certificates of the
 * three games and both modes (random roots from a seeded generator). Each mutant must be rejected with
 * one of its class's rule ids, or be accepted and shown equivalent by the brute force.
 */
class MutationCampaignTest {
    @TempDir static Path dir;
    static final List<Ctx> inputs = new ArrayList<>();
    static final List<ClaimCheck> brute = new ArrayList<>();
    static final List<Path> files = new ArrayList<>();

    @BeforeAll
    static void solveInputs() throws Exception {
        Random rnd = new Random(2024);
        // Those with "3" or "4": weak with endgame leaves (mode 3, SPEC §9.1): positions with at
        // most that many empty cells have no entry and the verifier searches them. (NoGo games end
        // with points left empty: on 1x12 with 3, a changed leaf_empties can leave a true file.)
        String[][] specs = {{"othello:4x4", "8", "semi-strong", "0"}, {"othello:4x4", "7", "weak", "0"},
                {"connect4:4x4", "6", "semi-strong", "0"}, {"connect4:5x4", "10", "weak", "0"},
                {"othello:4x4", "6", "weak", "3"}, {"connect4:5x4", "9", "weak", "3"},
                {"nogo:1x11", "2", "semi-strong", "0"}, {"nogo:1x13", "3", "weak", "0"}, {"nogo:1x13", "2", "weak", "4"}};
        for (String[] s : specs) {
            Game g = Game.parse(s[0]);
            long[] p = AuditMain.playout(g, Integer.parseInt(s[1]), rnd);
            Path out = dir.resolve(files.size() + ".gsc");
            int rc = ProduceMain.run(new String[]{"solve", "--game", s[0], "--board", g.boardText(p[0], p[1]), "--mode", s[2],
                    "--leaf-empties", s[3], "--threads", "1", "--tt-mb", "8", "-q", "--out", out.toString()}, new PrintStream(new ByteArrayOutputStream()), System.err);
            assertEquals(0, rc);
            assertEquals(Result.Verdict.VERIFIED, Verifier.verify(out, new Options()).verdict, "valid input " + s[0]);
            files.add(out);
            Ctx c = Ctx.load(Files.readAllBytes(out), null);
            inputs.add(c);
            brute.add(new ClaimCheck(c.game));
        }
    }

    @Test
    void everyClassIsCaughtOnSmallCertificates() throws Exception {
        Path tmp = dir.resolve("mutant.gsc");
        List<String> failures = new ArrayList<>();
        Set<String> applied = new HashSet<>();
        for (MutationClass m : Mutations.ALL) {
            for (int i = 0; i < inputs.size(); i++) {
                for (long seed = 1; seed <= 3; seed++) {
                    Mutant mu = m.apply(inputs.get(i), seed);
                    if (mu == null) continue;
                    applied.add(m.name);
                    Files.write(tmp, mu.bytes);
                    Result r = Verifier.verify(tmp, new Options());
                    Violation v = r.firstViolation();
                    if (r.verdict == Result.Verdict.REJECTED && v != null && m.expectedRules.contains(v.rule())) continue;
                    if (r.verdict == Result.Verdict.VERIFIED && m.mayBeEquivalent && brute.get(i).firstFalseClaim(mu.bytes) == null) continue;
                    failures.add(m.name + " input " + i + " seed " + seed + " (" + mu.detail + "): " + r.verdict + " " + v);
                }
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
        assertEquals(Mutations.ALL.size(), applied.size(), "classes that applied to none of the inputs");
    }

    @Test
    void sameSeedSameMutantAndEveryMutantDiffers() throws Exception {
        byte[] original = Files.readAllBytes(files.get(0));
        for (MutationClass m : Mutations.ALL) {
            Mutant a = m.apply(inputs.get(0), 7), b = m.apply(inputs.get(0), 7);
            if (a == null) continue;
            assertArrayEquals(a.bytes, b.bytes, m.name);
            assertFalse(java.util.Arrays.equals(a.bytes, original), m.name + " left the file unchanged");
        }
    }

    @Test
    void resealingAnUnchangedCertificateKeepsItValid() throws Exception {
        byte[] original = Files.readAllBytes(files.get(2));
        Cert c = Cert.parse(original);
        c.decodeAll();
        for (Cert.Block b : c.blocks) b.entries = new ArrayList<>(b.entries); // forces re-encoding
        assertArrayEquals(original, c.seal(false), "re-encoding and re-sealing a valid file is the identity");
    }

    /** Property: every single-entry move/value edit is caught unless the brute force shows it true. */
    @Test
    void randomSingleFieldEditsAreRejectedUnlessEquivalent() throws Exception {
        Random rnd = new Random(99);
        Path tmp = dir.resolve("edit.gsc");
        int rejected = 0, equivalent = 0;
        for (int trial = 0; trial < 150; trial++) {
            int i = rnd.nextInt(inputs.size());
            Ctx x = inputs.get(i);
            Cert c = x.original.copy();
            c.decodeAll();
            Cert.Block b = c.blocks.get(rnd.nextInt(c.blocks.size()));
            Entry e = b.entries.get(rnd.nextInt(b.entries.size()));
            int field = rnd.nextInt(3);
            if (field == 0 && e.hasMove()) e.move = rnd.nextInt(x.game.moveCodes);
            else if (field == 1 || !e.hasMove()) {
                if ((e.kinds & Entry.A) != 0 && !e.exact()) e.v2 = x.game.uMin + rnd.nextInt(x.game.uMax - x.game.uMin + 1);
                else e.v1 = x.game.uMin + rnd.nextInt(x.game.uMax - x.game.uMin + 1);
            } else e.kinds = new int[]{1, 2, 4, 6, 8, 16, 24}[rnd.nextInt(7)];
            if (e.kinds == Entry.C && (e.v1 > x.game.uMax)) continue;
            byte[] bytes = c.seal(false);
            Files.write(tmp, bytes);
            Result r = Verifier.verify(tmp, new Options());
            if (r.verdict == Result.Verdict.REJECTED) { rejected++; continue; }
            assertEquals(Result.Verdict.VERIFIED, r.verdict);
            assertNull(brute.get(i).firstFalseClaim(bytes), "accepted but false: trial " + trial);
            equivalent++;
        }
        assertTrue(rejected > 50, "rejected " + rejected + ", equivalent " + equivalent);
    }

    @Test
    void mutateCommandListsAndWrites() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        assertEquals(0, ProduceMain.run(new String[]{"mutate", "--list"}, new PrintStream(out), new PrintStream(err)));
        String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
        assertTrue(lines.length >= 20, "classes listed: " + lines.length);
        for (String l : lines) {
            String[] f = l.split("\t");
            assertTrue(f[0].matches("[a-z0-9-]+"), l);
            assertTrue(f.length >= 2 && !f[1].isBlank(), l);
            // Our format's classes, the peer tablebase format's (prefix peer-) and the composites' (comp-).
            if (f[0].startsWith("peer-")) assertNotNull(org.gamecert.producer.mutate.peer.PeerMutations.byName(f[0]), l);
            else if (f[0].startsWith("comp-")) assertNotNull(org.gamecert.producer.mutate.composite.CompositeMutations.byName(f[0]), l);
            else if (f[0].startsWith("loa-")) assertNotNull(LoaMutations.byName(f[0]), l);
            else assertNotNull(Mutations.byName(f[0]), l);
        }
        Path mut = dir.resolve("cli-mutant.gsc");
        assertEquals(0, ProduceMain.run(new String[]{"mutate", "--class", "exact-value-shift", "--seed", "3", "--in",
                files.get(0).toString(), "--out", mut.toString()}, new PrintStream(out), new PrintStream(err)));
        Result r = Verifier.verify(mut, new Options());
        assertEquals(Result.Verdict.REJECTED, r.verdict);
        assertTrue(Mutations.byName("exact-value-shift").expectedRules.contains(r.firstViolation().rule()));
        assertEquals(2, ProduceMain.run(new String[]{"mutate", "--class", "no-such-class", "--in", files.get(0).toString(),
                "--out", mut.toString()}, new PrintStream(out), new PrintStream(err)));
        assertEquals(1, ProduceMain.run(new String[]{"mutate", "--class", "kind-exact-in-weak", "--in", files.get(0).toString(),
                "--out", mut.toString()}, new PrintStream(out), new PrintStream(err)), "a weak-only class on a semi-strong file");
        Path cut = dir.resolve("cut.gsc");
        Files.write(cut, java.util.Arrays.copyOf(Files.readAllBytes(files.get(0)), 40));
        assertEquals(2, ProduceMain.run(new String[]{"mutate", "--class", "truncated", "--in", cut.toString(),
                "--out", mut.toString() + "2"}, new PrintStream(out), new PrintStream(err)), "a malformed container is refused");
    }

    /** Property: producer and verifier agree on legal moves and terminal values on random positions. */
    @Test
    void producerAndVerifierRulesAgree() {
        Random rnd = new Random(5);
        Object[][] games = {{Game.parse("othello:4x4"), new org.gamecert.verifier.kernel.rules.OthelloRules(4)},
                {Game.parse("othello:6x6"), new org.gamecert.verifier.kernel.rules.OthelloRules(6)},
                {Game.parse("connect4:5x4"), new org.gamecert.verifier.kernel.rules.ConnectFourRules(5, 4)},
                {Game.parse("connect4:7x6"), new org.gamecert.verifier.kernel.rules.ConnectFourRules(7, 6)}};
        int checked = 0;
        for (Object[] pair : games) {
            Game g = (Game) pair[0];
            org.gamecert.verifier.kernel.rules.Game v = (org.gamecert.verifier.kernel.rules.Game) pair[1];
            for (int t = 0; t < 300; t++) {
                long[] p = g.start();
                long m = p[0], o = p[1];
                while (!g.isTerminal(m, o)) {
                    assertEquals(g.isLegalPosition(m, o), v.isLegalPosition(m, o));
                    long legal = g.moves(m, o);
                    assertEquals(legal, v.legalMoveCodes(m, o), g.boardText(m, o));
                    checked++;
                    if (legal == 0) { long s = m; m = o; o = s; continue; }
                    int k = rnd.nextInt(Long.bitCount(legal));
                    for (int j = 0; j < k; j++) legal &= legal - 1;
                    long m2 = g.play(m, o, Long.numberOfTrailingZeros(legal));
                    long o2 = o & ~m2;
                    m = o2; o = m2;
                }
                assertTrue(v.isTerminal(m, o));
                assertEquals(g.terminalValue(m, o), v.terminalValue(m, o), g.boardText(m, o));
            }
        }
        assertTrue(checked > 1000);
    }
}
