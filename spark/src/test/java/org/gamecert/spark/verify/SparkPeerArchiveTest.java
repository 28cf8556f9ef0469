package org.gamecert.spark.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeMap;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.spark.api.java.JavaSparkContext;
import org.gamecert.spark.SparkTestContext;
import org.gamecert.verifier.peer.PeerOptions;
import org.gamecert.verifier.peer.PeerReport;
import org.gamecert.verifier.peer.PeerResult;
import org.gamecert.verifier.peer.PeerVerifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Peer tables as a .tar.zst and as split .tar.zst parts with SHA256SUMS, made here (fixed entry
 * order, times and owners: the same bytes every run), on Spark in local[2] with small slices (the
 * driver reads the archive once into a spool of slice files) against scripts/verify's
 * single-machine PeerVerifier streaming the same archive: the same report (verdict, first
 * violation, per-table counts, root; seconds, heap and temp disk aside), for valid tables (in
 * ascending and descending archive order), a rejected mutant, a truncated table, and a split part
 * that fails its SHA-256.
 */
class SparkPeerArchiveTest {
    static final Path ROOT = Paths.get("..").toAbsolutePath().normalize();
    static final Path VALID = ROOT.resolve("testdata/peer/valid/othello6-10empties");
    static JavaSparkContext sc;
    @TempDir
    Path tmp;

    @BeforeAll
    static void start() {
        sc = SparkTestContext.open(2);
    }

    @AfterAll
    static void stop() {
        if (sc != null) sc.stop();
    }

    /** The tables of dir as a deterministic .tar.zst's bytes (ascending or descending order). */
    static byte[] tarZst(Path dir, boolean descending) throws IOException {
        TreeMap<Integer, Path> tables = new TreeMap<>();
        try (var s = Files.list(dir)) {
            for (Path p : s.toList()) {
                String name = p.getFileName().toString();
                if (name.startsWith("optimal_reopening_ab_table_all_"))
                    tables.put(Integer.parseInt(name.replaceAll("\\D", "")), p);
            }
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new ZstdOutputStream(bytes, 3))) {
            for (Path p : descending ? tables.descendingMap().values() : tables.values()) {
                TarArchiveEntry e = new TarArchiveEntry("tables/" + p.getFileName());
                e.setSize(Files.size(p));
                e.setModTime(0);
                e.setUserId(0);
                e.setGroupId(0);
                tar.putArchiveEntry(e);
                tar.write(Files.readAllBytes(p));
                tar.closeArchiveEntry();
            }
        }
        return bytes.toByteArray();
    }

    static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    /** The archive split into parts of partBytes (NAME.tar.zst.00, .01, …) with SHA256SUMS; the first part. */
    static Path split(byte[] archive, Path dir, int partBytes) throws Exception {
        Files.createDirectories(dir);
        StringBuilder sums = new StringBuilder();
        List<Path> parts = new ArrayList<>();
        for (int at = 0, i = 0; at < archive.length; at += partBytes, i++) {
            byte[] part = java.util.Arrays.copyOfRange(archive, at, Math.min(archive.length, at + partBytes));
            Path p = dir.resolve(String.format("tables.tar.zst.%02d", i));
            Files.write(p, part);
            parts.add(p);
            sums.append(sha256(part)).append("  ").append(p.getFileName()).append('\n');
        }
        Files.writeString(dir.resolve("SHA256SUMS"), sums);
        assertTrue(parts.size() >= 3, "parts: " + parts.size());
        return parts.get(0);
    }

    static String stable(String json) {
        return SparkPeerEquivalenceTest.stable(json).replaceAll("\"temp_bytes_peak\":[0-9]+,?", "");
    }

    /** scripts/verify's PeerVerifier and Spark with slices of sliceRecords: the same report; Spark's. */
    PeerResult same(Path input, long sliceRecords) throws IOException {
        Path oneTmp = Files.createDirectories(tmp.resolve("one")), sparkTmp = Files.createDirectories(tmp.resolve("spark"));
        PeerOptions o = SparkPeerEquivalenceTest.options(input, 300, 0);
        o.tmp = oneTmp;
        PeerResult one = PeerVerifier.verify(o);
        PeerOptions s = SparkPeerEquivalenceTest.options(input, 300, sliceRecords);
        s.tmp = sparkTmp;
        PeerResult spark = SparkPeer.verify(sc, s, 0);
        assertEquals(one.verdict(), spark.verdict(), () -> input + ": " + spark.error + " " + spark.violation);
        assertEquals(String.valueOf(one.violation), String.valueOf(spark.violation));
        assertEquals(one.exitCode(), spark.exitCode());
        assertEquals(stable(PeerReport.json(one)), stable(PeerReport.json(spark)), input.toString());
        try (var left = Files.list(sparkTmp)) {
            assertEquals(List.of(), left.toList(), "the spool is deleted");
        }
        return spark;
    }

    @Test
    void validTablesAsTarZstInEitherOrderAndAsSplitParts() throws Exception {
        for (boolean descending : new boolean[] {false, true}) {
            Path single = tmp.resolve("single-" + descending + "/tables.tar.zst");
            Files.createDirectories(single.getParent());
            Files.write(single, tarZst(VALID, descending));
            PeerResult r = same(single, 200);
            assertEquals(PeerResult.Verdict.VERIFIED, r.verdict());
            assertTrue(r.tempBytesPeak > 0, "the spool's bytes are reported");
            assertTrue(r.tables.stream().anyMatch(t -> t.slices >= 8), "slices of 200 records");
        }
        Path first = split(tarZst(VALID, false), tmp.resolve("split"), 7000);
        PeerResult r = same(first, 300);
        assertEquals(PeerResult.Verdict.VERIFIED, r.verdict());
        assertTrue(r.sumsChecked >= 3, "SHA256SUMS checked: " + r.sumsChecked);
    }

    @Test
    void rejectedTablesAndABadPartAsArchives() throws Exception {
        Path mutant = ROOT.resolve("testdata/peer/mutants/peer-exact-value-changed");
        Path first = split(tarZst(mutant, false), tmp.resolve("mutant"), 6000);
        PeerResult r = same(first, 100);
        assertEquals("PEER-AP-2", r.violation.rule);
        Path truncated = ROOT.resolve("testdata/peer/mutants/peer-table-truncated");
        Path t = tmp.resolve("truncated/tables.tar.zst");
        Files.createDirectories(t.getParent());
        Files.write(t, tarZst(truncated, false));
        assertEquals("PEER-REC-1", same(t, 11).violation.rule);
        Path bad = split(tarZst(VALID, false), tmp.resolve("bad"), 7000);
        Path part = bad.resolveSibling("tables.tar.zst.01");
        byte[] b = Files.readAllBytes(part);
        b[100] ^= 1;
        Files.write(part, b);
        PeerResult sums = same(bad, 300);
        assertEquals("PEER-SUMS-1", sums.violation.rule);
        assertTrue(sums.violation.message.contains("tables.tar.zst.01"), sums.violation.message);
    }
}
