package org.gamecert.verifier.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.engine.Verifier;
import org.gamecert.verifier.kernel.format.FormatException;
import org.gamecert.verifier.kernel.format.Payload;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzz properties of the verifier. For every input: a verdict or a clean error, never an exception
 * escaping, and never "verified" for something that is not one of the known valid certificates'
 * commitments (a fuzzer does not forge SHA-256 chains; a verified mutant would be a verifier bug).
 *
 * In `mvn verify -Pslow` (tagged slow: Jazzer's agent alone takes half a minute to load on a busy
 * machine) the @FuzzTest methods run in Jazzer's regression mode, and {@link #replaySeeds}
 * runs the same properties over the whole corpus (testdata/, format-spec/vectors/ and
 * src/test/resources/fuzz/, where findings are kept). `scripts/fuzz` runs them with JAZZER_FUZZ=1.
 */
@Tag("slow")
class CertificateFuzzTest {
    static final Path ROOT = Paths.get("..").toAbsolutePath().normalize();
    private static Set<String> validCommitments;

    /** Commitments of the corpus files listed as verified. */
    static synchronized Set<String> validCommitments() {
        if (validCommitments == null) {
            Set<String> s = new HashSet<>();
            for (Path p : seeds()) {
                Result r = Verifier.verify(p, new Options());
                if (r.verdict == Result.Verdict.VERIFIED) s.add(r.commitment);
            }
            validCommitments = s;
        }
        return validCommitments;
    }

    static List<Path> seeds() {
        List<Path> l = new ArrayList<>();
        for (Path dir : new Path[]{ROOT.resolve("testdata"), ROOT.resolve("format-spec/vectors"), Paths.get("src/test/resources/fuzz")}) {
            if (!Files.isDirectory(dir)) continue;
            try (Stream<Path> s = Files.walk(dir)) {
                s.filter(p -> Files.isRegularFile(p) && (p.toString().endsWith(".gsc") || p.toString().endsWith(".bin"))).sorted().forEach(l::add);
            } catch (IOException e) { throw new UncheckedIOException(e); }
        }
        return l;
    }

    /** The whole verification of one input. */
    static void verifyProperty(byte[] data) throws IOException {
        Path tmp = Files.createTempFile("fuzz-", ".gsc");
        try {
            Files.write(tmp, data);
            Options o = new Options();
            o.maxMemory = 64L << 20; // bounded memory: a hostile size field must not make it allocate more
            Result r = Verifier.verify(tmp, o);
            assertNotNull(r.verdict);
            if (r.verdict == Result.Verdict.REJECTED) assertNotNull(r.firstViolation(), "rejected without a rule id");
            if (r.verdict == Result.Verdict.VERIFIED)
                assertTrue(validCommitments().contains(r.commitment), "verified an input that is no known valid certificate: " + r.commitment);
            // The same input with every layer checked in segments: the same outcome, no internal error.
            o.maxHeldEntries = 64;
            Result s = Verifier.verify(tmp, o);
            for (Result x : new Result[] {r, s})
                assertTrue(x.errorMessage == null || !x.errorMessage.startsWith("internal error"), x.errorMessage);
            if (r.verdict != Result.Verdict.ERROR && s.verdict != Result.Verdict.ERROR) {
                assertEquals(r.verdict, s.verdict, "in segments");
                assertEquals(String.valueOf(r.firstViolation()), String.valueOf(s.firstViolation()), "in segments");
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** The entry decoder alone: decodes or throws its FormatException, nothing else. */
    static void decodeProperty(int count, boolean weak, byte[] raw) {
        try {
            Payload p = Payload.decode(raw, count, weak, false, 0, -16, 16, null);
            assertEquals(count, p.count);
            for (int i = 0; i < count; i++) {
                assertTrue(Payload.validKind(p.kind[i]), "decoded an invalid kind set");
                assertEquals(0, p.mover[i] & ~p.occ[i], "mover outside occ");
            }
        } catch (FormatException expected) {
            // a clean rejection
        }
    }

    // Only with JAZZER_FUZZ: Jazzer 0.24.0's argument provider fails under JUnit 5.13 (it lacks
    // provideArguments(ParameterDeclarations, ExtensionContext)), so in the normal run the seeds are
    // replayed by replaySeeds instead. See the report: the parent pom's jazzer.version needs a bump.
    @FuzzTest
    void verifyAnyBytes(byte[] data) throws IOException {
        verifyProperty(data);
    }

    @FuzzTest
    void decodeAnyPayload(FuzzedDataProvider data) {
        decodeProperty(data.consumeInt(1, 64), data.consumeBoolean(), data.consumeRemainingAsBytes());
    }

    @TestFactory
    List<DynamicTest> replaySeeds() {
        List<DynamicTest> t = new ArrayList<>();
        for (Path p : seeds()) t.add(DynamicTest.dynamicTest(ROOT.relativize(p.toAbsolutePath()).toString(), () -> {
            byte[] b = Files.readAllBytes(p);
            verifyProperty(b);
            // the same bytes as a payload: the decoder must reject or decode cleanly
            for (int count = 1; count <= 8; count++) decodeProperty(count, count % 2 == 0, b);
        }));
        assertTrue(t.size() >= 20, "seeds: " + t.size());
        return t;
    }
}
