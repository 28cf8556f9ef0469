package org.gamecert.verifier.testcert;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;
import org.gamecert.verifier.kernel.rules.Game;

/**
 * SPEC §14 vectors `gap-*`: the corrupt (and one more valid) counterparts of the features issue 23
 * found the corpus never showed — a broken content checksum, the zstd Unused_Bit, the declared
 * tie-breaking order, symmetry 0 versus 1, Connect Four's mirror, a root entry stored as the header
 * gives it, unreached entries (counted in aux_d, checked). Each starts from a valid {@link TinySolver} certificate and
 * changes one thing, so the expected rule is the one that thing breaks; `SpecVectorsTest` and
 * `CorpusTest` check the verdicts in vectors.tsv, `SpecGapVectorsTest` that the files are exactly
 * what this makes. To write them (with .hex dumps and vectors.tsv lines): run {@link #main} with
 * format-spec/vectors.
 */
public final class SpecGapVectors {
    private SpecGapVectors() {}

    /** A vector: file name, bytes, expected verdict and rule, description. */
    public record Vector(String file, byte[] bytes, String verdict, String rule, String description) {}

    /** An Othello 4×4 position a few random plies from the start (seeded: the same every run). */
    static long[] othelloPosition(TinySolver s, int plies, long seed) {
        long[] p = s.othelloStart();
        SplittableRandom rnd = new SplittableRandom(seed);
        long[] out = new long[3];
        for (int i = 0; i < plies; i++) {
            long moves = s.game.legalMoveCodes(p[0], p[1]);
            if (moves == 0) break;
            int k = rnd.nextInt(Long.bitCount(moves));
            for (int j = 0; j < k; j++) moves &= moves - 1;
            if (s.game.child(p[0], p[1], Long.numberOfTrailingZeros(moves), out) == Game.TERMINAL) break;
            p = new long[] {out[0], out[1]};
        }
        return p;
    }

