package org.gamecert.spark.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import org.apache.spark.api.java.JavaSparkContext;
import org.gamecert.spark.SparkTestContext;
import org.gamecert.verifier.engine.CompositeVerifier;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.engine.SliceEngine;
import org.gamecert.verifier.engine.Verifier;
import org.gamecert.verifier.kernel.Result;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Spark engine in local[2], a certificate as one task (against the single-machine verifier) and
 * in slices of 40 entries (SparkSliced, against the one-machine SliceEngine, the same sequential
 * kernel), over the audit corpus
 * (testdata/manifest.tsv, its certificates) and the format's vectors (format-spec/vectors,
 * composites included): the same verdict as listed, and the same outcome as scripts/verify's
 * engine: verdict, first violation (rule, block, layer, entry, position, message), census,
 * commitment (composite id), entries.
 */
@Tag("slow")
class SparkVerifyEquivalenceTest {
    static final Path ROOT = Paths.get("..").toAbsolutePath().normalize();
    static JavaSparkContext sc;

    @TempDir Path dir;

    @BeforeAll
    static void start() {
        sc = SparkTestContext.open(2);
    }

    @AfterAll
    static void stop() {
        if (sc != null) sc.stop();
    }

    /** Rows {dir, file, verdict, rule}: format `gamecert` only. */
    static List<String[]> rows(Path manifest, int verdictCol, int ruleCol, int formatCol) throws IOException {
        List<String[]> r = new ArrayList<>();
        for (String line : Files.readAllLines(manifest)) {
            if (line.isBlank() || line.startsWith("#")) continue;
            String[] f = line.split("\t");
            if (formatCol >= 0 && !f[formatCol].equals("gamecert")) continue;
            r.add(new String[] {manifest.getParent().toString(), f[0], f[verdictCol], f[ruleCol]});
        }
        return r;
    }

    static DynamicTest same(String[] row) {
        return DynamicTest.dynamicTest(row[1] + " -> " + row[2] + " " + row[3], () -> {
            Path file = Paths.get(row[0]).resolve(row[1]);
            assertTrue(Files.isRegularFile(file), "missing " + file);
            SparkVerifier.Settings s = new SparkVerifier.Settings();
            if (file.toString().endsWith(".gscm")) {
                CompositeVerifier.Outcome one = CompositeVerifier.verify(file, new Options(), null);
                CompositeVerifier.Outcome spark = SparkVerifier.composite(sc, file, s, null);
                assertEquals(row[2], spark.verdict().name().toLowerCase(Locale.ROOT), () -> file + ": " + spark.error);
                assertEquals(one.verdict(), spark.verdict());
                assertEquals(one.error, spark.error);
                if (one.composition != null) {
                    assertNotNull(spark.composition);
                    assertEquals(one.composition.compositeId, spark.composition.compositeId);
                    assertEquals(String.valueOf(one.composition.violation), String.valueOf(spark.composition.violation));
                    assertEquals(one.composition.violationPart, spark.composition.violationPart);
                    assertEquals(String.valueOf(one.composition.partViolation), String.valueOf(spark.composition.partViolation));
                    assertEquals(one.composition.stillOpenCount(), spark.composition.stillOpenCount());
                }
                if (row[2].equals("rejected")) assertEquals(row[3], spark.composition.violation.rule());
                assertEquals(Arrays.deepToString(one.census), Arrays.deepToString(spark.census));
                assertEquals(Arrays.toString(one.union), Arrays.toString(spark.union));
                assertEquals(one.parts.size(), spark.parts.size());
                for (int i = 0; i < one.parts.size(); i++) assertEquals(one.parts.get(i).status, spark.parts.get(i).status);
                return;
            }
            Options o = new Options();
            o.threads = 2;
            Result one = Verifier.verify(file, o);
            sameResult(row, file, one, SparkVerifier.certificate(sc, file, s));
            s.sliceEntries = 40; // several slices per layer, most layers
            s.terminalPartitions = 3;
            // in slices: the sequential kernel, as the one-machine SliceEngine runs it (a
            // rejection's entries are the file's, not where a reading pass stopped)
            Result sequential = SparkVerifier.sliceable(file) ? new SliceEngine(2, 40).verify(file, o) : one;
            sameResult(row, file, sequential, SparkVerifier.sliced(sc, file, s));
        });
    }

