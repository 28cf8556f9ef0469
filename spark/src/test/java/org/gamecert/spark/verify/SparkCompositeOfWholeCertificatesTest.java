package org.gamecert.spark.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import org.apache.spark.api.java.JavaSparkContext;
import org.gamecert.spark.SparkTestContext;
import org.gamecert.verifier.engine.CompositeVerifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A composite whose part is a whole certificate, not a part (SPEC §15): on Spark, its task asks
 * the kernel for the conclusion a composite needs (PartTask: Options.forComposition), since a
 * certificate checked alone concludes without one; the composite verifies, as on one machine.
 * Modes 1 (Combiner) and 4 (RankedKernel).
 */
@Tag("slow") // a Spark context of its own
class SparkCompositeOfWholeCertificatesTest {
    static final Path VECTORS = Paths.get("..").toAbsolutePath().normalize()
            .resolve("format-spec/vectors");
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

    @Test
    void aCompositeNamingAWholeCertificateVerifiesOnSparkAsOnOneMachine() throws Exception {
        for (String name : new String[] {"edge-valid-othello6x6.gsc",
                "edge-valid-weak-ranked-loa-4x4.gsc"}) {
            Path d = Files.createDirectories(dir.resolve(name));
            byte[] cert = Files.readAllBytes(VECTORS.resolve(name));
            byte[] commitment = Arrays.copyOfRange(cert, cert.length - 32, cert.length);
            Files.write(d.resolve(HexFormat.of().formatHex(commitment) + ".gsc"), cert);
            Path manifest = d.resolve(CompositeVerifier.MANIFEST);
            Files.write(manifest, manifestOfOnePart(commitment));
            CompositeVerifier.Outcome one = CompositeVerifier.verify(manifest,
                    new org.gamecert.verifier.engine.Options(), null);
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