    public static List<Vector> vectors() {
        List<Vector> v = new ArrayList<>();
        TinySolver o4 = new TinySolver(1, 4, 4, 1, null);
        long[] p10 = othelloPosition(o4, 6, 3);
        TestCert base = o4.build(p10[0], p10[1], 1);
        byte[] valid = base.write();

        // SPEC §2: a content checksum MAY be present and, if present, MUST verify. The chain hashes
        // the uncompressed payload, so only R-CON-3 can see a wrong checksum.
        byte[] checksummed = reframe(valid, raw -> {
            try (ZstdCompressCtx ctx = new ZstdCompressCtx()) {
                return ctx.setLevel(3).setChecksum(true).compress(raw);
            }
        });
        byte[] badChecksum = checksummed.clone();
        int firstFrameEnd = dataFrameEnd(badChecksum, 0);
        badChecksum[firstFrameEnd - 1] ^= 0x01; // the checksum is the frame's last 4 bytes
        v.add(new Vector("gap-rejected-con-3-checksum.gsc", badChecksum, "rejected", "R-CON-3",
                "the first data frame's content checksum altered (the payload, and so every chain value, unchanged): R-CON-3"));

        // SPEC §2: RFC 8878's Unused_Bit (bit 4 of the Frame_Header_Descriptor) is not interpreted;
        // only the reserved bit (bit 3) is a violation. comp_len is not hashed: the same commitment.
        byte[] unused = reframe(valid, raw -> {
            byte[] f = Zstd.compress(raw, 3);
            f[4] |= 0x10;
            return f;
        });
        v.add(new Vector("gap-valid-zstd-unused-bit.gsc", unused, "verified", "-",
                "every data frame's Frame_Header_Descriptor has its Unused_Bit (bit 4) set: not interpreted (RFC 8878), "
                        + "verified with the commitment of the file without it"));

        // SPEC §8: a certificate proves its results under its declared order. The same entries,
        // the header declaring the reversed order: some canonical move is no longer the earliest.
        TestCert reversed = base.copy();
        for (int i = 0; i < 16; i++) reversed.tb[i] = 15 - i;
        v.add(new Vector("gap-rejected-tb-1-declared-order.gsc", reversed.write(), "rejected", "R-TB-1",
                "a valid certificate under the standard order with the header declaring the reversed one (p4 first): R-TB-1"));

        // SPEC §7.4, §10.3: symmetry 0 has no quotient. A symmetry-0 certificate whose header says
        // 1: its first key that is not the dihedral canonical form fails R-POS-3.
        TinySolver o4sym0 = new TinySolver(1, 4, 4, 0, null);
        TestCert sym0 = o4sym0.build(p10[0], p10[1], 1);
        sym0.symmetry = 1;
        v.add(new Vector("gap-rejected-pos-3-symmetry-0-as-1.gsc", sym0.write(), "rejected", "R-POS-3",
                "a valid symmetry-0 certificate with the header declaring symmetry 1: a key not in dihedral canonical form, R-POS-3"));

        // SPEC §7.3, §7.4: Connect Four's mirror. One entry of the deepest layer stored mirrored
        // (its move mirrored with it): R-POS-3 at that entry.
        TinySolver c4 = new TinySolver(2, 3, 4, 2, null);
        TestCert mirrored = c4.build(0, 0, 1);
        TestCert.Entry deep = null;
        for (TestCert.Entry e : mirrored.entries) {
            long mo = c4.game.transform(e.occ, 1), mm = c4.game.transform(e.mover, 1);
            if (mo == e.occ && mm == e.mover) continue; // symmetric: its mirror is itself
            if (deep == null || e.layer() > deep.layer()) deep = e;
        }
        long mOcc = c4.game.transform(deep.occ, 1), mMover = c4.game.transform(deep.mover, 1);
        deep.move = c4.game.mapMove(deep.move, 1);
        deep.occ = mOcc;
        deep.mover = mMover;
        v.add(new Vector("gap-rejected-pos-3-connect4-mirror.gsc", mirrored.write(), "rejected", "R-POS-3",
                "Connect Four 3x4 with the mirror symmetry, one entry of the deepest layer stored mirrored (not its canonical form): R-POS-3"));

        // SPEC §4, §9: the header's root may be in any orientation, its entry is at the canonical
        // form. The root's entry stored as the header gives it (move mapped with it): R-POS-3.
        long[] shown = null;
        int shownBy = -1;
        long[] c = new long[9];
        for (int g = 1; g < 8 && shown == null; g++) {
            long m = o4.game.transform(p10[0], g), o = o4.game.transform(p10[1], g);
            long cOcc = o4.game.canonical(m, o, 8, c);
            if (cOcc != (m | o) || c[8] != m) {
                shown = new long[] {m, o};
                shownBy = g;
            }
        }
        TestCert asGiven = o4.build(shown[0], shown[1], 1);
        long rootOcc = o4.game.canonical(shown[0], shown[1], 8, c), rootMover = c[8];
        for (TestCert.Entry e : asGiven.entries)
            if (e.occ == rootOcc && e.mover == rootMover) {
                // the canonical form is p10 itself or an image of it; find the g taking it to the shown root
                for (int g = 0; g < 8; g++)
                    if (o4.game.transform(e.occ, g) == (shown[0] | shown[1]) && o4.game.transform(e.mover, g) == shown[0]) {
                        e.move = o4.game.mapMove(e.move, g);
                        break;
                    }
                e.occ = shown[0] | shown[1];
                e.mover = shown[0];
            }
        v.add(new Vector("gap-rejected-pos-3-root-as-given.gsc", asGiven.write(), "rejected", "R-POS-3",
                "the root given in a non-canonical orientation (symmetry g" + shownBy + " of the position) and its entry stored in that "
                        + "orientation instead of the canonical one: R-POS-3"));

        // SPEC §10.2, §10.3: an unreached entry in the census range (more discs than the root, not
        // reachable from it) is checked like any other and counted in aux_d. True and counted:
        // verified; true but not counted: R-CENSUS-1; counted but false: R-CUT-1.
        TestCert weak = o4.build(p10[0], p10[1], 2);
        long[] q = null;
        for (long seed = 1; q == null; seed++) {
            long[] x = othelloPosition(o4, 7, seed);
            long xo = o4.game.canonical(x[0], x[1], 8, c), xm = c[8];
            long legal = o4.game.legalMoveCodes(xm, xo & ~xm);
            if (Long.bitCount(xo) == 11 && legal != 0 && weak.find(xo, xm) == null && o4.value(xm, xo & ~xm) < 16)
                q = new long[] {xo, xm, Long.numberOfTrailingZeros(legal)};
        }
        TestCert counted = withExtra(weak, new TestCert.Entry(q[0], q[1], TestCert.C, -16, 16, (int) q[2]), true);
        v.add(new Vector("gap-valid-unreached-entry-counted.gsc", counted.write(), "verified", "-",
                "a weak certificate plus one true entry nobody needs with 11 discs (root: 10), {C} with lower bound -16: "
                        + "verified, 1 unreached entry, counted in aux_11"));
        TestCert uncounted = withExtra(weak, new TestCert.Entry(q[0], q[1], TestCert.C, -16, 16, (int) q[2]), false);
        v.add(new Vector("gap-rejected-census-1-unreached-not-counted.gsc", uncounted.write(), "rejected", "R-CENSUS-1",
                "the same, with the trailer's aux_11 leaving the unreached entry out: R-CENSUS-1 (aux_d counts every {C}/{A}/{C, A} entry)"));
        TestCert falseOne = withExtra(weak, new TestCert.Entry(q[0], q[1], TestCert.C, 16, 16, (int) q[2]), true);
        v.add(new Vector("gap-rejected-cut-1-unreached-false-entry.gsc", falseOne.write(), "rejected", "R-CUT-1",
                "the same entry with a false lower bound 16: unreached entries are checked too (R-CUT-1)"));

        // SPEC §9, mode 5 (since text 1.5.0): an A' entry proves an optimal move. A canonical
        // certificate is a valid mode-5 one; an earlier move of an A' entry that may be worth more
        // than the value is R-AP-2 there (R-TB-1 in mode 1).
        TinySolver c44 = new TinySolver(2, 4, 4, 2, null);
        long[] c4Root = connectFour(c44, "123412");
        TestCert five = c44.build(c4Root[0], c4Root[1], 1);
        five.mode = 5;
        v.add(new Vector("gap-valid-mode-5-connect4-4x4.gsc", five.write(), "verified", "-",
                "Connect Four 4x4 after 123412, mirror symmetry, mode 5 (semi-strong, optimal moves; SPEC 9): the entries of"
                        + " the mode-1 certificate (canonical moves, exact auxiliary entries), which prove more than mode 5 asks"));
        TestCert earlier = earlierMoveNotRefuted(c44, five);
        v.add(new Vector("gap-rejected-ap-2-mode-5-earlier-move.gsc", earlier.write(), "rejected", "R-AP-2",
                "the same with the {C, A} entry of the child of an A' entry's move earlier than its stored move (read by that"
                        + " entry alone) given lower bound -1: the move may win, more than the value: R-AP-2 (mode 1: R-TB-1)"));
        return v;
    }

