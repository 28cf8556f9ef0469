package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.gamecert.verifier.kernel.Composition;
import org.gamecert.verifier.kernel.EngineFault;
import org.gamecert.verifier.kernel.PartConclusion;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.Violation;
import org.gamecert.verifier.kernel.format.Manifest;
import org.gamecert.verifier.testcert.TestComposite;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A part's conclusion is Serializable (a cluster engine moves it between JVMs), so an engine in
 * the composite's own JVM could read one back from a serial form of its own making, with any
 * object in it replaced. Composition takes, from an engine in this JVM, only a conclusion whose
 * seal (SHA-256 keyed by a secret of the JVM, over every field) still holds.
 */
class PartConclusionSerialFormTest {
    @TempDir
    Path dir;

    /** Serial round trip, each object read back as replace makes it (an engine's own reader). */
    static PartConclusion roundTrip(PartConclusion c, java.util.function.UnaryOperator<Object>
            replace) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(c);
        }
        try (ObjectInputStream in = new ObjectInputStream(
                new ByteArrayInputStream(bytes.toByteArray())) {
            {
                enableResolveObject(true);
            }

            @Override
            protected Object resolveObject(Object o) throws IOException {
                return replace.apply(o);
            }
        }) {
            return (PartConclusion) in.readObject();
        }
    }

    @Test
    void aConclusionRebuiltWithAnotherFieldIsAnEngineFault() throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] start = s.othelloStart();
        TestComposite comp = TestComposite.split(s, start[0], start[1], 1, 5);
        Result r0 = Verifier.verify(Files.write(dir.resolve("root.gsc"), comp.parts.get(0).bytes),
                new Options());
        Result r1 = Verifier.verify(Files.write(dir.resolve("part.gsc"), comp.parts.get(1).bytes),
                CompositionInputTest.forComposition());
        Manifest m = Manifest.parse(comp.manifest());
        Violation[] none = new Violation[2];
        assertEquals(Result.Verdict.VERIFIED, Composition.decide(m,
                new PartConclusion[] {r0.conclusion, r1.conclusion}, none, false).verdict);
        // read back unchanged: the kernel's own conclusion, as it made it
        assertEquals(Result.Verdict.VERIFIED, Composition.decide(m, new PartConclusion[] {
            roundTrip(r0.conclusion, o -> o), r1.conclusion}, none, false).verdict);
        // the census rows replaced (a long[][] in the serial form): no seal holds for that
        long[][] forged = {{0, 0, 0, 0}};
        PartConclusion changed = roundTrip(r0.conclusion, o -> o instanceof long[][] ? forged : o);
        assertThrows(EngineFault.class, () -> Composition.decide(m,
                new PartConclusion[] {changed, r1.conclusion}, none, false));
        // from another JVM (a cluster engine) it is taken as given: faults only (SPEC §11.1)
        Composition.decide(m, new PartConclusion[] {changed, r1.conclusion}, none, true);
    }
}
