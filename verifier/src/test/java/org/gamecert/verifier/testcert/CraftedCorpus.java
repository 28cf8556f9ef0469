package org.gamecert.verifier.testcert;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Certificates written by hand (with {@link TestCert}) for testdata/crafted/: false claims that an
 * earlier verifier accepted, which no mutation of a producer certificate makes. Each is described
 * in testdata/manifest.tsv. `CraftedCorpusTest` checks that the files are exactly what this makes;
 * to write them: run {@link #main} with the testdata folder as argument.
 */
public final class CraftedCorpus {
    private CraftedCorpus() {}

    /** File name under testdata/crafted/ -> its bytes. */
    public static Map<String, byte[]> files() {
        Map<String, byte[]> m = new LinkedHashMap<>();
        // Issue 22 item 1: on 1×63 and 1×62 a shift by 2s ≥ 64 wrapped (Java takes long shift counts
        // mod 64) and one disc counted as four in a row. One column of alternating discs never makes
        // four: the empty board is a draw, claimed here a first-player win by move 1.
        for (int h : new int[] {63, 62}) {
            TestCert c = new TestCert();
            c.family = 2;
            c.width = 1;
            c.height = h;
            c.utility = 2;
            c.symmetry = 0;
            c.mode = 1;
            c.tb = new int[] {0};
            c.rootValue = 1;
            c.info = ("false: the empty 1x" + h + " board is a draw, claimed a first-player win by move 1").getBytes();
            c.entries.add(new TestCert.Entry(0, 0, TestCert.P, 1, 1, 0));
            for (int d = 0; d <= h; d++) c.census.add(new long[] {d, d <= 1 ? 1 : 0, 0});
            m.put("c4-1x" + h + "-empty-claimed-win.gsc", c.write());
        }
        return m;
    }

    /**
     * Peer table sets under testdata/crafted/ (path -> bytes), made from the genuine semi-strong
     * export testdata/peer/valid/othello6-10empties (root PV, value +10) by rewriting the root's
     * record. Issue 22 item 2: relabelled ALL [20, 20] or CUT [0, 0], such a set once verified with
     * root value 20 or 0, although ALL obliges only the upper bound and CUT only the lower one.
     */
    public static Map<String, byte[]> peerFiles(Path testdata) throws IOException {
        Map<String, byte[]> m = new LinkedHashMap<>();
        Path valid = testdata.resolve("peer/valid/othello6-10empties");
        Object[][] sets = {{"peer-root-relabelled-all-20", 8, 20, 20}, {"peer-root-relabelled-cut-0", 16, 0, 0}};
        for (Object[] set : sets) {
            try (var files = Files.list(valid)) {
                for (Path f : (Iterable<Path>) files.sorted()::iterator) {
                    byte[] b = Files.readAllBytes(f);
                    if (f.getFileName().toString().endsWith("_26.txt")) { // the root's table: its one record
                        long[] pos = new long[2];
                        if (b.length != 13 || !org.gamecert.verifier.peer.PeerCodec.decodeKey(b, 0, pos))
                            throw new IOException("unexpected root table in " + valid);
                        org.gamecert.verifier.peer.PeerCodec.encodeRecord(pos[0], pos[1], (int) set[1], (int) set[2], (int) set[3], b, 0);
                    }
                    m.put(set[0] + "/" + f.getFileName(), b);
                }
            }
        }
        // Several roots (issue 38 item 1): the genuine tables of four 8-empty roots, the lowest table's
        // second and third root relabelled ALL [v+2, v+2] and CUT [v-2, v-2]: each claimed value is
        // false, each obliged bound true. Verified up to 29b3b82 (PEER-ROOT-4 was applied to one root only).
        java.util.TreeMap<Integer, byte[]> four = org.gamecert.verifier.peer.PeerTableGenerator.severalRoots(4, 8);
        byte[] lowest = four.firstEntry().getValue();
        org.gamecert.verifier.peer.PeerTableGenerator.unsettleRoot(lowest, 1);
        org.gamecert.verifier.peer.PeerTableGenerator.unsettleRoot(lowest, 2);
        for (Map.Entry<Integer, byte[]> e : four.entrySet())
            m.put("peer-several-roots-two-unsettled/" + "optimal_reopening_ab_table_all_" + e.getKey() + ".txt", e.getValue());
        // Issue 22 item 4: the genuine set plus a false table 26 (root PV +30) under the name "_026":
        // a directory reader that kept one of the two verified whichever the file system listed last.
        try (var files = Files.list(valid)) {
            for (Path f : (Iterable<Path>) files.sorted()::iterator) {
                byte[] b = Files.readAllBytes(f);
                m.put("peer-duplicate-table-26/" + f.getFileName(), b);
                if (f.getFileName().toString().endsWith("_26.txt")) {
                    byte[] bad = b.clone();
                    long[] pos = new long[2];
                    org.gamecert.verifier.peer.PeerCodec.decodeKey(bad, 0, pos);
                    org.gamecert.verifier.peer.PeerCodec.encodeRecord(pos[0], pos[1], org.gamecert.verifier.peer.PeerCodec.PV, 30, 30, bad, 0);
                    m.put("peer-duplicate-table-26/optimal_reopening_ab_table_all_026.txt", bad);
                }
            }
        }
        return m;
    }

    /**
     * Bundles (tar files) under testdata/crafted/, built as a release builds a bag around
     * testdata/valid/connect4-4x4-8discs.gsc, with one extra file each. Issue 22 item 5: a file whose
     * name starts like a tag manifest, or a certificate outside data/ (even one listed in the tag
     * manifest), was exempt from "every file listed, nothing extra" and never verified.
     */
    public static Map<String, byte[]> bundleFiles(Path testdata) throws IOException {
        byte[] cert = Files.readAllBytes(testdata.resolve("valid/connect4-4x4-8discs.gsc"));
        Map<String, byte[]> m = new LinkedHashMap<>();
        m.put("bundle-valid.tar", tar(bag(cert, null, null, false)));
        m.put("bundle-tagmanifest-bak.tar", tar(bag(cert, "tagmanifest-sha256.txt.bak", "an old copy of the tag manifest\n".getBytes(), false)));
        m.put("bundle-certificate-outside-data.tar", tar(bag(cert, "certs/x.gsc", cert, true)));
        return m;
    }

    /**
     * A bag around one certificate as a release makes it (derived files rendered by BundleTexts from
     * the verifier's own results), with an extra file outside data/ (listed in the tag manifest if asked).
     */
    private static Map<String, byte[]> bag(byte[] cert, String extraName, byte[] extra, boolean listExtra) throws IOException {
        Map<String, byte[]> f = new java.util.TreeMap<>();
        java.nio.charset.Charset u = java.nio.charset.StandardCharsets.UTF_8;
        f.put("bagit.txt", "BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n".getBytes(u));
        f.put("data/c4.gsc", cert);
        Path tmp = Files.createTempFile("crafted", ".gsc");
        org.gamecert.verifier.kernel.Result r;
        try {
            Files.write(tmp, cert);
            r = org.gamecert.verifier.engine.Verifier.verify(tmp, new org.gamecert.verifier.engine.Options());
        } finally {
            Files.deleteIfExists(tmp);
        }
        org.gamecert.verifier.bundle.BundleTexts.Cert c = new org.gamecert.verifier.bundle.BundleTexts.Cert("c4.gsc", "connect4:4x4",
                "semi-strong", r.header.rootValue, r.commitment, r.entries, r.census.toArray(new long[0][]));
        org.gamecert.verifier.bundle.BundleTexts.Meta meta = new org.gamecert.verifier.bundle.BundleTexts.Meta("crafted bundle",
                java.util.List.of("Ada Lovelace"), java.util.List.of(), "2026-11-24", null, "0.1.0", "0".repeat(64), null);
        f.put("data/c4.census.json", org.gamecert.verifier.bundle.BundleTexts.censusJson(c).getBytes(u));
        f.put("data/census.svg", org.gamecert.verifier.bundle.BundleTexts.censusSvg(meta.title(), java.util.List.of(c)).getBytes(u));
        f.put("data/CITATION.cff", org.gamecert.verifier.bundle.BundleTexts.citationCff(meta, java.util.List.of(c)).getBytes(u));
        f.put("data/README.md", org.gamecert.verifier.bundle.BundleTexts.readme(meta, java.util.List.of(c)).getBytes(u));
        StringBuilder manifest = new StringBuilder();
        long octets = 0;
        int count = 0;
        for (Map.Entry<String, byte[]> e : f.entrySet())
            if (e.getKey().startsWith("data/")) {
                manifest.append(sha256(e.getValue())).append("  ").append(e.getKey()).append('\n');
                octets += e.getValue().length;
                count++;
            }
        f.put("manifest-sha256.txt", manifest.toString().getBytes(u));
        f.put("bag-info.txt", ("Title: crafted bundle\nAuthor: Ada Lovelace\nContact-Name: Ada Lovelace\nBagging-Date: 2026-11-24\n"
                + "Commitment-Id: " + TestCert.commitmentOf(cert) + " data/c4.gsc\nVerifier-Version: 0.1.0\nVerifier-Jar-SHA256: "
                + "0".repeat(64) + "\nPayload-Oxum: " + octets + "." + count + "\n").getBytes(u));
        if (extraName != null) f.put(extraName, extra);
        StringBuilder tm = new StringBuilder();
        for (String n : new String[] {"bag-info.txt", "bagit.txt", "manifest-sha256.txt"}) tm.append(sha256(f.get(n))).append("  ").append(n).append('\n');
        if (listExtra) tm.append(sha256(extra)).append("  ").append(extraName).append('\n');
        f.put("tagmanifest-sha256.txt", tm.toString().getBytes(u));
        return f;
    }

    private static String sha256(byte[] b) {
        try {
            StringBuilder s = new StringBuilder();
            for (byte x : java.security.MessageDigest.getInstance("SHA-256").digest(b)) s.append(String.format("%02x", x & 0xFF));
            return s.toString();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A deterministic tar (fixed times, sorted names) under a top folder "bundle/". */
    private static byte[] tar(Map<String, byte[]> files) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try (org.apache.commons.compress.archivers.tar.TarArchiveOutputStream t = new org.apache.commons.compress.archivers.tar.TarArchiveOutputStream(out)) {
            t.setLongFileMode(org.apache.commons.compress.archivers.tar.TarArchiveOutputStream.LONGFILE_POSIX);
            for (Map.Entry<String, byte[]> e : files.entrySet()) {
                org.apache.commons.compress.archivers.tar.TarArchiveEntry te = new org.apache.commons.compress.archivers.tar.TarArchiveEntry("bundle/" + e.getKey());
                te.setSize(e.getValue().length);
                te.setModTime(0);
                t.putArchiveEntry(te);
                t.write(e.getValue());
                t.closeArchiveEntry();
            }
        }
        return out.toByteArray();
    }

    public static void main(String[] args) throws IOException {
        Path testdata = Path.of(args.length > 0 ? args[0] : "testdata");
        Path dir = testdata.resolve("crafted");
        Files.createDirectories(dir);
        for (Map.Entry<String, byte[]> e : files().entrySet()) Files.write(dir.resolve(e.getKey()), e.getValue());
        for (Map.Entry<String, byte[]> e : bundleFiles(testdata).entrySet()) Files.write(dir.resolve(e.getKey()), e.getValue());
        for (Map.Entry<String, byte[]> e : peerFiles(testdata).entrySet()) {
            Path p = dir.resolve(e.getKey());
            Files.createDirectories(p.getParent());
            Files.write(p, e.getValue());
        }
    }
}
