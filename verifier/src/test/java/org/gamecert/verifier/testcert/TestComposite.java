package org.gamecert.verifier.testcert;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test-only composite writer (SPEC §15): parts as TestCert certificates, a manifest of their
 * commitments and links, and a directory holding composite.gscm and each part as
 * <64 hex digits>.gsc. Every field can be changed before writing, to build faulty composites.
 */
public final class TestComposite {
    /** A part: its certificate and the bytes written for it. */
    public static final class Part {
        public TestCert cert;
        public byte[] bytes;

        public Part(TestCert cert) {
            this.cert = cert;
            this.bytes = cert.write();
        }

        public byte[] commitment() {
            return Arrays.copyOfRange(bytes, bytes.length - 32, bytes.length);
        }

        public String hex() {
            return HexFormat.of().formatHex(commitment());
        }
    }

    /** Parts, part 0 the root part; the others in manifest order once sorted (sortParts). */
    public final List<Part> parts = new ArrayList<>();
    /** Links {parent, occ, mover, part}. */
    public final List<long[]> links = new ArrayList<>();

    /**
     * Splits the game at the position into parts: a root part (mode 1: claim {P}; mode 2: {C, A})
     * whose positions with cuts[0] discs are open, each discharged by a part rooted there (its
     * open entry's exact kinds in mode 1; {C, A}, weak, for a bound entry) whose own positions
     * with cuts[1] discs are open, and so on; the last level's parts have no open entry. Parts
     * with equal content are one part (several links name it).
     */
    public static TestComposite split(TinySolver s, long rootMover, long rootOpp, int mode, int... cuts) {
        TestComposite c = new TestComposite();
        int rootKinds = mode == 1 ? TestCert.P : TestCert.C | TestCert.A;
        c.parts.add(new Part(s.buildPart(rootMover, rootOpp, mode, rootKinds, cuts.length > 0 ? cuts[0] : 0)));
        Map<String, Integer> byHex = new LinkedHashMap<>();
        byHex.put(c.parts.get(0).hex(), 0);
        List<int[]> todo = new ArrayList<>(); // {part, level}
        todo.add(new int[] {0, 0});
        for (int t = 0; t < todo.size(); t++) {
            int p = todo.get(t)[0], level = todo.get(t)[1];
            for (TestCert.Entry e : c.parts.get(p).cert.entries) {
                if ((e.kind & TestCert.O) == 0) continue;
                int kind = e.kind & ~TestCert.O;
                boolean exact = (kind & (TestCert.P | TestCert.AP | TestCert.PP)) != 0;
                int next = level + 1 < cuts.length ? cuts[level + 1] : 0;
                TestCert sub = exact ? s.buildPart(e.mover, e.occ & ~e.mover, 1, kind, next)
                        : s.buildPart(e.mover, e.occ & ~e.mover, 2, TestCert.C | TestCert.A, next);
                Part part = new Part(sub);
                Integer q = byHex.get(part.hex());
                if (q == null) {
                    q = c.parts.size();
                    byHex.put(part.hex(), q);
                    c.parts.add(part);
                    todo.add(new int[] {q, level + 1});
                }
                c.links.add(new long[] {p, e.occ, e.mover, q});
            }
        }
        c.sortParts();
        return c;
    }

    /** Puts parts 1.. in increasing commitment order (the manifest's, SPEC §15.2), links renumbered. */
    public void sortParts() {
        List<Part> rest = new ArrayList<>(parts.subList(1, parts.size()));
        rest.sort((x, y) -> Arrays.compareUnsigned(x.commitment(), y.commitment()));
        int[] place = new int[parts.size()];
        for (int i = 1; i < parts.size(); i++) place[i] = rest.indexOf(parts.get(i)) + 1;
        Part root = parts.get(0);
        parts.clear();
        parts.add(root);
        parts.addAll(rest);
        for (long[] l : links) {
            l[0] = place[(int) l[0]];
            l[3] = place[(int) l[3]];
        }
        sortLinks();
    }

    public void sortLinks() {
        links.sort((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0])
                : x[1] != y[1] ? Long.compareUnsigned(x[1], y[1]) : Long.compareUnsigned(x[2], y[2]));
    }

    /** Rewrites part i's bytes from its certificate (after changing it); its commitment changes. */
    public void rewrite(int i) {
        parts.get(i).bytes = parts.get(i).cert.write();
    }

    /** The manifest's content before its commitment: GSCM, version 1, parts, links. */
    public byte[] manifestBody() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes("GSCM".getBytes());
        TestCert.le(b, 1, 2);
        TestCert.le(b, parts.size(), 4);
        for (Part p : parts) b.writeBytes(p.commitment());
        TestCert.le(b, links.size(), 4);
        for (long[] l : links) {
            TestCert.le(b, l[0], 4);
            TestCert.le(b, l[1], 8);
            TestCert.le(b, l[2], 8);
            TestCert.le(b, l[3], 4);
        }
        return b.toByteArray();
    }

    /** The manifest file: one frame, magic 0x184D2A53, content with its commitment. */
    public byte[] manifest() {
        return frame(manifestBody());
    }

    /** A manifest file for the given content (before the commitment), its commitment computed. */
    public static byte[] frame(byte[] body) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(body);
        b.writeBytes(commitment(body));
        byte[] content = b.toByteArray();
        ByteArrayOutputStream f = new ByteArrayOutputStream();
        TestCert.frame(f, 0x184D2A53, content, content.length);
        return f.toByteArray();
    }

    static byte[] commitment(byte[] body) {
        MessageDigest md = TestCert.md();
        md.update((byte) 3);
        md.update(body);
        return md.digest();
    }

    /** The composite id this writer computed. */
    public String compositeId() {
        return "sha256:" + HexFormat.of().formatHex(commitment(manifestBody()));
    }

    /** Writes composite.gscm and every part as <hex>.gsc into dir (created); returns dir. */
    public Path writeTo(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve("composite.gscm"), manifest());
        for (Part p : parts) Files.write(dir.resolve(p.hex() + ".gsc"), p.bytes);
        return dir;
    }

    public int indexOf(Part p) {
        return parts.indexOf(p);
    }
}