    static void sameResult(String[] row, Path file, Result one, Result spark) {
        {
            assertEquals(row[2], spark.verdict.name().toLowerCase(Locale.ROOT), () -> file + ": " + spark.firstViolation() + " " + spark.errorMessage);
            if (row[2].equals("rejected")) assertEquals(row[3], spark.firstViolation().rule());
            assertEquals(one.verdict, spark.verdict);
            assertEquals(String.valueOf(one.firstViolation()), String.valueOf(spark.firstViolation()));
            assertEquals(one.violations.size(), spark.violations.size());
            assertEquals(one.commitment, spark.commitment);
            assertEquals(one.errorMessage, spark.errorMessage);
            assertEquals(one.entries, spark.entries);
            assertEquals(one.region, spark.region);
            assertEquals(one.unreached, spark.unreached);
            assertEquals(one.census.size(), spark.census.size());
            for (int i = 0; i < one.census.size(); i++) assertEquals(Arrays.toString(one.census.get(i)), Arrays.toString(spark.census.get(i)));
            assertEquals(one.conclusion == null, spark.conclusion == null);
            if (one.conclusion != null) assertEquals(one.conclusion.commitmentId(), spark.conclusion.commitmentId());
        }
    }

    @TestFactory
    List<DynamicTest> auditCorpus() throws IOException {
        List<DynamicTest> t = new ArrayList<>();
        for (String[] row : rows(ROOT.resolve("testdata/manifest.tsv"), 2, 3, 1)) t.add(same(row));
        assertTrue(t.size() >= 40, "corpus rows: " + t.size());
        return t;
    }

    @TestFactory
    List<DynamicTest> specVectors() throws IOException {
        List<DynamicTest> t = new ArrayList<>();
        for (String[] row : rows(ROOT.resolve("format-spec/vectors/vectors.tsv"), 1, 2, -1)) t.add(same(row));
        assertTrue(t.size() >= 80, "vectors: " + t.size());
        return t;
    }

    /**
     * A composite whose part is a whole certificate, not a part (SPEC §15): on Spark its task asks
     * the kernel for the conclusion a composite needs (PartTask: Options.forComposition), since a
     * certificate checked alone concludes without one; the composite verifies, as on one machine.
     * Modes 1 (Combiner) and 4 (RankedKernel).
     */
    @Test
    void aCompositeNamingAWholeCertificateVerifiesOnSparkAsOnOneMachine() throws Exception {
        for (String name : new String[] {"edge-valid-othello6x6.gsc",
                "edge-valid-weak-ranked-loa-4x4.gsc"}) {
            Path d = Files.createDirectories(dir.resolve(name));
            byte[] cert = Files.readAllBytes(ROOT.resolve("format-spec/vectors").resolve(name));
            byte[] commitment = Arrays.copyOfRange(cert, cert.length - 32, cert.length);
            Files.write(d.resolve(HexFormat.of().formatHex(commitment) + ".gsc"), cert);
            Path manifest = d.resolve(CompositeVerifier.MANIFEST);
            Files.write(manifest, manifestOfOnePart(commitment));
            CompositeVerifier.Outcome one = CompositeVerifier.verify(manifest,
                    new Options(), null);
            CompositeVerifier.Outcome spark = SparkVerifier.composite(sc, manifest,
                    new SparkVerifier.Settings(), null);
            assertEquals("VERIFIED", one.verdict().name(), name + " on one machine");
            assertEquals("VERIFIED", spark.verdict().name(), () -> name + " on Spark: "
                    + spark.error + " " + (spark.composition == null ? ""
                            : String.valueOf(spark.composition.violation)) + " "
                    + spark.parts.get(0).note);
        }
    }

    /**
     * SPEC §15.2: a skippable frame (magic 0x184D2A53) holding "GSCM", version 1, one part (its
     * commitment), no link, then the SHA-256 of 0x03 and that body.
     */
    static byte[] manifestOfOnePart(byte[] commitment) throws Exception {
        ByteBuffer body = ByteBuffer.allocate(4 + 2 + 4 + 32 + 4).order(ByteOrder.LITTLE_ENDIAN);
        body.put("GSCM".getBytes(StandardCharsets.US_ASCII)).putShort((short) 1).putInt(1)
                .put(commitment).putInt(0);
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        md.update((byte) 3);
        md.update(body.array());
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        content.writeBytes(body.array());
        content.writeBytes(md.digest());
        ByteBuffer frame = ByteBuffer.allocate(8 + content.size()).order(ByteOrder.LITTLE_ENDIAN);
        frame.putInt(0x184D2A53).putInt(content.size()).put(content.toByteArray());
        return frame.array();
    }
}
