package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.gamecert.verifier.kernel.Composition;
import org.gamecert.verifier.kernel.PartConclusion;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.Violation;
import org.gamecert.verifier.kernel.format.Manifest;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TestComposite;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC §11.1: "Composition.decide takes, from an engine in its own JVM, only conclusions whose
 * seal holds". But whether the parts were "checked in other JVMs" is a boolean the engine passes
 * (decide(m, given, rejected, acrossJvms)): an engine in the composite's own JVM passes true and
 * the seal is not looked at. Here the engine reads a part's genuine conclusion back from its own
 * serial form with the commitment replaced by that of a part the kernel rejects (public API, no
 * reflection), and the composite of that rejected part ends VERIFIED.
 */
class CompositionTakesOnlyTheKernelsConclusionsTest {
    @TempDir
    Path dir;

    /** The conclusion read back from its serial form with one byte array replaced. */
    static PartConclusion withCommitment(PartConclusion c, byte[] from, byte[] to) throws Exception {
        return PartConclusionSerialFormTest.roundTrip(c,
                o -> o instanceof byte[] b && Arrays.equals(b, from) ? to.clone() : o);
    }

    /** TestComposite.split(TinySolver(1, 4, 4, 1, null), Othello start, mode 1, cut 5). */
    static TestComposite split() {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] start = s.othelloStart();
        return TestComposite.split(s, start[0], start[1], 1, 5);
    }

    /** The kernel's conclusion for the composite's root part, checked alone. */
    Result root(TestComposite comp) throws Exception {
        return Verifier.verify(Files.write(dir.resolve("root.gsc"), comp.parts.get(0).bytes), new Options());
    }

    /** The kernel's conclusion for part 1, checked for composition. */
    Result part(TestComposite comp) throws Exception {
        return Verifier.verify(Files.write(dir.resolve("part.gsc"), comp.parts.get(1).bytes),
                CompositionInputTest.forComposition());
    }

    /**
     * A part checked on a map read for a cluster (its keys may have left the JVM, SPEC §11.1:
     * faults only) concludes with no seal of this JVM: a composite of this JVM refuses it, and
     * one whose engine says its parts came from other JVMs says it took it as given (a review: an
     * engine of one JVM that read the map for a cluster knew its keys and could forge reports).
     */
    @Test
    void aConclusionOnAMapReadForAClusterIsNeverThisJvmsOwn() throws Exception {
        TestComposite comp = split();
        Result r0 = root(comp);
        Options o = CompositionInputTest.forComposition();
        Result cluster = new SliceEngine(1, 1 << 16, SliceEngine.Faults.NONE, true).verify(
                Files.write(dir.resolve("part-cluster.gsc"), comp.parts.get(1).bytes), o);
        assertEquals(Result.Verdict.VERIFIED, cluster.verdict);
        assertTrue(cluster.acrossJvms(), "the Result says its keys could leave the JVM");
        assertFalse(r0.acrossJvms());
        Manifest m = Manifest.parse(comp.manifest());
        PartConclusion[] parts = {r0.conclusion, cluster.conclusion};
        assertThrows(org.gamecert.verifier.kernel.EngineFault.class,
                () -> Composition.decide(m, parts, new Violation[2], false));
        Composition.Outcome across = Composition.decide(m, parts, new Violation[2], true);
        assertEquals(Result.Verdict.VERIFIED, across.verdict);
        assertTrue(across.partsTakenAsGiven);
    }

    /**
     * A map read for one JVM never arrives from a serial form: a stream whose map says it was
     * (its "cluster" byte cleared, written by an engine that knows the layout) is refused; and a
     * map read back only in part (a review: a stream may name it again after its readObject
     * threw, made here as serialization makes one before its fields are read) is refused by
     * every kernel object made on it.
     */
    @Test
    void aMapForOneJvmIsNeverReadBackFromASerialForm() throws Exception {
        Path file = Files.write(dir.resolve("root.gsc"), split().parts.get(0).bytes);
        org.gamecert.verifier.kernel.FileMap map;
        try (org.gamecert.verifier.kernel.format.Container ct =
                new org.gamecert.verifier.kernel.format.Container(file)) {
            map = org.gamecert.verifier.kernel.FileMap.readForCluster(ct);
        }
        byte[] stream = serialForm(map);
        // the primitive fields go in name order: "cluster" (1 byte) just before factKey0
        java.lang.reflect.Field f = map.getClass().getDeclaredField("factKey0");
        f.setAccessible(true);
        byte[] key = java.nio.ByteBuffer.allocate(8).putLong(f.getLong(map)).array();
        int at = -1;
        for (int i = 1; i + 8 <= stream.length && at < 0; i++)
            if (Arrays.equals(Arrays.copyOfRange(stream, i, i + 8), key)) at = i - 1;
        assertEquals(1, stream[at], "the cluster byte");
        assertTrue(readBack(stream) instanceof org.gamecert.verifier.kernel.FileMap);
        stream[at] = 0;
        assertThrows(java.io.InvalidObjectException.class, () -> readBack(stream));
        {
            org.gamecert.verifier.kernel.FileMap half = (org.gamecert.verifier.kernel.FileMap)
                    sun.reflect.ReflectionFactory.getReflectionFactory()
                            .newConstructorForSerialization(org.gamecert.verifier.kernel.FileMap
                                    .class, Object.class.getDeclaredConstructor()).newInstance();
            assertThrows(org.gamecert.verifier.kernel.EngineFault.class,
                    () -> new org.gamecert.verifier.kernel.Combiner(half, false, false, 1));
            assertThrows(org.gamecert.verifier.kernel.EngineFault.class,
                    () -> new org.gamecert.verifier.kernel.SliceCheck(half, 0, 0, 1, false, 1,
                            new org.gamecert.verifier.kernel.SliceCheck.Setup(false, 0, 0, 1)));
            assertThrows(org.gamecert.verifier.kernel.EngineFault.class,
                    () -> new org.gamecert.verifier.kernel.TerminalCount(half, 0, 0, 1, 0, 0));
            assertThrows(org.gamecert.verifier.kernel.EngineFault.class,
                    () -> new org.gamecert.verifier.kernel.RankedKernel(half, 1 << 20, false,
                            false, 1));
        }
    }

    /**
     * A Result read back from a serial form says it is another JVM's claim (acrossJvms),
     * whatever it says of itself: a stream can say VERIFIED (a review).
     */
    @Test
    void aResultReadBackFromASerialFormIsAnotherJvmsClaim() throws Exception {
        Result here = part(split());
        assertEquals(Result.Verdict.VERIFIED, here.verdict);
        assertFalse(here.acrossJvms());
        Result back = (Result) readBack(serialForm(here));
        assertEquals(here.verdict, back.verdict);
        assertTrue(back.acrossJvms());
    }

    /**
     * A conclusion read back from a serial form that named one of its arrays again for the engine
     * (a review), changed through that array, is refused by a composite of this JVM: decide
     * checks the seal on its own copy, made from the conclusion as it is when decide is called.
     */
    @Test
    void aConclusionChangedThroughAnArrayTheEngineHoldsIsRefused() throws Exception {
        TestComposite comp = split();
        Result r0 = root(comp), r1 = part(comp);
        java.lang.reflect.Field f = PartConclusion.class.getDeclaredField("tb");
        f.setAccessible(true);
        byte[] stream = serialForm(r1.conclusion, f.get(r1.conclusion));
        try (java.io.ObjectInputStream in =
                new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(stream))) {
            PartConclusion back = (PartConclusion) in.readObject();
            int[] named = (int[]) in.readObject();
            Manifest m = Manifest.parse(comp.manifest());
            assertEquals(Result.Verdict.VERIFIED, Composition.decide(m,
                    new PartConclusion[] {r0.conclusion, back}, new Violation[2], false).verdict);
            named[0] ^= 1; // the engine's handle on the array the stream named twice
            assertThrows(org.gamecert.verifier.kernel.EngineFault.class, () -> Composition.decide(
                    m, new PartConclusion[] {r0.conclusion, back}, new Violation[2], false));
        }
    }

    /**
     * Composition.decide checks and reads its own copy of each conclusion (PartConclusion.copyOf):
     * an engine whose stream was handed a conclusion's live tie-breaking order as it wrote the
     * conclusion (a review; `enableReplaceObject`) changes the original, never the copy. (decide
     * copies before it checks the seals, so a change racing the check changes nothing it reads.)
     */
    @Test
    void aConclusionsCopyIsIndependentOfArraysAnEngineHolds() throws Exception {
        TestComposite comp = split();
        Result r0 = root(comp), r1 = part(comp);
        java.util.List<int[]> handed = new java.util.ArrayList<>();
        try (java.io.ObjectOutputStream out =
                new java.io.ObjectOutputStream(new java.io.ByteArrayOutputStream()) {
                    {
                        enableReplaceObject(true);
                    }

                    @Override
                    protected Object replaceObject(Object o) {
                        if (o instanceof int[] a) handed.add(a);
                        return o;
                    }
                }) {
            out.writeObject(r1.conclusion);
        }
        assertEquals(1, handed.size(), "the conclusion's tie-breaking order");
        java.lang.reflect.Method copyOf =
                PartConclusion.class.getDeclaredMethod("copyOf", PartConclusion.class);
        copyOf.setAccessible(true);
        PartConclusion copy = (PartConclusion) copyOf.invoke(null, r1.conclusion);
        handed.get(0)[0] ^= 1; // the engine changes the array it holds
        Manifest m = Manifest.parse(comp.manifest());
        assertEquals(Result.Verdict.VERIFIED, Composition.decide(m,
                new PartConclusion[] {r0.conclusion, copy}, new Violation[2], false).verdict);
        assertThrows(org.gamecert.verifier.kernel.EngineFault.class, () -> Composition.decide(m,
                new PartConclusion[] {r0.conclusion, r1.conclusion}, new Violation[2], false));
    }

    /** The objects written one after another to one stream (a later one may name an earlier). */
    static byte[] serialForm(Object... objects) throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
            for (Object o : objects) out.writeObject(o);
        }
        return bytes.toByteArray();
    }

    static Object readBack(byte[] stream) throws Exception {
        try (java.io.ObjectInputStream in =
                new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(stream))) {
            return in.readObject();
        }
    }

    /**
     * Exact input: TestComposite.split(TinySolver(1, 4, 4, 1, null), Othello start, mode 1, cut 5);
     * part 1 then made false: its first P entry that is not its root claims a value off by 2
     * (AttackCerts.wrongValue's rule), rewritten, the manifest listing the false part.
     */
    @Test
    void aConclusionNotSealedHereIsRefusedOrTheVerdictSaysItWasTakenAsGiven() throws Exception {
        TestComposite comp = split();
        Result r0 = root(comp), r1 = part(comp);
        byte[] honestCommitment = comp.parts.get(1).commitment();
        TestCert p1 = comp.parts.get(1).cert;
        int rootDiscs = Long.bitCount(p1.rootMover | p1.rootOpponent);
        for (TestCert.Entry e : p1.entries)
            if (Long.bitCount(e.occ) > rootDiscs && (e.kind & TestCert.P) != 0) {
                int v = e.lo + (e.lo <= 0 ? 2 : -2);
                e.lo = e.hi = v;
                break;
            }
        comp.rewrite(1);
        byte[] falseCommitment = comp.parts.get(1).commitment();
        Result rFalse = Verifier.verify(Files.write(dir.resolve("false-part.gsc"),
                comp.parts.get(1).bytes), CompositionInputTest.forComposition());
        assertEquals(Result.Verdict.REJECTED, rFalse.verdict, "the false part is rejected");
        assertNull(rFalse.conclusion);
        Manifest m = Manifest.parse(comp.manifest());
        Violation[] rejected = {null, rFalse.firstViolation()};
        assertEquals(Result.Verdict.REJECTED, Composition.decide(m,
                new PartConclusion[] {r0.conclusion, null}, rejected, false).verdict);
        PartConclusion forged = withCommitment(r1.conclusion, honestCommitment, falseCommitment);
        // from an engine of this JVM: the forged conclusion carries no seal that holds
        assertThrows(org.gamecert.verifier.kernel.EngineFault.class, () -> Composition.decide(m,
                new PartConclusion[] {r0.conclusion, forged}, new Violation[2], false));
        // an engine that says its parts came from other JVMs gets a verdict that says so: taken as
        // given (SPEC §11.1, a cluster: faults only), never one a one-JVM report calls its own
        Composition.Outcome o = Composition.decide(m, new PartConclusion[] {r0.conclusion, forged},
                new Violation[2], true);
        assertTrue(o.partsTakenAsGiven, "the outcome says the parts were taken as given");
        assertFalse(Composition.decide(m, new PartConclusion[] {r0.conclusion, r1.conclusion},
                new Violation[2], false).partsTakenAsGiven);
    }

    /**
     * decide reads the engine's array of conclusions once: while an engine thread swaps part 0
     * between its genuine conclusion and one read back from its serial form with its census
     * changed, no outcome is VERIFIED on the changed conclusion without saying that the parts were
     * taken as given. (Reading the array once for the verdict and again for the seals let 35,848
     * of 200,000 calls do so.)
     */
    @Test
    void theVerdictAndWhatItSaysOfTheSealsRestOnTheSameConclusions() throws Exception {
        TestComposite comp = split();
        Result r0 = root(comp), r1 = part(comp);
        Manifest m = Manifest.parse(comp.manifest());
        long[][] zeroRows = {{0, 0, 0, 0}};
        PartConclusion changed = PartConclusionSerialFormTest.roundTrip(r0.conclusion,
                o -> o instanceof long[][] ? zeroRows : o);
        Composition.Outcome alone = Composition.decide(m,
                new PartConclusion[] {changed, r1.conclusion}, new Violation[2], true);
        assertEquals(Result.Verdict.VERIFIED, alone.verdict, "the changed part is still a part");
        assertTrue(alone.partsTakenAsGiven);
        PartConclusion[] given = {changed, r1.conclusion};
        PartConclusion genuine = r0.conclusion;
        Thread swapper = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                given[0] = changed;
                given[0] = genuine;
            }
        });
        swapper.setDaemon(true);
        swapper.start();
        int onChanged = 0;
        try {
            for (int i = 0; i < 50_000; i++) {
                Composition.Outcome o = Composition.decide(m, given, new Violation[2], true);
                boolean onIt = sameCensus(o.part(0), changed); // decide's copy of one of them
                if (onIt) onChanged++;
                assertFalse(o.verdict == Result.Verdict.VERIFIED && onIt
                        && !o.partsTakenAsGiven, "call " + i + ": VERIFIED on the changed"
                        + " conclusion, not said to be taken as given");
            }
        } finally {
            swapper.interrupt();
            swapper.join();
        }
        assertTrue(onChanged > 0, "the swapper never left the changed conclusion in place");
        assertFalse(sameCensus(genuine, changed));
    }

    /** Whether two conclusions have the same census rows. */
    static boolean sameCensus(PartConclusion a, PartConclusion b) {
        if (a == null || b == null || a.censusRows() != b.censusRows()) return false;
        for (int r = 0; r < a.censusRows(); r++)
            for (int c = 0; c < 4; c++) if (a.census(r, c) != b.census(r, c)) return false;
        return true;
    }
}
