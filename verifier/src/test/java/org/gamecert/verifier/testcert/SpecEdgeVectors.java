package org.gamecert.verifier.testcert;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.gamecert.verifier.kernel.rules.Game;

/**
 * SPEC §14 vectors `edge-*` for the points a second implementer had to settle (issue 23) and the
 * features the corpus never showed. Each is built from a valid certificate of {@link TinySolver}
 * (or one with a crafted payload or zstd frame); `SpecVectorsTest` checks the verdicts listed in
 * vectors.tsv, and `CraftedCorpusTest` that the files are exactly what this makes. To write them
 * (with .hex dumps and their vectors.tsv lines): run {@link #main} with format-spec/vectors.
 */
public final class SpecEdgeVectors {
    private SpecEdgeVectors() {}

    /** A vector: file name, bytes, expected verdict and rule, description. */
    public record Vector(String file, byte[] bytes, String verdict, String rule, String description) {}

    /** Othello 4×4, a few plies from the start: small certificates. */
    static long[] othelloPosition(TinySolver s, int plies, long seed) {
        long[] p = s.othelloStart();
        SplittableRandom rnd = new SplittableRandom(seed);
        long[] out = new long[3];
        for (int i = 0; i < plies; i++) {
            long moves = s.game.legalMoveCodes(p[0], p[1]);
            if (moves == 0) break;
            int k = rnd.nextInt(Long.bitCount(moves));
            for (int j = 0; j < k; j++) moves &= moves - 1;
            int kind = s.game.child(p[0], p[1], Long.numberOfTrailingZeros(moves), out);
            if (kind == Game.TERMINAL) break;
            p = new long[] {out[0], out[1]};
        }
        return p;
    }