    /** Plays 1-based columns from the empty board. */
    static long[] connectFour(TinySolver s, String moves) {
        long mover = 0, opp = 0;
        for (char ch : moves.toCharArray()) {
            long cell = s.game.moveDelta(mover, opp, ch - '1');
            long t = opp;
            opp = mover | cell;
            mover = t;
        }
        return new long[] {mover, opp};
    }

    /**
     * The first A' entry (value below U_max, in file order of keys) with a move before its stored
     * one whose child is a {C, A} entry that only it reads: that child's lower bound set to U_min.
     */
    static TestCert earlierMoveNotRefuted(TinySolver s, TestCert base) {
        java.util.Map<Long, Integer> readers = new java.util.HashMap<>();
        long[] o = new long[3];
        for (TestCert.Entry e : base.entries) {
            long opp = e.occ & ~e.mover;
            for (long m = s.game.legalMoveCodes(e.mover, opp); m != 0; m &= m - 1)
                if (s.game.child(e.mover, opp, Long.numberOfTrailingZeros(m), o) != Game.TERMINAL)
                    readers.merge(s.canonicalKey(o[0], o[1]), 1, Integer::sum);
        }
        List<TestCert.Entry> sorted = new ArrayList<>(base.entries);
        sorted.sort((x, y) -> x.occ != y.occ ? Long.compareUnsigned(x.occ, y.occ) : Long.compareUnsigned(x.mover, y.mover));
        for (TestCert.Entry e : sorted) {
            if (e.kind != TestCert.AP || e.lo == s.game.uMax) continue;
            long opp = e.occ & ~e.mover;
            for (int code : base.tb) {
                if (code == e.move) break;
                if (((s.game.legalMoveCodes(e.mover, opp) >>> code) & 1) == 0
                        || s.game.child(e.mover, opp, code, o) != Game.CHILD) continue;
                long k = s.canonicalKey(o[0], o[1]);
                TestCert.Entry c = base.find(k >>> 32, k & 0xFFFFFFFFL);
                if (c == null || c.kind != (TestCert.C | TestCert.A) || readers.get(k) != 1) continue;
                TestCert t = base.copy();
                t.find(c.occ, c.mover).lo = s.game.uMin;
                return t;
            }
        }
        throw new IllegalStateException("no A' entry with such an earlier move");
    }

