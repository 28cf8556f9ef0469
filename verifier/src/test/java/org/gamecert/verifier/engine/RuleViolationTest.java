package org.gamecert.verifier.engine;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.Violation;
import org.gamecert.verifier.kernel.Rule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.gamecert.verifier.kernel.rules.Game;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TestCert.Entry;
import org.gamecert.verifier.testcert.TestComposite;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every rule id of SPEC Appendix A has a corruption for which it is the rule that rejects. */
class RuleViolationTest {
    static TinySolver oth, c4;
    static TestCert othCert, othWeak, c4Cert;
    static final Set<String> covered = new HashSet<>();

    @TempDir
    Path dir;

    @BeforeAll
    static void build() {
        oth = new TinySolver(1, 4, 4, 1, null);
        long[] s = oth.othelloStart();
        othCert = oth.build(s[0], s[1], 1);
        othWeak = oth.build(s[0], s[1], 2);
        c4 = new TinySolver(2, 4, 4, 2, null);
        long[] root = c4Position(c4, "1234");
        c4Cert = c4.build(root[0], root[1], 1);
    }

    /** Plays 1-based columns from the empty board. */
    static long[] c4Position(TinySolver s, String moves) {
        long mover = 0, opp = 0;
        for (char ch : moves.toCharArray()) {
            long cell = s.game.moveDelta(mover, opp, ch - '1');
            long t = opp;
            opp = mover | cell;
            mover = t;
        }
        return new long[] {mover, opp};
    }

    Result verify(byte[] file, Options o) throws Exception {
        Path p = dir.resolve("c" + System.nanoTime() + ".gsc");
        Files.write(p, file);
        return Verifier.verify(p, o);
    }

    Result rejects(byte[] file, String rule) throws Exception {
        return rejects(file, rule, new Options());
    }

    Result rejects(byte[] file, String rule, Options o) throws Exception {
        Result r = verify(file, o);
        assertEquals(Result.Verdict.REJECTED, r.verdict, () -> "expected " + rule + ", got " + r.verdict + " " + r.errorMessage);
        assertEquals(rule, r.firstViolation().rule(), () -> r.firstViolation().toString());
        assertNull(r.commitment, "no commitment on rejection");
        covered.add(rule);
        // The same first violation with entries checked on several threads.
        Options par = new Options();
        par.threads = 3;
        par.strict = o.strict;
        long saved = Verifier.sliceEntries;
        Verifier.sliceEntries = 1;
        try {
            Result rp = verify(file, par);
            assertEquals(Result.Verdict.REJECTED, rp.verdict);
            assertEquals(r.firstViolation().toString(), rp.firstViolation().toString());
        } finally {
            Verifier.sliceEntries = saved;
        }
        // The same first violation when no layer fits in memory (every layer checked in
        // segments of a few entries), on one thread and on several.
        for (int threads : new int[] {1, 3}) {
            Options seg = new Options();
            seg.threads = threads;
            seg.strict = o.strict;
            seg.maxHeldEntries = Math.max(2, r.entries / 20);
            Result rs = verify(file, seg);
            assertEquals(Result.Verdict.REJECTED, rs.verdict, () -> "segments: " + rs.verdict + " " + rs.errorMessage);
            assertEquals(r.firstViolation().toString(), rs.firstViolation().toString(), "segments, threads " + threads);
            assertEquals(r.firstViolation().mover(), rs.firstViolation().mover(), "the same position");
            assertEquals(r.firstViolation().opponent(), rs.firstViolation().opponent(), "the same position");
        }
        return r;
    }

    static List<Entry> ofKind(TestCert t, int kind) {
        List<Entry> out = new ArrayList<>();
        for (Entry e : t.entries) if (e.kind == kind) out.add(e);
        return out;
    }

    static Entry root(TestCert t, TinySolver s) {
        long k = s.canonicalKey(t.rootMover, t.rootOpponent);
        return t.find(k >>> 32, k & 0xFFFFFFFFL);
    }

    /** Entries with a move whose canonical child is (occ, mover). */
    static List<Entry> parents(TestCert t, TinySolver s, long occ, long mover) {
        List<Entry> out = new ArrayList<>();
        long[] o = new long[3];
        for (Entry e : t.entries) {
            long opp = e.occ & ~e.mover;
            for (long m = s.game.legalMoveCodes(e.mover, opp); m != 0; m &= m - 1) {
                if (s.game.child(e.mover, opp, Long.numberOfTrailingZeros(m), o) == Game.TERMINAL) continue;
                long k = s.canonicalKey(o[0], o[1]);
                if (k >>> 32 == occ && (k & 0xFFFFFFFFL) == mover) {
                    out.add(e);
                    break;
                }
            }
        }
        return out;
    }

    @Test
    void baselinesVerify() throws Exception {
        for (TestCert t : List.of(othCert, othWeak, c4Cert)) {
            Result r = verify(t.write(), new Options());
            assertEquals(Result.Verdict.VERIFIED, r.verdict, () -> String.valueOf(r.firstViolation()));
        }
    }

    // ------------------------------------------------------------------ container and hashes

    @Test
    void con1() throws Exception {
        byte[] f = othCert.write();
        rejects(Arrays.copyOf(f, f.length + 1), "R-CON-1");            // a byte after the trailer
        rejects(Arrays.copyOf(f, f.length - 1), "R-CON-1");            // truncated trailer
        TestCert t = othCert.copy();
        t.headerLengthOverride = 4204; // above 40 + tb_len + info_len + 1 (mode 3) + 2 (a part) at their largest
        rejects(t.write(), "R-CON-1");
        // a second HEADER where a block is expected
        byte[] hdr = Arrays.copyOf(f, 8 + (int) (f[4] & 0xFF | (f[5] & 0xFF) << 8));
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(hdr);
        b.writeBytes(f);
        rejects(b.toByteArray(), "R-CON-1");
    }

    @Test
    void con2() throws Exception {
        TestCert t = othCert.copy();
        t.maxBlockEntries = 4;
        t.chunk = 10;
        rejects(t.write(), "R-CON-2");
    }

    @Test
    void con3() throws Exception {
        TestCert t = othCert.copy();
        t.recordHook = (i, rec) -> rec[2] += 1;
        Result r = rejects(t.write(), "R-CON-3");
        assertTrue(r.firstViolation().message().contains("Frame_Content_Size"));
    }

    @Test
    void hash1to3() throws Exception {
        byte[] f = othCert.write();
        int hlen = (f[4] & 0xFF) | (f[5] & 0xFF) << 8;
        byte[] g = f.clone();
        g[8 + hlen + 8 + 16 + 5] ^= 0x40; // inside block 0's stored chain value
        rejects(g, "R-HASH-1");
        TestCert t = othCert.copy();
        t.entryCountOverride = (long) t.entries.size() + 1;
        rejects(t.write(), "R-HASH-2");
        t = othCert.copy();
        t.corruptCommitment = true;
        rejects(t.write(), "R-HASH-3");
    }