    public static List<Vector> vectors() {
        List<Vector> v = new ArrayList<>();
        // Corpus gaps: features no vector showed.
        TinySolver c4mirror = new TinySolver(2, 3, 4, 2, null);
        v.add(new Vector("edge-valid-connect4-mirror.gsc", c4mirror.build(0, 0, 1).write(), "verified", "-",
                "Connect Four 3x4 from the empty board, semi-strong, with the mirror symmetry (symmetry 2)"));
        TinySolver o4sym0 = new TinySolver(1, 4, 4, 0, null);
        long[] p10 = othelloPosition(o4sym0, 6, 3);
        v.add(new Vector("edge-valid-othello-symmetry-0.gsc", o4sym0.build(p10[0], p10[1], 1).write(), "verified", "-",
                "Othello 4x4, a 10-disc position, semi-strong, symmetry 0 (no quotient)"));
        int[] reversed = new int[16];
        for (int i = 0; i < 16; i++) reversed[i] = 15 - i;
        TinySolver o4rev = new TinySolver(1, 4, 4, 1, reversed);
        v.add(new Vector("edge-valid-othello-tb-reversed.gsc", o4rev.build(p10[0], p10[1], 1).write(), "verified", "-",
                "the same position, tie-breaking order reversed (p4 first, a1 last): another canonical move where values tie"));
        // The root given in a non-canonical orientation: the header keeps it as given (SPEC §4), the
        // root's entry is its canonical form, and the report maps the move back (§7.4).
        TinySolver o4 = new TinySolver(1, 4, 4, 1, null);
        long[] shown = null;
        for (int g = 0; g < 8 && shown == null; g++) { // the first image that is not the canonical form
            long m = o4.game.transform(p10[0], g), o = o4.game.transform(p10[1], g);
            long[] canon = new long[9];
            long canonOcc = o4.game.canonical(m, o, 8, canon);
            if (canonOcc != (m | o) || canon[8] != m) shown = new long[] {m, o};
        }
        v.add(new Vector("edge-valid-root-not-canonical.gsc", o4.build(shown[0], shown[1], 1).write(), "verified", "-",
                "the 10-disc position given in a non-canonical orientation in the header"));
        // An unreached entry that is true: {C} with the trivial lower bound U_min at a position nobody needs.
        TestCert extra = o4.build(p10[0], p10[1], 2);
        long[] far = othelloPosition(o4, 3, 11);
        long[] c = new long[9];
        long occ = o4.game.canonical(far[0], far[1], 8, c);
        long legal = o4.game.legalMoveCodes(c[8], occ & ~c[8]);
        extra.entries.add(new TestCert.Entry(occ, c[8], TestCert.C, -16, 16, Long.numberOfTrailingZeros(legal)));
        v.add(new Vector("edge-valid-unreached-true-entry.gsc", extra.write(), "verified", "-",
                "a weak certificate plus one true entry nobody needs ({C}, lower bound -16): verified, 1 unreached entry "
                        + "(R-REACH-1 only when asked, SPEC §10.2)"));
        // Mode 3 (SPEC 1.1 §9.1): the weak certificate of the 10-disc position with leaves of at
        // most 3 empty cells, once with an entry kept at a leaf, once with a bound next to the
        // leaves that the verifier's own search refutes.
        TestCert leaves = o4.build(p10[0], p10[1], 2);
        leaves.mode = 3;
        leaves.leafEmpties = 3;
        List<TestCert.Entry> atLeaves = new ArrayList<>();
        for (TestCert.Entry e : leaves.entries) if (16 - Long.bitCount(e.occ) <= 3) atLeaves.add(e);
        leaves.entries.removeAll(atLeaves);
        for (long[] row : leaves.census) if (16 - row[0] <= 3) row[2] = 0;
        TestCert kept = leaves.copy();
        TestCert.Entry leaf = atLeaves.get(0).copy();
        kept.entries.add(leaf);
        for (long[] row : kept.census) if (row[0] == Long.bitCount(leaf.occ)) row[2]++;
        v.add(new Vector("edge-rejected-leaf-1-entry-at-a-leaf.gsc", kept.write(), "rejected", "R-LEAF-1",
                "Othello 4x4 weak with endgame leaves (mode 3, leaf_empties 3) and one entry kept at a leaf (3 empty cells)"));
        TestCert refuted = leaves.copy();
        long[] out = new long[3];
        for (TestCert.Entry e : refuted.entries) {
            if (16 - Long.bitCount(e.occ) != 4 || e.kind != (TestCert.C | TestCert.A)) continue;
            long opp = e.occ & ~e.mover;
            boolean allLeaves = true;
            for (long m = o4.game.legalMoveCodes(e.mover, opp); m != 0; m &= m - 1)
                if (o4.game.child(e.mover, opp, Long.numberOfTrailingZeros(m), out) == Game.TERMINAL) allLeaves = false;
            if (!allLeaves || e.lo >= 16) continue;
            e.lo = e.hi = e.lo + 1;
            break;
        }
        v.add(new Vector("edge-rejected-leaf-2-cut-refuted.gsc", refuted.write(), "rejected", "R-LEAF-2",
                "the same mode-3 certificate with one {C,A} bound next to the leaves raised by 1: its cut move's leaf is worth less"));
        // Points where the rule id depends on reading order (SPEC §1, §5.2, §9, §11): a valid
        // certificate whose first block (one entry) gets a crafted payload; its chain is sealed over it.
        TestCert base = o4.build(p10[0], p10[1], 1);
        v.add(new Vector("edge-rejected-enc-1-tenth-byte-last.gsc", withPayload(base, 1,
                new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
                        (byte) 0x80, (byte) 0x82}), "rejected", "R-ENC-1",
                "a key varint whose 10th byte is 0x82 and is the payload's last byte: R-ENC-1 (the byte is there), not R-ENC-2"));
        byte[] overflow = new byte[12];
        overflow[0] = 1; // d0 = 1
        overflow[1] = 0; // x0 = 0
        for (int i = 2; i < 11; i++) overflow[i] = (byte) 0xFF; // d1 = 2^64 - 1: occ1 would pass 2^64
        overflow[11] = 0x01;
        v.add(new Vector("edge-rejected-enc-2-before-enc-3.gsc", withPayload(base, 2, overflow), "rejected", "R-ENC-2",
                "the second entry's d pushes occ past 2^64 and its x is missing: R-ENC-2 (both varints are read before the key checks)"));
        TestCert weakBase = o4.build(p10[0], p10[1], 2);
        v.add(new Vector("edge-rejected-val-0-before-enc-2.gsc", withPayload(weakBase, 1,
                new byte[] {(byte) 0x80, 0x01, 0x00, 0x18, 0x7F}), "rejected", "R-VAL-0",
                "a {C, A} entry whose lower bound 127 is out of range and whose upper bound is missing: R-VAL-0 (checked as read)"));
        v.add(new Vector("edge-rejected-kind-2-before-kind-1.gsc", withPayload(weakBase, 2,
                new byte[] {(byte) 0x80, 0x01, 0x00, 0x01, 0x00, 0x01, 0x40}), "rejected", "R-KIND-2",
                "entry 0 holds P in a weak certificate, entry 1 an invalid kind byte: R-KIND-2 (both kind rules per entry, entry by entry)"));
        byte[] valid = base.write();
        v.add(new Vector("edge-error-11-bytes.gsc", java.util.Arrays.copyOf(valid, 11), "error", "-",
                "a valid certificate cut to 11 bytes: not a certificate (SPEC §2, §11)"));
        v.add(new Vector("edge-rejected-con-1-12-bytes.gsc", java.util.Arrays.copyOf(valid, 12), "rejected", "R-CON-1",
                "the same cut to 12 bytes: a certificate, truncated (R-CON-1)"));
        v.add(new Vector("edge-rejected-con-3-reserved-bit.gsc", reservedBit(valid), "rejected", "R-CON-3",
                "the first data frame's Frame_Header_Descriptor has its reserved bit set: R-CON-3 (RFC 8878: a decoder must not accept it)"));
        // An entry with fewer discs than the root (SPEC §10.2): allowed, checked, never reached.
        TestCert below = o4.build(p10[0], p10[1], 2);
        long[] early = othelloPosition(o4, 2, 7);
        long[] e = new long[9];
        long eOcc = o4.game.canonical(early[0], early[1], 8, e);
        below.entries.add(new TestCert.Entry(eOcc, e[8], TestCert.A, -16, 16, 0));
        v.add(new Vector("edge-valid-entry-below-root.gsc", below.write(), "verified", "-",
                "a weak certificate of a 10-disc root plus a true {A} entry (upper bound 16) with 6 discs: allowed, "
                        + "unreached, in no census row"));
        // The first violation follows file order (SPEC §9): a false value in the first block comes
        // before bytes after the trailer at the end of the file.
        TestCert falseFirst = base.copy();
        TestCert.Entry deepest = falseFirst.entries.get(0);
        for (TestCert.Entry x : falseFirst.entries) if (x.layer() > deepest.layer()) deepest = x;
        deepest.lo += deepest.lo < 16 ? 1 : -1;
        deepest.hi = deepest.lo;
        byte[] tail = falseFirst.write();
        byte[] withJunk = java.util.Arrays.copyOf(tail, tail.length + 3);
        v.add(new Vector("edge-rejected-first-block-before-trailing-bytes.gsc", withJunk, "rejected", ruleOf(withJunk),
                "a false exact value in the first block and 3 bytes after the trailer: the entry's rule, not R-CON-1"));
        // A child lookup sees only earlier blocks (SPEC §9): the deepest layer moved to the end of the
        // file, so the layer above finds no children before R-LAY-1 is reached.
        TestCert moved = base.copy();
        moved.sortEntries = false;
        int deepestLayer = 0;
        for (TestCert.Entry x : moved.entries) deepestLayer = Math.max(deepestLayer, x.layer());
        final int dl = deepestLayer;
        java.util.List<TestCert.Entry> order = new ArrayList<>(moved.entries);
        order.sort(java.util.Comparator.comparingInt((TestCert.Entry x) -> x.layer() == dl ? 1 : 0)
                .thenComparingInt(x -> -x.layer())
                .thenComparing((x, y) -> x.occ != y.occ ? Long.compareUnsigned(x.occ, y.occ) : Long.compareUnsigned(x.mover, y.mover)));
        moved.entries = order;
        byte[] movedBytes = moved.write();
        v.add(new Vector("edge-rejected-lookup-sees-earlier-blocks.gsc", movedBytes, "rejected", ruleOf(movedBytes),
                "the deepest layer's blocks moved to the end of the file: the layer above misses its children before R-LAY-1"));
        // Data frames the reference writer never makes (SPEC §2): a content checksum, raw
        // (uncompressed) blocks, a window of exactly 2^24 and one just above it.
        TestCert checksum = base.copy();
        checksum.compress = raw -> {
            try (com.github.luben.zstd.ZstdCompressCtx ctx = new com.github.luben.zstd.ZstdCompressCtx()) {
                return ctx.setLevel(3).setChecksum(true).compress(raw);
            }
        };
        v.add(new Vector("edge-valid-content-checksum.gsc", checksum.write(), "verified", "-",
                "every data frame carries a content checksum (allowed; it must verify)"));
        TestCert rawBlocks = base.copy();
        rawBlocks.compress = raw -> rawFrame(raw, -1);
        v.add(new Vector("edge-valid-raw-blocks.gsc", rawBlocks.write(), "verified", "-",
                "every data frame is a single-segment frame of one raw (stored) block"));
        TestCert window = base.copy();
        window.compress = raw -> rawFrame(raw, 0x70);
        v.add(new Vector("edge-valid-window-2-24.gsc", window.write(), "verified", "-",
                "data frames with a Window_Descriptor of exactly 2^24 (0x70), raw blocks"));
        TestCert tooBig = base.copy();
        tooBig.compress = raw -> rawFrame(raw, 0x71);
        v.add(new Vector("edge-rejected-con-3-window.gsc", tooBig.write(), "rejected", "R-CON-3",
                "data frames with a window of 2^24 + 2^21 (Window_Descriptor 0x71): above 2^24"));
        // Mode 0x84 (a mode-4 part, which does not exist): R-HDR-1 at the mode field, whatever follows.
        long[] loa = new org.gamecert.verifier.kernel.rules.LoaRules(4).start();
        TestCert loaPart = LoaTestCerts.winProof(4, loa[0], loa[1], 3);
        loaPart.mode = 0x84;
        loaPart.rootKinds = 0x18;
        loaPart.rootUpper = 1;
        v.add(new Vector("edge-rejected-hdr-1-mode-0x84.gsc", loaPart.write(), "rejected", "R-HDR-1",
                "Lines of Action 4x4 weak-ranked with the mode byte 0x84 (a mode-4 part) and a part's root_kinds and root_upper after root_value: R-HDR-1 at the mode field, before anything after it is read (SPEC 9.2)"));
        return v;
    }

    /** Writes only the vectors not yet in dir (file and .hex); prints their vectors.tsv lines. */
    public static void writeNew(Path dir) throws IOException {
        for (Vector x : vectors()) {
            if (Files.exists(dir.resolve(x.file()))) continue;
            Files.write(dir.resolve(x.file()), x.bytes());
            Files.writeString(dir.resolve(x.file() + ".hex"), hex(x.bytes()), StandardCharsets.US_ASCII);
            System.out.println(x.file() + '\t' + x.verdict() + '\t' + x.rule() + '\t' + x.description());
        }
    }

    /**
     * A zstd frame of one raw block (RFC 8878 §3.1.1): 4-byte content size; single-segment when
     * {@code windowDescriptor} < 0, else with that Window_Descriptor byte.
     */
    static byte[] rawFrame(byte[] raw, int windowDescriptor) {
        return rawFrameOf(raw, windowDescriptor);
    }

    /** The first rule the reference verifier reports for these bytes (recorded in vectors.tsv, then checked by SpecVectorsTest). */
    static String ruleOf(byte[] file) {
        try {
            Path tmp = Files.createTempFile("edge", ".gsc");
            try {
                Files.write(tmp, file);
                org.gamecert.verifier.kernel.Result r = org.gamecert.verifier.engine.Verifier.verify(tmp,
                        new org.gamecert.verifier.engine.Options());
                return r.firstViolation() == null ? "-" : r.firstViolation().rule();
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException x) {
            throw new java.io.UncheckedIOException(x);
        }
    }

    private static byte[] rawFrameOf(byte[] raw, int windowDescriptor) {
        java.io.ByteArrayOutputStream f = new java.io.ByteArrayOutputStream();
        f.writeBytes(new byte[] {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD});
        boolean single = windowDescriptor < 0;
        f.write(0x80 | (single ? 0x20 : 0)); // FCS_Field_Size 4 bytes, no checksum, no dictionary
        if (!single) f.write(windowDescriptor);
        for (int i = 0; i < 4; i++) f.write(raw.length >>> (8 * i));
        int header = 1 | (raw.length << 3); // Last_Block, Block_Type 0 (raw), Block_Size
        for (int i = 0; i < 3; i++) f.write(header >>> (8 * i));
        f.writeBytes(raw);
        return f.toByteArray();
    }

    /** The certificate with blocks of {@code perBlock} entries, block 0's payload replaced by {@code raw}. */
    static byte[] withPayload(TestCert t, int perBlock, byte[] raw) {
        TestCert c = t.copy();
        c.chunk = perBlock;
        c.payloadHook = (block, old) -> block == 0 ? raw : old;
        return c.write();
    }

    /** Sets bit 3 (reserved) of the first zstd data frame's header descriptor. */
    static byte[] reservedBit(byte[] file) {
        byte[] b = file.clone();
        for (int i = 0; i + 4 < b.length; i++)
            if ((b[i] & 0xFF) == 0x28 && (b[i + 1] & 0xFF) == 0xB5 && (b[i + 2] & 0xFF) == 0x2F && (b[i + 3] & 0xFF) == 0xFD) {
                b[i + 4] |= 0x08;
                return b;
            }
        throw new IllegalStateException("no data frame");
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

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "format-spec/vectors");
        StringBuilder tsv = new StringBuilder();
        for (String line : Files.readAllLines(dir.resolve("vectors.tsv"), StandardCharsets.UTF_8))
            if (!line.startsWith("edge-")) tsv.append(line).append('\n');
        for (Vector x : vectors()) {
            Files.write(dir.resolve(x.file()), x.bytes());
            Files.writeString(dir.resolve(x.file() + ".hex"), hex(x.bytes()), StandardCharsets.US_ASCII);
            tsv.append(x.file()).append('\t').append(x.verdict()).append('\t').append(x.rule()).append('\t').append(x.description()).append('\n');
        }
        Files.writeString(dir.resolve("vectors.tsv"), tsv.toString(), StandardCharsets.UTF_8);
    }
}