    /** t with one more entry, the census's aux count of its layer raised by one when {@code count}. */
    static TestCert withExtra(TestCert t, TestCert.Entry e, boolean count) {
        TestCert c = t.copy();
        c.entries.add(e);
        if (count)
            for (long[] r : c.census) if (r[0] == e.layer()) r[2]++;
        return c;
    }

    /**
     * The certificate with every data frame replaced by {@code compress} of its payload and each
     * BLOCK record's comp_len set to match. comp_len is not hashed (SPEC §3): chain values and the
     * commitment stay as they are.
     */
    static byte[] reframe(byte[] file, UnaryOperator<byte[]> compress) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int p = 8 + (int) le(file, 4, 4); // after the HEADER frame
        out.write(file, 0, p);
        while (le(file, p, 4) == 0x184D2A51L) {
            byte[] record = java.util.Arrays.copyOfRange(file, p, p + 56);
            int rawLen = (int) le(record, 16, 4), compLen = (int) le(record, 20, 4);
            byte[] frame = java.util.Arrays.copyOfRange(file, p + 56, p + 56 + compLen);
            byte[] raw = Zstd.decompress(frame, rawLen);
            byte[] again = compress.apply(raw);
            TestCert.putLe(record, 20, again.length, 4);
            out.writeBytes(record);
            out.writeBytes(again);
            p += 56 + compLen;
        }
        out.write(file, p, file.length - p); // the TRAILER frame
        return out.toByteArray();
    }

    /** The offset just after data frame {@code index}. */
    static int dataFrameEnd(byte[] file, int index) {
        int p = 8 + (int) le(file, 4, 4);
        for (int i = 0; ; i++) {
            int compLen = (int) le(file, p + 8 + 12, 4);
            p += 56 + compLen;
            if (i == index) return p;
        }
    }

    static long le(byte[] b, int p, int n) {
        long v = 0;
        for (int i = n - 1; i >= 0; i--) v = v << 8 | (b[p + i] & 0xFF);
        return v;
    }

    /** An xxd-style dump, as CorpusMain writes the other vectors'. */
    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (int off = 0; off < b.length; off += 16) {
            sb.append(String.format("%08x:", off));
            for (int i = 0; i < 16; i++) {
                if (i % 2 == 0) sb.append(' ');
                sb.append(off + i < b.length ? String.format("%02x", b[off + i] & 0xFF) : "  ");
            }
            sb.append("  ");
            for (int i = off; i < Math.min(b.length, off + 16); i++) sb.append(b[i] >= 0x20 && b[i] < 0x7F ? (char) b[i] : '.');
            sb.append('\n');
        }
        return sb.toString();
    }

    /** Writes the vectors, their dumps, and their lines in vectors.tsv (after the lines of valid-othello4x4-weak.gsc). */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "format-spec/vectors");
        List<String> kept = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("vectors.tsv"), StandardCharsets.UTF_8))
            if (!line.startsWith("gap-")) kept.add(line);
        List<String> mine = new ArrayList<>();
        for (Vector x : vectors()) {
            Files.write(dir.resolve(x.file()), x.bytes());
            Files.writeString(dir.resolve(x.file() + ".hex"), hex(x.bytes()), StandardCharsets.US_ASCII);
            mine.add(x.file() + '\t' + x.verdict() + '\t' + x.rule() + '\t' + x.description());
        }
        int at = kept.size();
        for (int i = 0; i < kept.size(); i++) if (kept.get(i).startsWith("valid-othello4x4-weak.gsc\t")) at = i + 1;
        kept.addAll(at, mine);
        Files.write(dir.resolve("vectors.tsv"), kept, StandardCharsets.UTF_8);
    }
}
