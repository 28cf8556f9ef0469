package org.gamecert.verifier.engine;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.Violation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.gamecert.verifier.kernel.format.Payload;
import org.gamecert.verifier.kernel.rules.ConnectFourRules;
import org.gamecert.verifier.kernel.rules.Game;
import org.gamecert.verifier.kernel.rules.OthelloRules;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TestCert.Entry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review of the one checking pass (pass 2 checks the obligations shallowest layer first and
 * reports the deepest layer's violation; the layer checked next served from the table that held
 * it as the layer below; the bucket index by the mover within runs of one occupancy): the same
 * outcome with the layer below held whole, in segments of several sizes, on one and on several
 * threads, with --all; the first violation across layers and across a later decoding failure;
 * Layer's packing and index for every game size.
 */
@Tag("slow")
class CheckingPassReviewTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void build() {
        RuleViolationTest.build();
    }

    Result verify(byte[] file, Options o) throws Exception {
        return SegmentReviewTest.verifyIn(dir, file, o);
    }

    static Options opts(int threads, boolean all, boolean strict, long held) {
        return SegmentReviewTest.opts(threads, strict, all, held);
    }

    /** Everything a verdict states, except the order of the --all list. */
    static String outcome(Result r) {
        StringBuilder sb = new StringBuilder();
        sb.append(r.verdict).append(' ').append(r.commitment).append(" entries ").append(r.entries).append(" blocks ").append(r.blocks);
        if (r.verdict == Result.Verdict.VERIFIED) {
            sb.append(" region ").append(r.region).append(" unreached ").append(r.unreached).append(" root move ").append(r.rootMove);
            for (long[] c : r.census) sb.append(' ').append(Arrays.toString(c));
        }
        Violation v = r.firstViolation();
        if (v != null) sb.append(" first ").append(v).append(" at ").append(Long.toHexString(v.mover())).append(':').append(Long.toHexString(v.opponent()));
        if (r.verdict == Result.Verdict.ERROR) sb.append(" error ").append(r.errorMessage);
        return sb.toString();
    }

    static String first(Result r) {
        Violation v = r.firstViolation();
        return r.verdict + " " + v + " at " + Long.toHexString(v.mover()) + ":" + Long.toHexString(v.opponent());
    }

    static List<String> sortedAll(Result r) {
        List<String> out = new ArrayList<>();
        for (Violation v : r.violations) out.add(v.rule() + " block " + v.block() + " layer " + v.layer() + " entry " + v.entry() + " @" + Long.toHexString(v.mover()) + ":" + Long.toHexString(v.opponent()));
        out.sort(null);
        return out;
    }

    static List<Path> corpus() throws Exception {
        List<Path> out = new ArrayList<>();
        for (String d : new String[] {"../testdata/valid", "../testdata/mutants", "../format-spec/vectors"}) {
            try (Stream<Path> s = Files.list(Path.of(d))) {
                s.filter(p -> p.toString().endsWith(".gsc")).sorted().forEach(out::add);
            }
        }
        return out;
    }

    /**
     * Every certificate of the audit corpus and the SPEC vectors: the outcome with the layer
     * below held whole (and so the layer checked next served from it) equals the outcome with
     * every layer re-read in segments of 1, 7 and 50 entries, on one thread and on three (entries
     * checked in parallel), with --strict; with --all the same set of violations.
     */
    @Test
    void corpusSameOutcomeWholeSegmentsThreads() throws Exception {
        int saved = Verifier.parallelMinEntries;
        Verifier.parallelMinEntries = 1;
        try {
            List<Path> files = corpus();
            assertTrue(files.size() >= 60, "corpus found: " + files.size());
            int rejected = 0;
            for (Path f : files) {
                byte[] bytes = Files.readAllBytes(f);
                for (boolean strict : new boolean[] {false, true}) {
                    String whole = outcome(verify(bytes, opts(1, false, strict, Long.MAX_VALUE)));
                    if (whole.startsWith("REJECTED")) rejected++;
                    for (int threads : new int[] {1, 3})
                        for (long held : new long[] {Long.MAX_VALUE, 1, 7, 50})
                            assertEquals(whole, outcome(verify(bytes, opts(threads, false, strict, held))), f + " threads " + threads + " held " + held + " strict " + strict);
                }
                Result all = verify(bytes, opts(1, true, false, Long.MAX_VALUE));
                for (long held : new long[] {1, 7}) {
                    Result seg = verify(bytes, opts(3, true, false, held));
                    assertEquals(all.verdict, seg.verdict, f + " --all held " + held);
                    assertEquals(sortedAll(all), sortedAll(seg), f + " --all held " + held);
                    assertEquals(all.violationCounts, seg.violationCounts, f + " --all held " + held);
                }
            }
            assertTrue(rejected > 80, "the corpus has rejections to compare: " + rejected);
        } finally {
            Verifier.parallelMinEntries = saved;
        }
    }

    // ------------------------------------------------------------------ order of checks across layers

    /** The first {C} or {C, A} entry of the layer, its bounds raised to U_max (an R-CUT-1 lie unless its cut move wins outright). */
    static TestCert lowered(TestCert t, int layer, int uMax) {
        TestCert c = t.copy();
        for (Entry e : c.entries) {
            if (e.layer() == layer && (e.kind & TestCert.C) != 0 && e.lo < uMax) {
                e.lo = uMax;
                e.hi = uMax;
                return c;
            }
        }
        return null;
    }

    /**
     * Two lies in two layers: the one of the deeper layer (earlier in the file) is reported, as
     * SPEC §9 orders them, also in segments and on several threads; and a lie followed, later in
     * the file, by a payload that does not decode: the lie is reported (checkReadSoFar), not the
     * decoding failure.
     */
    @Test
    void firstViolationAcrossLayersAndALaterDecodingFailure() throws Exception {
        TestCert base = RuleViolationTest.othWeak;
        int uMin = 16; // U_max of Othello 4x4
        int[] layers = base.entries.stream().mapToInt(Entry::layer).distinct().sorted().toArray();
        int checkedPairs = 0;
        for (int a = 0; a < layers.length && checkedPairs < 1; a += 3) {
            for (int b = layers.length - 1; b > a && checkedPairs < 1; b -= 4) {
                TestCert shallow = lowered(base, layers[a], uMin);
                if (shallow == null) continue;
                TestCert deep = lowered(base, layers[b], uMin);
                TestCert both = deep == null ? null : lowered(shallow, layers[b], uMin);
                if (both == null) continue;
                Result rs = verify(shallow.write(), new Options()), rd = verify(deep.write(), new Options());
                if (rs.verdict != Result.Verdict.REJECTED || rd.verdict != Result.Verdict.REJECTED) continue;
                assertEquals(layers[b], rd.firstViolation().layer());
                for (int threads : new int[] {1, 3})
                    for (long held : new long[] {Long.MAX_VALUE, 700}) {
                        Result r = verify(both.write(), opts(threads, false, false, held));
                        assertEquals(first(rd), first(r), "lies in layers " + layers[a] + " and " + layers[b] + ", threads " + threads + " held " + held);
                    }
                checkedPairs++;
            }
        }
        assertTrue(checkedPairs >= 1, "pairs of layers compared: " + checkedPairs);

        // A lie in the deepest layer with an entry to lower, then a shallower block that does not decode.
        TestCert deep = null;
        int deepLayer = -1;
        for (int b = layers.length - 1; b >= 0 && deep == null; b--) {
            deep = lowered(base, layers[b], uMin);
            deepLayer = layers[b];
            if (deep != null && verify(deep.write(), new Options()).verdict != Result.Verdict.REJECTED) deep = null;
        }
        assertNotNull(deep);
        Result lie = verify(deep.write(), new Options());
        int lieBlock = (int) lie.firstViolation().block();
        TestCert broken = deep.copy();
        broken.payloadHook = (blk, raw) -> blk == lieBlock + 1 ? Arrays.copyOf(raw, raw.length + 1) : raw; // a byte left over: R-ENC-2
        TestCert onlyBroken = base.copy();
        onlyBroken.payloadHook = broken.payloadHook;
        Result enc = verify(onlyBroken.write(), new Options());
        assertEquals("R-ENC-2", enc.firstViolation().rule(), () -> outcome(enc));
        for (int threads : new int[] {1, 3})
            for (long held : new long[] {Long.MAX_VALUE, 700}) {
                Result r = verify(broken.write(), opts(threads, false, false, held));
                assertEquals(first(lie), first(r), "lie in layer " + deepLayer + " before a decoding failure, threads " + threads + " held " + held);
            }
        // With --all: both, the lie first in block order.
        Result all = verify(broken.write(), opts(1, true, false, Long.MAX_VALUE));
        List<String> rules = new ArrayList<>();
        for (Violation v : all.violations) rules.add(v.rule());
        assertTrue(rules.contains("R-ENC-2") && rules.contains(lie.firstViolation().rule()), rules::toString);
    }

    // ------------------------------------------------------------------ Layer for every game size

    static List<Game> games() {
        List<Game> out = new ArrayList<>();
        for (int n : new int[] {4, 6, 8}) out.add(new OthelloRules(n));
        for (int w = 1; w <= 32; w++)
            for (int h = 1; w * (h + 1) <= 64; h++)
                if (h <= 3 || w * (h + 2) > 64 || (w + h) % 5 == 0) out.add(new ConnectFourRules(w, h)); // the tallest board of every width, and others
        return out;
    }

    /**
     * Layer built as the verifier builds it (value width from the utility range, move width from
     * the move codes): slice gives back every field as added (extreme bounds, the last move code,
     * no move for {A}), and find answers like a sorted set, with many occupancies and with long
     * runs of one occupancy (the projection by the mover), for occupancies using the board's top bit.
     */
    @Test
    void layerPackingAndIndexForEveryGameSize() {
        Random rnd = new Random(7);
        int sizes = 0;
        for (Game g : games()) {
            int width = 32 - Integer.numberOfLeadingZeros(g.uMax) + 1;
            long board = g.boardMask;
            int boardBits = 64 - Long.numberOfLeadingZeros(board);
            int moveBits = 32 - Integer.numberOfLeadingZeros(g.moveCodes - 1);
            int[] cells = new int[Long.bitCount(board)];
            for (int i = 0, j = 0; i < 64; i++) if ((board >>> i & 1) != 0) cells[j++] = i;
            for (boolean runs : new boolean[] {false, true}) {
                int discs = Math.max(1, cells.length - (runs ? 2 : cells.length / 2));
                java.util.TreeSet<long[]> set = new java.util.TreeSet<>((x, y) -> x[0] != y[0] ? Long.compareUnsigned(x[0], y[0]) : Long.compareUnsigned(x[1], y[1]));
                int occs = runs ? 3 : 400;
                for (int o = 0; o < occs; o++) {
                    long occ = 1L << cells[cells.length - 1]; // the top cell always: bit 63 for 8x8
                    while (Long.bitCount(occ) < discs) occ |= 1L << cells[rnd.nextInt(cells.length)];
                    int per = runs ? 600 : 3;
                    for (int j = 0; j < per; j++) set.add(new long[] {occ, occ & rnd.nextLong()});
                    set.add(new long[] {occ, occ}); // the mover with the top bit
                    set.add(new long[] {occ, 0});
                }
                List<long[]> list = new ArrayList<>(set);
                Layer layer = new Layer(boardBits, width, moveBits);
                layer.reset(discs);
                layer.ensure(list.size(), new Layer.Budget(Long.MAX_VALUE, 0), true);
                int[] kinds = {0x01, 0x02, 0x04, 0x06, 0x08, 0x10, 0x18};
                for (int i = 0; i < list.size(); i++) {
                    int k = kinds[i % kinds.length];
                    int lo = i % 3 == 0 ? -g.uMax : g.uMax - i % 2, hi = i % 5 == 0 ? g.uMax : lo;
                    int mv = Payload.hasMove(k) ? (i % 4 == 0 ? g.moveCodes - 1 : i % g.moveCodes) : -1;
                    layer.add(list.get(i)[0], list.get(i)[1], k, lo, hi, mv);
                }
                layer.index(new Layer.Budget(Long.MAX_VALUE, 0));
                Payload p = layer.slice(0, list.size(), null);
                for (int i = 0; i < list.size(); i++) {
                    int k = kinds[i % kinds.length];
                    int lo = i % 3 == 0 ? -g.uMax : g.uMax - i % 2, hi = i % 5 == 0 ? g.uMax : lo;
                    int mv = Payload.hasMove(k) ? (i % 4 == 0 ? g.moveCodes - 1 : i % g.moveCodes) : -1;
                    String at = g + " entry " + i;
                    assertEquals(list.get(i)[0], p.occ[i], at);
                    assertEquals(list.get(i)[1], p.mover[i], at);
                    assertEquals(k, p.kind[i], at);
                    assertEquals(lo, p.lo[i], at);
                    assertEquals(hi, p.hi[i], at);
                    assertEquals(mv, p.move[i], at);
                    assertEquals(i, layer.find(list.get(i)[0], list.get(i)[1]), at);
                }
                for (int t = 0; t < 2000; t++) {
                    long[] k = list.get(rnd.nextInt(list.size()));
                    long[][] probes = {{k[0], k[1] ^ (k[0] & (1L << cells[rnd.nextInt(cells.length)]))}, {k[0] ^ (1L << cells[rnd.nextInt(cells.length)]), k[1]},
                        {k[0] | Long.MIN_VALUE, k[1] | Long.MIN_VALUE}};
                    for (long[] x : probes) {
                        long[] hit = set.contains(x) ? set.ceiling(x) : null;
                        int want = hit == null ? -1 : list.indexOf(hit);
                        assertEquals(want, layer.find(x[0], x[1]), g + " probe " + Long.toHexString(x[0]) + ":" + Long.toHexString(x[1]));
                    }
                }
                sizes++;
            }
        }
        assertTrue(sizes > 60, "layouts checked: " + sizes);
    }

    /** A valid certificate's outcome does not depend on how the layers are held (large Connect Four 4x4, deep layers with long runs). */
    @Test
    void connectFourHeldWholeAndInSegmentsAgree() throws Exception {
        byte[] bytes = RuleViolationTest.c4Cert.write();
        Result whole = verify(bytes, new Options());
        assertEquals(Result.Verdict.VERIFIED, whole.verdict, () -> outcome(whole));
        assertTrue(whole.region > 0);
        for (long held : new long[] {5, 300})
            for (int threads : new int[] {1, 2})
                assertEquals(outcome(whole), outcome(verify(bytes, opts(threads, false, true, held))), "held " + held + " threads " + threads);
    }
}
