package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.gamecert.verifier.kernel.Composition;
import org.gamecert.verifier.kernel.PartConclusion;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.Violation;
import org.gamecert.verifier.kernel.format.Manifest;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TestComposite;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A composite's inputs are taken once, as they were checked (SPEC §11.1 "Composites"; kernel
 * code that the sequential redesign keeps: Manifest, Composition): a manifest is parsed from the
 * bytes its id commits to, whatever an engine thread writes into the caller's array meanwhile;
 * Composition.decide takes each part's conclusion as it checked it, whatever an engine thread
 * swaps into the caller's array. (Review 9, holes 3 and 4; the races are bounded in time.)
 */
@Tag("slow")
class CompositionInputTest {
    @TempDir
    Path dir;

    Path write(byte[] file, String name) throws Exception {
        Path p = dir.resolve(name);
        Files.write(p, file);
        return p;
    }


    /**
     * Manifest.parse(byte[]) (kernel code: the manifest reader, SPEC §11.1 "Composites") parses
     * the caller's array in place: it copies the parts' commitments and reads the links from it
     * first, and hashes it for R-MAN-2 (the composite id) last. An engine thread that writes into
     * the array meanwhile gets a Manifest whose parts are not those its id commits to. Here the
     * composite A names a false part F as part 1 (F claims its root's value + 2; the reference
     * verifier rejects F and so A: R-COMP-1); the array holds A's bytes with F's commitment
     * swapped, back and forth, for the true part T's (same root, the true value). When the copy
     * reads T and the hash reads F, parse returns a manifest with id(A) and parts {P0, T}, and
     * Composition.decide, given the kernel's own conclusions for P0 and T, says VERIFIED with
     * A's id. At most ~6 s; while the hole is open this happens within a few thousand tries.
     * A fix: parse (and the constructor) work on a copy of the caller's bytes.
     */
    @Test
    void aManifestIsParsedFromTheBytesItsIdCommitsTo() throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] start = s.othelloStart();
        TestComposite comp = TestComposite.split(s, start[0], start[1], 1, 5);
        assertEquals(2, comp.parts.size(), "a root part and one part for its open entry");
        TestComposite.Part root = comp.parts.get(0), truePart = comp.parts.get(1);
        TestCert falseCert = truePart.cert.copy();
        falseCert.rootValue += 2;
        falseCert.rootUpper = falseCert.rootValue;
        TestComposite.Part falsePart = new TestComposite.Part(falseCert);
        Result r0 = Verifier.verify(write(root.bytes, "root.gsc"), new Options());
        Result rt = Verifier.verify(write(truePart.bytes, "true.gsc"), forComposition());
        Result rf = Verifier.verify(write(falsePart.bytes, "false.gsc"), forComposition());
        assertEquals(Result.Verdict.INCOMPLETE, r0.verdict, "the root part has an open entry");
        assertEquals(Result.Verdict.VERIFIED, rt.verdict);
        assertEquals(Result.Verdict.REJECTED, rf.verdict, "the false part");
        PartConclusion[] given = {r0.conclusion, rt.conclusion};

        byte[] honest = comp.manifest(); // parts {P0, T}
        comp.parts.set(1, falsePart);
        byte[] composite = comp.manifest(); // A: parts {P0, F}
        String idA = comp.compositeId();
        Manifest a = Manifest.parse(composite.clone());
        assertEquals(idA, a.compositeId());
        Composition.Outcome honestA = Composition.decide(a, new PartConclusion[] {r0.conclusion,
            null}, new Violation[] {null, rf.firstViolation()}, false);
        assertEquals(Result.Verdict.REJECTED, honestA.verdict, "A names the false part");

        int partAt = 8 + 4 + 2 + 4 + 32; // part 1's commitment in the file
        byte[] fBytes = java.util.Arrays.copyOfRange(composite, partAt, partAt + 32);
        byte[] tBytes = java.util.Arrays.copyOfRange(honest, partAt, partAt + 32);
        assertTrue(java.util.Arrays.equals(tBytes, truePart.commitment()));
        java.lang.invoke.VarHandle at =
                java.lang.invoke.MethodHandles.arrayElementVarHandle(byte[].class);
        byte[] f = composite.clone();
        java.util.concurrent.atomic.AtomicBoolean stop =
                new java.util.concurrent.atomic.AtomicBoolean();
        Thread writer = new Thread(() -> {
            while (!stop.get()) {
                for (int i = 0; i < 32; i++) at.setOpaque(f, partAt + i, tBytes[i]);
                for (int i = 0; i < 32; i++) at.setOpaque(f, partAt + i, fBytes[i]);
            }
        });
        writer.start();
        int tries = 0, forged = 0, verified = 0;
        long until = System.nanoTime() + 6_000_000_000L;
        try {
            while (System.nanoTime() < until && verified == 0) {
                tries++;
                Manifest m;
                try {
                    m = Manifest.parse(f);
                } catch (org.gamecert.verifier.kernel.format.FormatException e) {
                    continue; // R-MAN-2: the bytes hashed were not those read
                }
                if (!m.compositeId().equals(idA)
                        || !java.util.Arrays.equals(m.part(1), truePart.commitment()))
                    continue;
                forged++;
                if (Composition.decide(m, given, new Violation[2], false).verdict
                        == Result.Verdict.VERIFIED)
                    verified++;
            }
        } finally {
            stop.set(true);
            writer.join();
        }
        assertEquals(0, verified, "composite " + idA + ", whose part 1 is a false certificate,"
                + " VERIFIED (" + tries + " tries, " + forged + " manifests with A's id and T as"
                + " part 1)");
    }

    /**
     * Composition.decide(m, concluded, rejected, false) reads concluded[i] from the engine's array once
     * for each check (not null, the commitment, openEntriesFor) and once more to take it. A part's
     * conclusion kept for another manifest holds only the open entries that manifest's links name
     * and the first that none names, so composition takes it only for that manifest
     * (openEntriesFor); an engine thread that swaps concluded[0] between the root part's
     * conclusion checked alone (all its open entries kept) and one kept for another manifest m2
     * (which names E1 only: E1 and E2 kept, E3 and E4 only counted) gets the latter taken for m.
     * m links E1 and E2 only: E3 and E4 are discharged by no link (R-COMP-3; the reference
     * composition rejects m), yet with the m2 conclusion, step 3 sees only E1 and E2: VERIFIED,
     * with two open claims of the root part proven by nothing. The race runs in a JVM of its own
     * (staged there again) in which decide is not compiled, at most 5 s: compiled, the JIT may
     * merge the reads (nothing obliges it to). A fix: decide takes each array element once (a
     * clone of both arrays first).
     */
    @Test
    void compositionTakesEachConclusionAsItChecked() throws Exception {
        Staged st = stageDecide(dir);
        Composition.Outcome ref = Composition.decide(st.m, st.honest,
                new Violation[st.honest.length], false);
        assertEquals(Result.Verdict.REJECTED, ref.verdict, "open entries of the root part that"
                + " no link of m discharges");
        assertEquals("R-COMP-3", ref.violation.rule());
        PartConclusion[] withKept = st.honest.clone();
        withKept[0] = st.kept;
        assertNotEquals(Result.Verdict.VERIFIED, Composition.decide(st.m, withKept,
                new Violation[st.honest.length], false).verdict, "a conclusion kept for m2, not taken");
        // The race, in a JVM of its own in which decide is never compiled: compiled, its reads of
        // concluded[0] may be merged into one (they may as well not be: nothing orders them), and
        // the race would only be open for decide's first few hundred calls.
        Path childDir = Files.createDirectories(dir.resolve("child"));
        ProcessBuilder pb = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:CompileCommand=quiet",
                "-XX:CompileCommand=exclude,org.gamecert.verifier.kernel.Composition::decide",
                "-cp", System.getProperty("java.class.path"), DecideRace.class.getName(),
                childDir.toString(), "5000");
        pb.redirectErrorStream(true);
        Process child = pb.start();
        String out;
        try {
            if (!child.waitFor(40, java.util.concurrent.TimeUnit.SECONDS))
                throw new AssertionError("the race's JVM did not end");
            out = new String(child.getInputStream().readAllBytes()).trim();
        } finally {
            child.destroyForcibly();
        }
        assertEquals(0, child.exitValue(), out);
        String last = out.substring(out.lastIndexOf('\n') + 1);
        assertTrue(last.startsWith("verified "), out);
        assertEquals("verified 0", last.substring(0, last.indexOf(" tries")), "composite "
                + st.m.compositeId() + " VERIFIED with open entries of its root part that no link"
                + " discharges: " + last);
    }

    /** The composite m, its parts' honest conclusions, and the root part's kept for m2. */
    record Staged(Manifest m, PartConclusion[] honest, PartConclusion kept) {}

    static Staged stageDecide(Path dir) throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 0, null);
        long[] start = s.othelloStart();
        TestComposite comp = TestComposite.split(s, start[0], start[1], 1, 5);
        TestComposite.Part root = comp.parts.get(0);
        List<long[]> rootLinks = new ArrayList<>();
        for (long[] l : comp.links) if (l[0] == 0) rootLinks.add(l);
        assertTrue(rootLinks.size() >= 3, "the root part has at least three open entries");
        // m: links for the first two open entries only; m2: the first only
        TestComposite mComp = sub(comp, rootLinks.subList(0, 2));
        TestComposite m2Comp = sub(comp, rootLinks.subList(0, 1));
        Manifest m = Manifest.parse(mComp.manifest()), m2 = Manifest.parse(m2Comp.manifest());
        Path rootFile = dir.resolve("root.gsc");
        Files.write(rootFile, root.bytes);
        Result alone = Verifier.verify(rootFile, new Options());
        Options asPartOfM2 = new Options();
        asPartOfM2.composite = m2;
        asPartOfM2.compositePart = 0;
        Result forM2 = Verifier.verify(rootFile, asPartOfM2);
        assertEquals(Result.Verdict.INCOMPLETE, alone.verdict);
        assertEquals(Result.Verdict.INCOMPLETE, forM2.verdict);
        assertTrue(forM2.conclusion.openKept() < alone.conclusion.openKept());
        PartConclusion[] honest = new PartConclusion[m.partCount()];
        honest[0] = alone.conclusion;
        for (int i = 1; i < mComp.parts.size(); i++) {
            Path f = dir.resolve("part" + i + ".gsc");
            Files.write(f, mComp.parts.get(i).bytes);
            Result r = Verifier.verify(f, forComposition());
            assertTrue(r.conclusion != null, "part " + i + ": " + r.verdict);
            honest[i] = r.conclusion;
        }
        return new Staged(m, honest, forM2.conclusion);
    }

    /**
     * The race of compositionTakesEachConclusionAsItChecked: a thread swaps concluded[0] between
     * the root part's conclusion checked alone and the one kept for m2 while decide runs, for at
     * most args[1] ms or until a VERIFIED; prints "verified n tries t".
     */
    static final class DecideRace {
        public static void main(String[] args) throws Exception {
            Staged st = stageDecide(Path.of(args[0]));
            long millis = Long.parseLong(args[1]);
            PartConclusion good = st.honest[0], kept = st.kept;
            PartConclusion[] concluded = st.honest.clone();
            java.lang.invoke.VarHandle slot =
                    java.lang.invoke.MethodHandles.arrayElementVarHandle(PartConclusion[].class);
            java.util.concurrent.atomic.AtomicBoolean stop =
                    new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicLong swaps =
                    new java.util.concurrent.atomic.AtomicLong();
            Thread swapper = new Thread(() -> {
                while (!stop.get()) {
                    slot.setOpaque(concluded, 0, kept);
                    slot.setOpaque(concluded, 0, good);
                    swaps.lazySet(swaps.get() + 1);
                }
            });
            swapper.start();
            while (swaps.get() < 100_000) Thread.onSpinWait();
            long tries = 0, verified = 0;
            long until = System.nanoTime() + millis * 1_000_000L;
            try {
                while (System.nanoTime() < until && verified == 0) {
                    tries++;
                    if (Composition.decide(st.m, concluded,
                            new Violation[concluded.length], false).verdict == Result.Verdict.VERIFIED)
                        verified++;
                }
            } finally {
                stop.set(true);
                swapper.join();
            }
            System.out.println("verified " + verified + " tries " + tries);
        }
    }

    /** The composite of comp's root part with only the given links of it (and their parts). */
    static TestComposite sub(TestComposite comp, List<long[]> links) {
        TestComposite c = new TestComposite();
        c.parts.add(comp.parts.get(0));
        for (long[] l : links) {
            TestComposite.Part q = comp.parts.get((int) l[3]);
            int at = c.parts.indexOf(q);
            if (at < 0) {
                at = c.parts.size();
                c.parts.add(q);
            }
            c.links.add(new long[] {0, l[1], l[2], at});
        }
        c.sortParts();
        return c;
    }

    /** A leaf's check as a composite's engine asks for it: with the kernel's conclusion. */
    static Options forComposition() {
        Options o = new Options();
        o.forComposition = true;
        return o;
    }
}