    @Test
    void header() throws Exception {
        TestCert t = othCert.copy();
        t.version = 2;
        rejects(t.write(), "R-HDR-1");
        t = othCert.copy();
        t.tb[0] = t.tb[1];
        rejects(t.write(), "R-HDR-1");
        t = othCert.copy();
        t.rootOpponent |= t.rootMover;
        rejects(t.write(), "R-HDR-2");
        t = c4Cert.copy();
        long[] won = c4Position(c4, "1212121"); // the first player has four in column 1
        t.rootMover = won[0];
        t.rootOpponent = won[1];
        rejects(t.write(), "R-HDR-2");
    }

    /** Two header fields out of range: the one SPEC §4's table lists first is the one named. */
    @Test
    void headerFieldsAreCheckedInTableOrder() throws Exception {
        TestCert t = othCert.copy();
        t.maxBlockBytes = 0; // out of range, after root_value in the table
        Result r = rejects(t.write(), "R-HDR-1");
        assertTrue(r.firstViolation().message().startsWith("max_block_bytes"), r.firstViolation().message());
        t.rootValue = 17; // outside [-16, 16]: before the block limits in the table
        r = rejects(t.write(), "R-HDR-1");
        assertTrue(r.firstViolation().message().startsWith("root_value 17"), r.firstViolation().message());
        t = othCert.copy();
        t.rootValue = -17;
        t.maxBlockEntries = (1 << 20) + 1;
        t.info = new byte[4097]; // info_len out of range too
        r = rejects(t.write(), "R-HDR-1");
        assertTrue(r.firstViolation().message().startsWith("root_value -17"), r.firstViolation().message());
        t.rootValue = 0;
        r = rejects(t.write(), "R-HDR-1");
        assertTrue(r.firstViolation().message().startsWith("max_block_entries"), r.firstViolation().message());
    }

    // ------------------------------------------------------------------ encoding

    @Test
    void enc1NonMinimalVarint() throws Exception {
        TestCert t = othCert.copy();
        t.payloadHook = (i, raw) -> {
            if (i != 0) return raw;
            int end = 0;
            while ((raw[end] & 0x80) != 0) end++;
            byte[] out = new byte[raw.length + 1];
            System.arraycopy(raw, 0, out, 0, end + 1);
            out[end] |= (byte) 0x80;
            out[end + 1] = 0;
            System.arraycopy(raw, end + 1, out, end + 2, raw.length - end - 1);
            return out;
        };
        rejects(t.write(), "R-ENC-1");
    }

    @Test
    void enc2LeftoverAndShort() throws Exception {
        TestCert t = othCert.copy();
        t.payloadHook = (i, raw) -> i == 0 ? Arrays.copyOf(raw, raw.length + 1) : raw;
        rejects(t.write(), "R-ENC-2");
        t = othCert.copy();
        t.payloadHook = (i, raw) -> i == 0 ? Arrays.copyOf(raw, raw.length - 1) : raw;
        rejects(t.write(), "R-ENC-2");
    }

    @Test
    void enc3MoverBeyondOcc() throws Exception {
        TestCert t = othCert.copy();
        t.payloadHook = (i, raw) -> {
            if (i != 0) return raw;
            int p = 0;
            long d = 0;
            for (int s = 0; ; s += 7) {
                d |= (long) (raw[p] & 0x7F) << s;
                if ((raw[p++] & 0x80) == 0) break;
            }
            int q = p;
            while ((raw[q] & 0x80) != 0) q++;
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            b.write(raw, 0, p);
            TestCert.varint(b, 1L << Long.bitCount(d)); // c must be below 2^popcount(occ)
            b.write(raw, q + 1, raw.length - q - 1);
            return b.toByteArray();
        };
        rejects(t.write(), "R-ENC-3");
    }

    @Test
    void kindsAndValues() throws Exception {
        TestCert t = othCert.copy();
        t.entries.get(0).kind = 0x03;
        rejects(t.write(), "R-KIND-1");
        t = othWeak.copy();
        Entry e = t.entries.get(0);
        e.kind = TestCert.P;
        rejects(t.write(), "R-KIND-2");
        t = othCert.copy();
        ofKind(t, TestCert.P).get(0).lo = 17;
        rejects(t.write(), "R-VAL-0");
        t = othWeak.copy();
        e = ofKind(t, TestCert.C | TestCert.A).get(0);
        e.lo = e.hi + 1;
        if (e.lo > 16) {
            e.hi -= 2;
            e.lo = e.hi + 1;
        }
        rejects(t.write(), "R-VAL-0");
    }

    // ------------------------------------------------------------------ layers and positions

    /**
     * An obligation broken early in a layer and the key order broken later in it: the obligation
     * is reported first (SPEC §9 order of checks), also when the layer below does not fit in
     * memory and the layer's obligations are checked in segments after it has been read.
     */
    @Test
    void orderOfChecksWhenLayersAreSplit() throws Exception {
        TestCert t = othCert.copy();
        t.chunk = 4;
        List<Entry> list = new ArrayList<>(t.entries);
        list.sort((x, y) -> x.layer() != y.layer() ? y.layer() - x.layer()
                : x.occ != y.occ ? Long.compareUnsigned(x.occ, y.occ) : Long.compareUnsigned(x.mover, y.mover));
        int biggest = -1, most = 0;
        java.util.Map<Integer, Integer> count = new java.util.HashMap<>();
        for (Entry e : list) if (count.merge(e.layer(), 1, Integer::sum) > most) { most = count.get(e.layer()); biggest = e.layer(); }
        int first = -1, last = -1;
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).layer() != biggest) continue;
            if (first < 0 && (list.get(i).kind & (TestCert.P | TestCert.AP | TestCert.PP)) != 0) first = i;
            last = i;
        }
        assertTrue(first >= 0 && first < last - 8, "an exact entry early in a big layer: layer " + biggest + " of " + most + ", at " + first + ", last " + last);
        Entry wrong = list.get(first);
        wrong.lo = wrong.hi = wrong.lo == 16 ? 15 : wrong.lo + 1; // an exact value off by one
        list.add(last, list.get(last - 1).copy()); // a repeated key near the layer's end
        t.entries = list;
        t.sortEntries = false;
        Result r = verify(t.write(), new Options());
        assertEquals(Result.Verdict.REJECTED, r.verdict);
        assertEquals(biggest, r.firstViolation().layer());
        assertTrue(!r.firstViolation().rule().equals("R-LAY-3"), "the obligation comes first: " + r.firstViolation());
        rejects(t.write(), r.firstViolation().rule()); // the same first violation with segments
    }

    @Test
    void layers() throws Exception {
        TestCert t = othCert.copy();
        t.recordHook = (i, rec) -> {
            if (i == 1) rec[0] += 5;
        };
        rejects(t.write(), "R-LAY-1");
        t = othCert.copy();
        int rootDiscs = Long.bitCount(t.rootMover | t.rootOpponent);
        root(t, oth).layer = rootDiscs - 1; // the root's block claims the wrong layer
        rejects(t.write(), "R-LAY-2");
        // u32 layers no entry can have, on the first block, hashed exactly as written (SPEC §3):
        // R-LAY-2 at its first entry, not an overflow, a clamp or an R-HASH-1
        for (long huge : new long[] {65, 0x7FFFFFFFL, 0x80000000L, 0xFFFFFFFFL}) {
            t = othCert.copy();
            t.recordHook = (i, rec) -> {
                if (i == 0) rec[0] = huge;
            };
            Result r = rejects(t.write(), "R-LAY-2");
            assertEquals(huge, r.firstViolation().layer());
            assertEquals(0, r.firstViolation().block());
            assertEquals(0, r.firstViolation().entry());
            Options all = new Options();
            all.all = true;
            Result ra = verify(t.write(), all);
            assertEquals(Result.Verdict.REJECTED, ra.verdict, () -> ra.verdict + " " + ra.errorMessage);
            assertEquals(r.firstViolation().toString(), ra.firstViolation().toString(), "--all");
            // on a later block, the layer goes up: R-LAY-1 at its record
            t.recordHook = (i, rec) -> {
                if (i == 1) rec[0] = huge;
            };
            rejects(t.write(), "R-LAY-1");
        }
        // the same key at the end of one block and the start of the next
        t = othCert.copy();
        List<Entry> list = new ArrayList<>(t.entries);
        list.sort((x, y) -> x.layer() != y.layer() ? y.layer() - x.layer()
                : x.occ != y.occ ? Long.compareUnsigned(x.occ, y.occ) : Long.compareUnsigned(x.mover, y.mover));
        int at = -1;
        for (int i = 1; i < list.size(); i++) if (list.get(i).layer() == list.get(i - 1).layer()) { at = i; break; }
        list.add(at, list.get(at - 1).copy());
        t.entries = list;
        t.sortEntries = false;
        t.splitBefore.add(at);
        rejects(t.write(), "R-LAY-3");
    }

    @Test
    void positions() throws Exception {
        TestCert t = othCert.copy();
        // 6 discs without the centre square a... b2 is centre for 4x4: (1,1) = bit 5
        long occ = 0b1111L | (1L << 6) | (1L << 9) | (1L << 10);
        t.entries.add(new Entry(occ & ~(1L << 5), 1L, TestCert.A, -16, 16, 0));
        rejects(t.write(), "R-POS-1");
        // discs off the board (the key encoding allows any 64-bit occupancy), reported as stored
        t = othCert.copy();
        long centre = (1L << 5) | (1L << 6) | (1L << 9) | (1L << 10), far = (1L << 20) | (1L << 40);
        t.entries.add(new Entry(centre | far, (1L << 5) | (1L << 40), TestCert.C, 2, 16, 0));
        Result off = rejects(t.write(), "R-POS-1");
        assertEquals((1L << 5) | (1L << 40), off.firstViolation().mover());
        // a non-canonical copy of a canonical entry
        t = othCert.copy();
        Entry pick = null;
        long mOcc = 0, mMover = 0;
        for (Entry e : t.entries) {
            for (int g = 1; g < 8 && pick == null; g++) {
                long o = oth.game.transform(e.occ, g), m = oth.game.transform(e.mover, g);
                if ((o != e.occ || m != e.mover) && t.find(o, m) == null) {
                    pick = e;
                    mOcc = o;
                    mMover = m;
                }
            }
            if (pick != null) break;
        }
        assertNotNull(pick);
        t.entries.add(new Entry(mOcc, mMover, TestCert.A, -16, 16, 0));
        rejects(t.write(), "R-POS-3");
        // a terminal Connect Four position: the opponent has four in column 1
        t = c4Cert.copy();
        long[] won = c4Position(c4, "1212121");
        t.entries.add(new Entry(won[0] | won[1], won[0], TestCert.A, -1, 1, 0));
        rejects(t.write(), "R-POS-2");
    }

    @Test
    void move1() throws Exception {
        TestCert t = othCert.copy();
        Entry e = ofKind(t, TestCert.P).get(0);
        e.move = Long.numberOfTrailingZeros(e.occ); // an occupied square
        rejects(t.write(), "R-MOVE-1");
        t = c4Cert.copy();
        ofKind(t, TestCert.C | TestCert.A).get(0).move = 9; // no such column
        rejects(t.write(), "R-MOVE-1");
    }

    // ------------------------------------------------------------------ obligations

    @Test
    void serve1() throws Exception {
        for (TinySolver s : List.of(oth, c4)) {
            TestCert t = (s == oth ? othCert : c4Cert).copy();
            Entry r = root(t, s);
            long[] o = new long[3];
            long opp = r.occ & ~r.mover;
            Entry child = null;
            for (long m = s.game.legalMoveCodes(r.mover, opp); m != 0 && child == null; m &= m - 1) {
                if (s.game.child(r.mover, opp, Long.numberOfTrailingZeros(m), o) == Game.TERMINAL) continue;
                long k = s.canonicalKey(o[0], o[1]);
                child = t.find(k >>> 32, k & 0xFFFFFFFFL);
            }
            t.entries.remove(child);
            Result res = rejects(t.write(), "R-SERVE-1");
            assertEquals(Long.bitCount(r.occ), res.firstViolation().layer());
        }
    }

    @Test
    void p1AndRoot() throws Exception {
        TestCert t = othCert.copy();
        Entry r = root(t, oth);
        r.lo = r.hi = r.lo + 2;
        rejects(t.write(), "R-P-1");
        t = othCert.copy();
        t.rootValue += 2;
        rejects(t.write(), "R-ROOT-2");
        t = othWeak.copy();
        t.rootValue += 2;
        rejects(t.write(), "R-ROOT-3");
        t = othCert.copy();
        t.entries.remove(root(t, oth));
        rejects(t.write(), "R-ROOT-1");
    }

    @Test
    void tb1AndPp1() throws Exception {
        boolean tb = false, pp = false;
        for (TinySolver s : List.of(oth, c4)) {
            for (Entry e : ofKind(s == oth ? othCert : c4Cert, TestCert.PP)) {
                long opp = e.occ & ~e.mover;
                long legal = s.game.legalMoveCodes(e.mover, opp);
                if (Long.bitCount(legal) < 2) continue;
                TestCert t = (s == oth ? othCert : c4Cert).copy();
                Entry x = t.find(e.occ, e.mover);
                for (long m = legal; m != 0; m &= m - 1) {
                    int code = Long.numberOfTrailingZeros(m);
                    if (code != e.move && s.moveValue(e.mover, opp, code) < e.lo) {
                        x.move = code;
                        break;
                    }
                }
                if (x.move == e.move) continue;
                rejects(t.write(), "R-TB-1");
                tb = true;
                t = (s == oth ? othCert : c4Cert).copy();
                x = t.find(e.occ, e.mover);
                x.lo = x.hi = x.lo - 1;
                rejects(t.write(), "R-PP-1");
                pp = true;
                break;
            }
        }
        assertTrue(tb && pp);
    }

    @Test
    void ap1AndAp2() throws Exception {
        boolean ap1 = false, ap2 = false;
        for (TinySolver s : List.of(oth, c4)) {
            TestCert base = s == oth ? othCert : c4Cert;
            int uMax = s.game.uMax;
            for (Entry e : ofKind(base, TestCert.AP)) {
                if (!ap1 && e.lo < uMax) {
                    TestCert t = base.copy();
                    Entry x = t.find(e.occ, e.mover);
                    x.lo = x.hi = e.lo + 1;
                    rejects(t.write(), "R-AP-1");
                    ap1 = true;
                }
                if (ap2 || e.lo == uMax) continue;
                // a later move whose child is an auxiliary entry consulted by this entry alone
                long opp = e.occ & ~e.mover;
                boolean later = false;
                long[] o = new long[3];
                for (int code : base.tb) {
                    if (((s.game.legalMoveCodes(e.mover, opp) >>> code) & 1) == 0) continue;
                    if (code == e.move) {
                        later = true;
                        continue;
                    }
                    if (!later || s.game.child(e.mover, opp, code, o) != Game.CHILD) continue;
                    long k = s.canonicalKey(o[0], o[1]);
                    Entry c = base.find(k >>> 32, k & 0xFFFFFFFFL);
                    if (c == null || c.kind != (TestCert.C | TestCert.A) || parents(base, s, c.occ, c.mover).size() != 1) continue;
                    TestCert t = base.copy();
                    t.find(c.occ, c.mover).lo = s.game.uMin;
                    rejects(t.write(), "R-AP-2");
                    ap2 = true;
                    break;
                }
            }
        }
        assertTrue(ap1 && ap2, "found A' entries to corrupt");
    }

    @Test
    void cut1AndAll1() throws Exception {
        TestCert t = othWeak.copy();
        Entry e = null;
        for (Entry x : ofKind(t, TestCert.C | TestCert.A)) if (x.lo < 16 && x.lo > -16) { e = x; break; }
        int v = e.lo;
        e.lo = e.hi = v + 1;
        rejects(t.write(), "R-CUT-1");
        e.lo = e.hi = v - 1;
        rejects(t.write(), "R-ALL-1");
    }

    /** othWeak in mode 3 (SPEC §9.1): no entry with at most L empty cells, their census rows 0. */
    static TestCert withLeaves(int l) {
        TestCert t = othWeak.copy();
        t.mode = 3;
        t.leafEmpties = l;
        int cells = oth.game.cells;
        t.entries.removeIf(e -> cells - Long.bitCount(e.occ) <= l);
        for (long[] row : t.census) if (cells - row[0] <= l) row[2] = 0;
        return t;
    }

    @Test
    void leaf1AndLeaf2() throws Exception {
        int l = 3, cells = oth.game.cells;
        TestCert t = withLeaves(l);
        Result ok = verify(t.write(), new Options());
        assertEquals(Result.Verdict.VERIFIED, ok.verdict, () -> ok.errorMessage + " " + ok.firstViolation());
        assertTrue(ok.entries < othWeak.entries.size(), "leaves removed");

        // R-LEAF-1: an entry kept at a leaf (its census row counting it).
        TestCert kept = withLeaves(l);
        Entry leaf = null;
        for (Entry e : othWeak.entries) if (cells - Long.bitCount(e.occ) == l) { leaf = e.copy(); break; }
        kept.entries.add(leaf);
        int leafDiscs = Long.bitCount(leaf.occ);
        for (long[] row : kept.census) if (row[0] == leafDiscs) row[2]++;
        rejects(kept.write(), "R-LEAF-1");

        // R-LEAF-2: a bound next to the leaves that the verifier's search refutes, as C and as A.
        boolean cut = false, all = false;
        long[] out = new long[3];
        for (Entry e : ofKind(t, TestCert.C | TestCert.A)) {
            if (cells - Long.bitCount(e.occ) != l + 1 || e.lo >= 16 || e.lo <= -16) continue;
            long opp = e.occ & ~e.mover;
            boolean allLeaves = true; // every move leads to a leaf, none to a terminal position
            for (long m = oth.game.legalMoveCodes(e.mover, opp); m != 0; m &= m - 1)
                if (oth.game.child(e.mover, opp, Long.numberOfTrailingZeros(m), out) == Game.TERMINAL) allLeaves = false;
            if (!allLeaves) continue;
            int v = e.lo;
            TestCert c = t.copy();
            Entry ce = c.find(e.occ, e.mover);
            ce.lo = ce.hi = v + 1; // the cut move, to a leaf, is worth v only
            rejects(c.write(), "R-LEAF-2");
            ce.lo = ce.hi = v - 1; // the best move, to a leaf, is worth v > v - 1
            rejects(c.write(), "R-LEAF-2");
            cut = all = true;
            break;
        }
        assertTrue(cut && all, "an entry next to the leaves whose move leads to a leaf");
        // leaf_empties outside 1..6 (R-HDR-1), and a root that is itself a leaf (R-HDR-2).
        TestCert bad = withLeaves(l);
        bad.leafEmpties = 7;
        rejects(bad.write(), "R-HDR-1");
        TestCert rootLeaf = othWeak.copy();
        rootLeaf.mode = 3;
        rootLeaf.leafEmpties = 6;
        TestCert deep = rootLeaf;
        deep.rootMover = leaf.mover;
        deep.rootOpponent = leaf.occ & ~leaf.mover;
        rejects(deep.write(), "R-HDR-2");
    }

    /** Pass 2 checks the shallowest layer first, but the violation reported is the first in the file. */
    @Test
    void firstViolationInFileOrderAcrossLayers() throws Exception {
        TestCert t = othCert.copy();
        Entry r = root(t, oth);
        r.lo = r.hi = r.lo + 2; // R-P-1 in the shallowest layer, the last in the file
        Entry deep = null;
        for (Entry e : t.entries)
            if (e.kind != TestCert.A && (deep == null || e.layer() > deep.layer())) deep = e;
        Result shallowOnly = rejects(t.write(), "R-P-1");
        int occupied = Long.numberOfTrailingZeros(deep.occ);
        deep.move = occupied; // R-MOVE-1 in the deepest layer, earlier in the file
        Result both = rejects(t.write(), "R-MOVE-1");
        assertEquals(deep.layer(), both.firstViolation().layer());
        assertTrue(both.firstViolation().layer() > shallowOnly.firstViolation().layer());
        Options all = new Options();
        all.all = true;
        Result r2 = verify(t.write(), all);
        assertEquals(List.of("R-MOVE-1", "R-P-1"), r2.violations.stream().map(v -> v.rule()).toList().subList(0, 2), "--all lists them in file order");
    }

    /** --all over the per-rule cap keeps a rule's first violations in file order, and the same first one. */
    @Test
    void allModeKeepsTheFirstViolationsOfARule() throws Exception {
        TestCert t = othCert.copy();
        for (int i = 0; i < t.tb.length / 2; i++) { // the reverse TB order: canonical moves change everywhere
            int x = t.tb[i];
            t.tb[i] = t.tb[t.tb.length - 1 - i];
            t.tb[t.tb.length - 1 - i] = x;
        }
        byte[] file = t.write();
        Result first = verify(file, new Options());
        Options all = new Options();
        all.all = true;
        Result capped = verify(file, all);
        all.maxViolationsPerRule = Integer.MAX_VALUE;
        Result every = verify(file, all);
        long tb1 = every.violationCounts.get("R-TB-1");
        assertTrue(tb1 > 10, "several layers of R-TB-1: " + tb1);
        assertEquals(first.firstViolation().toString(), capped.firstViolation().toString());
        assertEquals(first.firstViolation().toString(), every.firstViolation().toString());
        List<String> keptTb = capped.violations.stream().filter(v -> v.rule().equals("R-TB-1")).map(Violation::toString).toList();
        List<String> allTb = every.violations.stream().filter(v -> v.rule().equals("R-TB-1")).map(Violation::toString).toList();
        assertEquals(allTb.subList(0, 10), keptTb);
    }

    @Test
    void census1() throws Exception {
        TestCert t = c4Cert.copy();
        t.census.get(3)[1]++;
        rejects(t.write(), "R-CENSUS-1");
        t = c4Cert.copy();
        t.census.remove(t.census.size() - 1);
        rejects(t.write(), "R-CENSUS-1");
    }

    @Test
    void reach1OnlyWhenStrict() throws Exception {
        TestCert t = c4Cert.copy();
        // a legal, non-terminal, canonical position nothing refers to: after "4444"
        long[] p = c4Position(c4, "4444");
        long k = c4.canonicalKey(p[0], p[1]);
        assertNull(t.find(k >>> 32, k & 0xFFFFFFFFL));
        t.entries.add(new Entry(k >>> 32, k & 0xFFFFFFFFL, TestCert.A, -1, 1, 0));
        for (long[] row : t.census) if (row[0] == 4) row[2]++;
        Result r = verify(t.write(), new Options());
        assertEquals(Result.Verdict.VERIFIED, r.verdict, () -> String.valueOf(r.firstViolation()));
        assertEquals(1, r.unreached);
        Options strict = new Options();
        strict.strict = true;
        rejects(t.write(), "R-REACH-1", strict);
    }

    @Test
    void allModeReportsSeveralRules() throws Exception {
        TestCert t = othWeak.copy();
        List<Entry> ca = ofKind(t, TestCert.C | TestCert.A);
        int changed = 0;
        for (Entry e : ca) {
            if (e.lo < 16 && e.lo > -16 && changed < 3) {
                e.lo = e.hi = e.lo + 1;
                changed++;
            }
        }
        Options all = new Options();
        all.all = true;
        Result r = verify(t.write(), all);
        assertEquals(Result.Verdict.REJECTED, r.verdict);
        assertTrue(r.violations.size() >= 3, "several violations: " + r.violations);
        assertTrue(r.violationCounts.get("R-CUT-1") >= 3);
    }

    // ------------------------------------------------------------------ parts (SPEC §15.1)

    static TestComposite othSplit() {
        long[] s = oth.othelloStart();
        return TestComposite.split(oth, s[0], s[1], 1, 8);
    }

    /** The first part after part 0 of this base mode (a semi-strong split has weak parts too). */
    static int partOfMode(TestComposite c, int baseMode) {
        for (int i = 1; i < c.parts.size(); i++) if ((c.parts.get(i).cert.mode & 0x7F) == baseMode) return i;
        throw new AssertionError("no part of mode " + baseMode);
    }

    @Test
    void partHeaderFields() throws Exception {
        TestComposite split = othSplit();
        TestCert part = split.parts.get(partOfMode(split, 1)).cert;
        Result ok = verify(part.write(), new Options());
        assertEquals(Result.Verdict.VERIFIED, ok.verdict, () -> String.valueOf(ok.firstViolation()));
        String[][] cases = {{"mode", "mode 132"}, {"invalid", "root_kinds 0x03"}, {"open", "root_kinds 0x41"},
            {"bound in mode 1", "root_kinds 0x10: a part of mode 1 claims an exact set"},
            {"upper out of range", "root_upper 17"}, {"exact upper", "root_value"}};
        for (String[] c : cases) {
            TestCert t = part.copy();
            switch (c[0]) {
                case "mode" -> t.mode = 0x84;
                case "invalid" -> t.rootKinds = 0x03;
                case "open" -> t.rootKinds = TestCert.P | TestCert.O;
                case "bound in mode 1" -> t.rootKinds = TestCert.C;
                case "upper out of range" -> t.rootUpper = 17;
                default -> t.rootUpper = t.rootValue + 1;
            }
            Result r = rejects(t.write(), "R-HDR-1");
            assertTrue(r.firstViolation().message().startsWith(c[1]), c[0] + ": " + r.firstViolation().message());
        }
        // a weak part: bound sets only, and for {C} root_upper = U_max, for {A} root_value = U_min
        TestCert weak = TestComposite.split(oth, oth.othelloStart()[0], oth.othelloStart()[1], 2, 8).parts.get(1).cert;
        TestCert t = weak.copy();
        t.rootKinds = TestCert.P;
        rejects(t.write(), "R-HDR-1");
        t = weak.copy();
        t.rootKinds = TestCert.C;
        rejects(t.write(), "R-HDR-1"); // root_upper is not 16
        t.rootUpper = 16;
        Result c = verify(t.write(), new Options());
        assertEquals(Result.Verdict.VERIFIED, c.verdict, "{C} with the root's value as lower bound");
        t = weak.copy();
        t.rootKinds = TestCert.A;
        rejects(t.write(), "R-HDR-1"); // root_value is not -16
        t.rootValue = -16;
        assertEquals(Result.Verdict.VERIFIED, verify(t.write(), new Options()).verdict, "{A} with the root's value as upper bound");
        t = weak.copy();
        t.rootUpper = t.rootValue - 1; // {C, A} with lo > hi
        rejects(t.write(), "R-HDR-1");
    }

    @Test
    void openKindOutsideAPartAndOnTheSetWithoutO() throws Exception {
        TestCert t = othCert.copy();
        ofKind(t, TestCert.PP).get(0).kind |= TestCert.O;
        Result r = rejects(t.write(), "R-KIND-1");
        assertTrue(r.firstViolation().message().contains("not a part"), r.firstViolation().message());
        t = othCert.copy();
        t.entries.get(0).kind = 0x60; // O plus a set that is not valid
        rejects(t.write(), "R-KIND-1");
        // R-KIND-2 looks at the set without O: an open exact entry in a weak part
        TestCert weak = TestComposite.split(oth, oth.othelloStart()[0], oth.othelloStart()[1], 2, 8).parts.get(0).cert.copy();
        for (Entry e : weak.entries) if ((e.kind & TestCert.O) != 0) { e.kind = TestCert.P | TestCert.O; break; }
        rejects(weak.write(), "R-KIND-2");
    }

    @Test
    void open1RootEntryOpen() throws Exception {
        TestCert t = othSplit().parts.get(0).cert.copy();
        Entry r = root(t, oth);
        r.kind |= TestCert.O;
        Result res = rejects(t.write(), "R-OPEN-1");
        assertEquals(Long.bitCount(r.occ), res.firstViolation().layer());
    }

    @Test
    void part1TheRootDoesNotProveTheClaim() throws Exception {
        TestComposite comp = othSplit();
        TestCert t = comp.parts.get(0).cert.copy();
        t.rootValue += 2;
        t.rootUpper += 2;
        rejects(t.write(), "R-PART-1");
        // a part claiming P whose root entry is {A'} only (A' does not serve P)
        for (TestComposite.Part p : comp.parts) {
            Entry e = root(p.cert, oth);
            if (e.kind != TestCert.AP || p.cert.rootKinds != TestCert.AP) continue;
            TestCert c = p.cert.copy();
            c.rootKinds = TestCert.P;
            rejects(c.write(), "R-PART-1");
            break;
        }
        // weak: a claimed lower bound above the root entry's
        TestCert w = TestComposite.split(oth, oth.othelloStart()[0], oth.othelloStart()[1], 2, 8).parts.get(1).cert.copy();
        w.rootKinds = TestCert.C;
        w.rootValue += 1;
        w.rootUpper = 16;
        rejects(w.write(), "R-PART-1");
    }

    /**
     * R-OPEN-2: 2^24 + 1 open entries, each (after a block's first) keyed by d = 0, x = 0: one
     * occupancy of Othello 8x8 (symmetry 0) whose last two discs let the mover always play f8, so
     * every entry is a legal, canonical, non-terminal position; the cap fails at block 16's only
     * entry, after the blocks before it were checked (SPEC §9's order). Checked once.
     */
    @Test
    void open2MoreThan2To24OpenEntries() throws Exception {
        TestCert t = new TestCert();
        t.family = 1;
        t.width = t.height = 8;
        t.utility = 1;
        t.symmetry = 0;
        t.mode = TestCert.PART | 2;
        t.tb = new int[64];
        for (int i = 0; i < 64; i++) t.tb[i] = i;
        t.rootMover = 1L << 28 | 1L << 35; // the start
        t.rootOpponent = 1L << 27 | 1L << 36;
        t.rootKinds = TestCert.C | TestCert.A;
        t.maxBlockEntries = 1 << 20;
        t.maxBlockBytes = 1 << 24;
        long occ = (1L << 21) - 1 | 1L << 27 | 1L << 28 | 1L << 35 | 1L << 36 | 1L << 62 | 1L << 63;
        long c0 = 1L << 26; // h8 the mover's, g8 the opponent's: f8 is always legal
        int blocks = 17, full = 1 << 20;
        for (int b = 0; b < blocks; b++) t.entries.add(new Entry(occ, TestCert.pdep(c0 + (long) b * full, occ), TestCert.A | TestCert.O, -64, 64, 0));
        t.chunk = 1;
        t.payloadHook = (b, raw) -> {
            int n = b < blocks - 1 ? full : 1;
            ByteArrayOutputStream out = new ByteArrayOutputStream(4 * n + 16);
            TestCert.varint(out, occ);
            TestCert.varint(out, c0 + (long) b * full);
            for (int i = 1; i < n; i++) {
                out.write(0);
                out.write(0);
            }
            for (int i = 0; i < n; i++) out.write(TestCert.A | TestCert.O);
            for (int i = 0; i < n; i++) out.write(64);
            return out.toByteArray();
        };
        t.recordHook = (b, rec) -> rec[1] = b < blocks - 1 ? full : 1;
        t.entryCountOverride = (long) full * (blocks - 1) + 1;
        // Stored raw: the file's size keeps the entries within 64 per byte (SPEC §2), so the rule,
        // not the bound against decompression bombs, is what stops it.
        t.compress = TestCert::rawZstdFrame;
        long t0 = System.nanoTime();
        Result r = verify(t.write(), new Options());
        assertEquals(Result.Verdict.REJECTED, r.verdict, () -> r.errorMessage);
        assertEquals("R-OPEN-2", r.firstViolation().rule(), r.firstViolation().toString());
        assertEquals(16, r.firstViolation().block());
        assertEquals((long) full * 16, r.firstViolation().entry());
        covered.add("R-OPEN-2");
        System.out.printf("R-OPEN-2 over 2^24 open entries: %.1f s%n", (System.nanoTime() - t0) / 1e9);
    }

    // ------------------------------------------------------------------ composites (SPEC §15.2, §15.3)

    /** The composite is rejected with this rule, on one thread and on several; no composite id. */
    CompositeVerifier.Outcome composeRejects(TestComposite comp, String rule) throws Exception {
        return composeRejects(comp.writeTo(dir.resolve("comp" + System.nanoTime())), rule);
    }

    CompositeVerifier.Outcome composeRejects(Path d, String rule) {
        CompositeVerifier.Outcome first = null;
        for (int threads : new int[] {1, 3}) {
            Options o = new Options();
            o.threads = threads;
            CompositeVerifier.Outcome c = CompositeVerifier.verify(d, o, null);
            assertEquals(Result.Verdict.REJECTED, c.verdict(), () -> "expected " + rule + ", got " + c.verdict() + " " + c.error
                    + " " + (c.composition == null ? "" : c.composition.violation));
            assertEquals(rule, c.composition.violation.rule(), () -> c.composition.violation.toString());
            assertNull(c.composition.compositeId, "no composite id on rejection");
            if (first != null) assertEquals(first.composition.violation.toString(), c.composition.violation.toString());
            first = c;
        }
        covered.add(rule);
        return first;
    }

    @Test
    void compositeBaselineVerifies() throws Exception {
        CompositeVerifier.Outcome c = CompositeVerifier.verify(othSplit().writeTo(dir.resolve("ok")), new Options(), null);
        assertEquals(Result.Verdict.VERIFIED, c.verdict(), () -> c.error + " " + c.composition.violation);
    }

    @Test
    void man1AndMan2() throws Exception {
        TestComposite comp = othSplit();
        Path d = comp.writeTo(dir.resolve("man"));
        Path m = d.resolve("composite.gscm");
        byte[] good = Files.readAllBytes(m);
        // a part listed twice (parts 1.. must be strictly increasing)
        TestComposite twice = othSplit();
        twice.parts.add(2, twice.parts.get(1));
        for (long[] l : twice.links) if (l[3] >= 2) l[3]++;
        Files.write(m, twice.manifest());
        Result.Verdict v = composeRejects(d, "R-MAN-1").verdict();
        assertEquals(Result.Verdict.REJECTED, v);
        // part 0 again among the others
        TestComposite again = othSplit();
        again.parts.add(again.parts.get(0));
        Files.write(m, again.manifest());
        assertTrue(composeRejects(d, "R-MAN-1").composition.violation.message().contains("part 0 again"));
        // a byte after the frame; version 2; no part; links out of order; a parent out of range
        Files.write(m, Arrays.copyOf(good, good.length + 1));
        composeRejects(d, "R-MAN-1");
        byte[] body = comp.manifestBody();
        byte[] b = body.clone();
        b[4] = 2;
        Files.write(m, TestComposite.frame(b));
        composeRejects(d, "R-MAN-1");
        TestComposite swapped = othSplit();
        java.util.Collections.swap(swapped.links, 0, 1);
        Files.write(m, swapped.manifest());
        composeRejects(d, "R-MAN-1");
        TestComposite parent = othSplit();
        parent.links.get(parent.links.size() - 1)[0] = parent.parts.size();
        Files.write(m, parent.manifest());
        composeRejects(d, "R-MAN-1");
        // an edited link (its commitment not recomputed): R-MAN-2
        byte[] edited = good.clone();
        edited[8 + 10 + 5] ^= 1; // inside part 0's commitment
        Files.write(m, edited);
        composeRejects(d, "R-MAN-2");
        // not a manifest at all: error
        Files.write(m, new byte[] {1, 2, 3});
        assertEquals(Result.Verdict.ERROR, CompositeVerifier.verify(d, new Options(), null).verdict());
    }

    @Test
    void comp1ARejectedPart() throws Exception {
        TestComposite comp = othSplit();
        TestCert t = comp.parts.get(1).cert;
        t.rootValue += 2;
        t.rootUpper += 2;
        comp.rewrite(1); // the part as committed is false: its name is its own commitment
        comp.sortParts();
        CompositeVerifier.Outcome c = composeRejects(comp, "R-COMP-1");
        assertEquals("R-PART-1", c.composition.partViolation.rule());
        assertTrue(c.composition.violation.message().contains("R-PART-1"), c.composition.violation.message());
    }

    @Test
    void comp2APartOfAnotherTieBreakingOrder() throws Exception {
        int[] reversed = new int[16];
        for (int i = 0; i < 16; i++) reversed[i] = 15 - i;
        TinySolver other = new TinySolver(1, 4, 4, 1, reversed);
        TestComposite comp = othSplit();
        int i = partOfMode(comp, 1);
        TestCert t = comp.parts.get(i).cert;
        comp.parts.set(i, new TestComposite.Part(other.buildPart(t.rootMover, t.rootOpponent, 1, t.rootKinds, 0)));
        comp.sortParts();
        composeRejects(comp, "R-COMP-2");
        // another game altogether: Connect Four
        comp = othSplit();
        comp.parts.set(1, new TestComposite.Part(c4Cert));
        comp.sortParts();
        composeRejects(comp, "R-COMP-2");
    }

    @Test
    void comp3LinksAndOpenEntries() throws Exception {
        // a link naming a position that is no open entry of its parent (the root's own key)
        TestComposite comp = othSplit();
        long k = oth.canonicalKey(comp.parts.get(0).cert.rootMover, comp.parts.get(0).cert.rootOpponent);
        comp.links.get(0)[1] = k >>> 32;
        comp.links.get(0)[2] = k & 0xFFFFFFFFL;
        comp.sortLinks();
        composeRejects(comp, "R-COMP-3");
        // an open entry that no link names
        comp = othSplit();
        comp.links.remove(0);
        composeRejects(comp, "R-COMP-3");
    }

    @Test
    void comp4APartRootedAtAnotherPosition() throws Exception {
        TestComposite comp = othSplit();
        long[] a = comp.links.get(0), b = comp.links.get(1);
        assertTrue(a[3] != b[3]);
        long t = a[3];
        a[3] = b[3];
        b[3] = t;
        CompositeVerifier.Outcome c = composeRejects(comp, "R-COMP-4");
        assertTrue(c.composition.violation.message().startsWith("link 0"), c.composition.violation.message());
    }

    @Test
    void comp5AWeakerKindOrAWrongBound() throws Exception {
        // an open {P} entry discharged by a part claiming {A'} at the same position
        TestComposite comp = othSplit();
        boolean found = false;
        for (long[] l : comp.links) {
            TestCert q = comp.parts.get((int) l[3]).cert;
            if (q.rootKinds != TestCert.P) continue;
            comp.parts.set((int) l[3], new TestComposite.Part(oth.buildPart(q.rootMover, q.rootOpponent, 1, TestCert.AP, 0)));
            found = true;
            break;
        }
        assertTrue(found, "an open entry of kind P");
        comp.sortParts();
        composeRejects(comp, "R-COMP-5");
        // weak: an open {C, A} entry of value v discharged by a part claiming only value >= v - 1
        comp = TestComposite.split(oth, oth.othelloStart()[0], oth.othelloStart()[1], 2, 8);
        found = false;
        for (int i = 1; i < comp.parts.size() && !found; i++) {
            TestCert q = comp.parts.get(i).cert;
            if (q.rootValue <= -16) continue;
            q.rootKinds = TestCert.C;
            q.rootValue -= 1;
            q.rootUpper = 16;
            comp.rewrite(i);
            found = true;
        }
        comp.sortParts();
        CompositeVerifier.Outcome c = composeRejects(comp, "R-COMP-5");
        assertTrue(c.composition.violation.message().contains("does not imply"), c.composition.violation.message());
    }

    @Test
    void comp6AnUnusedPart() throws Exception {
        TestComposite comp = othSplit();
        long[] after = new long[3];
        long[] s = oth.othelloStart();
        oth.game.child(s[0], s[1], Long.numberOfTrailingZeros(oth.game.legalMoveCodes(s[0], s[1])), after);
        comp.parts.add(new TestComposite.Part(oth.build(after[0], after[1], 1)));
        comp.sortParts();
        composeRejects(comp, "R-COMP-6");
    }

    /** A part with an extra (unreached) open entry at the root part's root, discharged by part 0. */
    @Test
    void comp7ACycle() throws Exception {
        TestComposite comp = othSplit();
        TestCert root = comp.parts.get(0).cert;
        long k = oth.canonicalKey(root.rootMover, root.rootOpponent);
        int i = partOfMode(comp, 1);
        TestComposite.Part part = comp.parts.get(i);
        part.cert.entries.add(new Entry(k >>> 32, k & 0xFFFFFFFFL, TestCert.P | TestCert.O, root.rootValue, root.rootValue, 0));
        comp.rewrite(i);
        comp.links.add(new long[] {i, k >>> 32, k & 0xFFFFFFFFL, 0});
        comp.sortParts();
        Result alone = verify(part.bytes, new Options()); // true, with one more open entry (unreached)
        assertEquals(Result.Verdict.INCOMPLETE, alone.verdict, () -> String.valueOf(alone.firstViolation()));
        assertEquals(1, alone.unreached);
        CompositeVerifier.Outcome c = composeRejects(comp, "R-COMP-7");
        assertTrue(c.composition.violationPart == 0 || c.composition.violationPart == comp.indexOf(part), c.composition.violation.message());
    }

    // ------------------------------------------------------------ weak-ranked (mode 4), LOA

    static Entry entryAt(TestCert t, int layer, int kind) {
        for (Entry e : t.entries) if (e.layer == layer && e.kind == kind) return e;
        throw new AssertionError("no entry of kind " + kind + " at rank " + layer);
    }

    @Test
    void weakRankedLoaVerifies() throws Exception {
        TestCert t = org.gamecert.verifier.testcert.LoaTestCerts.start4x4();
        assertNotNull(t);
        Result r = verify(t.write(), new Options());
        assertEquals(Result.Verdict.VERIFIED, r.verdict, () -> r.firstViolation() + " " + r.errorMessage);
        assertEquals(0, r.unreached);
    }

    @Test
    void rankThatDoesNotDecrease() throws Exception { // R-RANK-1: a child at the parent's rank
        TestCert t = org.gamecert.verifier.testcert.LoaTestCerts.start4x4();
        Entry loss = entryAt(t, 2, TestCert.A);
        Entry win = entryAt(t, 1, TestCert.C);
        win.layer = 2; // now in the loss's layer: sorted there by key
        t.entries.sort((a, b) -> a.layer != b.layer ? Integer.compare(a.layer, b.layer)
                : a.occ != b.occ ? Long.compareUnsigned(a.occ, b.occ) : Long.compareUnsigned(a.mover, b.mover));
        Result r = rejects(t.write(), Rule.RANK_1);
        assertEquals(loss.mover, r.firstViolation().mover());
    }

    @Test
    void lossWithAChildMissing() throws Exception { // R-ALL-1: the missing child gives [-1, +1]
        TestCert t = org.gamecert.verifier.testcert.LoaTestCerts.start4x4();
        t.entries.remove(entryAt(t, 1, TestCert.C));
        rejects(t.write(), Rule.ALL_1);
    }

    @Test
    void ranksOutOfOrder() throws Exception { // R-LAY-1: ranks come lowest first
        TestCert t = org.gamecert.verifier.testcert.LoaTestCerts.start4x4();
        java.util.Collections.reverse(t.entries);
        rejects(t.write(), Rule.LAY_1);
    }

    @Test
    void aPositionInTwoRanks() throws Exception { // R-LAY-3: one entry per position in mode 4
        TestCert t = org.gamecert.verifier.testcert.LoaTestCerts.start4x4();
        Entry win = entryAt(t, 1, TestCert.C).copy();
        win.layer = 3; // the same position again, in the last rank
        int at = 0;
        while (at < t.entries.size() && t.entries.get(at).layer <= 2) at++;
        t.entries.add(at, win);
        rejects(t.write(), Rule.LAY_3);
    }

    @Test
    void weakRankedHasNoCensus() throws Exception { // R-CENSUS-1
        TestCert t = org.gamecert.verifier.testcert.LoaTestCerts.start4x4();
        t.census.add(new long[] {8, 0, 1});
        rejects(t.write(), Rule.CENSUS_1);
    }

    @Test
    void loaIsWeakRankedOnly() throws Exception { // R-HDR-1
        TestCert t = org.gamecert.verifier.testcert.LoaTestCerts.start4x4();
        t.mode = 2;
        rejects(t.write(), Rule.HDR_1);
    }

    @Test
    void simultaneousConnectionClaimedAsAWin() throws Exception { // R-CUT-1: the move draws
        long[] p = org.gamecert.verifier.testcert.LoaTestCerts.simultaneousConnection(5, 1);
        assertNotNull(p, "a move connecting both sides");
        TestCert t = org.gamecert.verifier.testcert.LoaTestCerts.header(5, p[0], p[1], 1);
        Entry e = new Entry(p[0] | p[1], p[0], TestCert.C, 1, 0, (int) p[2]);
        e.layer = 1;
        t.entries.add(e);
        Result r = rejects(t.write(), Rule.CUT_1);
        assertTrue(r.firstViolation().message().contains("achieves at least 0"), r.firstViolation().message());
    }

    @Test
    void weakRankedIllegalMove() throws Exception { // R-MOVE-1 (LoaRulesTest: which moves are legal)
        org.gamecert.verifier.kernel.rules.LoaRules g = new org.gamecert.verifier.kernel.rules.LoaRules(4);
        long[] s = g.start();
        long legal = g.legalMoveCodes(s[0], s[1]);
        TestCert t = org.gamecert.verifier.testcert.LoaTestCerts.start4x4();
        Entry root = entryAt(t, 3, TestCert.C);
        int illegal = Long.numberOfTrailingZeros(~legal);
        root.move = illegal;
        rejects(t.write(), Rule.MOVE_1);
    }

    /** The rule ids of SPEC Appendix A (the rule index). */
    static Set<String> specRules() throws java.io.IOException {
        Path spec = Path.of("..", "format-spec", "SPEC.md");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^\\| (R-[A-Z]+-\\d+) \\|", java.util.regex.Pattern.MULTILINE).matcher(Files.readString(spec));
        Set<String> ids = new java.util.TreeSet<>();
        while (m.find()) ids.add(m.group(1));
        return ids;
    }

    @Test
    void theRuleIdsAreTheSpecs() throws Exception {
        Set<String> ours = new java.util.TreeSet<>();
        for (java.lang.reflect.Field f : Rule.class.getFields()) ours.add((String) f.get(null));
        assertTrue(specRules().size() >= 30, "SPEC Appendix A lists the rules");
        assertEquals(specRules(), ours);
    }

    @org.junit.jupiter.api.AfterAll
    static void everyRuleCovered() throws Exception {
        // Only meaningful when the whole class ran.
        Set<String> missing = new HashSet<>(specRules());
        missing.removeAll(covered);
        if (covered.size() > 20) assertEquals(Set.of(), missing, "rules without a rejecting test");
    }
}
