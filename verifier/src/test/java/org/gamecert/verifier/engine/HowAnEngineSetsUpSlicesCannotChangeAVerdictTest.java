package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gamecert.verifier.kernel.Combiner;
import org.gamecert.verifier.kernel.EngineFault;
import org.gamecert.verifier.kernel.FileMap;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.SliceCheck;
import org.gamecert.verifier.kernel.SliceReport;
import org.gamecert.verifier.kernel.TerminalCount;
import org.gamecert.verifier.kernel.format.Header;
import org.gamecert.verifier.kernel.format.Manifest;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TestComposite;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Terminal positions are counted only in partitions, and a slice's setup (SliceCheck.Setup) is
 * the one way to give the key before it: how an engine sets these up cannot change a verdict or
 * a census. A fake engine over the kernel's public API: partitions set up (or not) in Othello,
 * count reports for a layer whose slices partitioned nothing, fabricated keys, a key before a
 * layer's first slice, none before a later one. None may come out VERIFIED or change the census;
 * each refusal is the kernel's engine fault.
 */
class HowAnEngineSetsUpSlicesCannotChangeAVerdictTest {
    @TempDir
    Path dir;

    Path write(TestCert t) throws IOException {
        Path p = dir.resolve("c" + System.nanoTime() + ".gsc");
        Files.write(p, t.write());
        return p;
    }

    static TestCert c4() {
        TinySolver c4 = new TinySolver(2, 4, 4, 2, null);
        long[] root = RuleViolationTest.c4Position(c4, "1234");
        TestCert t = c4.build(root[0], root[1], 1);
        t.chunk = 3;
        return t;
    }

    /** An engine with knobs: partitions (0: none) in every game, keys added, counts added. */
    static class Engine {
        final KernelDriver d;
        int partitions;
        /** A key before each layer's first slice; none before the later ones. */
        boolean firstHasPrevious, laterHaveNone;
        /** A fabricated key taken by partition 0 of every layer (occ, mover), or null. */
        long[] fabricated;
        /** Count reports given for a layer whose slices were not partitioned. */
        int extraCounts;

        Engine(Path file, int partitions) throws IOException {
            d = new KernelDriver(file);
            d.sliceEntries = 1;
            this.partitions = partitions;
        }

        Result run() throws IOException {
            try {
                return runOrThrow();
            } catch (RuntimeException e) {
                return AttackCerts.faultAsResult(e);
            }
        }

        Result runOrThrow() throws IOException {
            FileMap map = d.map;
            Combiner combiner = new Combiner(map, false, false, 1);
            Map<Integer, int[]> factsTo = new HashMap<>();
            Map<Integer, int[][]> bitsTo = new HashMap<>();
            for (int li : d.layerOrder()) {
                KernelDriver.Slice[] slices = d.plan(li);
                KernelDriver.Table own = d.table(li);
                int below = map.below(li);
                KernelDriver.Table under = d.table(below);
                int[] facts = factsTo.getOrDefault(li, new int[(int) map.size(li)]);
                int[][] bits = bitsTo.getOrDefault(li, new int[4][(int) map.size(li)]);
                List<SliceReport> reports = new ArrayList<>();
                List<long[][]> keys = new ArrayList<>();
                for (KernelDriver.Slice s : slices) {
                    boolean has = s.base() > 0;
                    long[] prev = has ? own.keys.get((int) s.base() - 1) : new long[2];
                    SliceCheck check = combiner.slice(li, s.first(), s.end(), new SliceCheck.Setup(
                            has ? !laterHaveNone : firstHasPrevious, prev[0], prev[1], partitions));
                    int[] f = KernelDriver.factsOf(facts, s);
                    int[][] bs = KernelDriver.bitsOf(bits, s);
                    reports.add(d.steps(check, s, f, bs, under));
                    if (partitions > 0) keys.add(check.terminalKeys());
                    if (below >= 0) KernelDriver.sendMarks(check, map, below, factsTo, bitsTo);
                }
                int n = partitions > 0 ? partitions : extraCounts;
                TerminalCount[] count = new TerminalCount[n];
                for (int q = 0; q < n; q++)
                    count[q] = combiner.terminalCount(li, q, n, 0, 0);
                for (long[][] k : keys)
                    for (int x = 0; x < k[0].length; x++)
                        count[TerminalCount.partitionOf(k[2][x])].take(k[0][x], k[1][x], k[2][x]);
                if (fabricated != null && n > 0) {
                    // a key of partition q, sent as a key of R
                    for (int q = 0; q < n; q++)
                        try {
                            count[q].take(fabricated[0], fabricated[1], (long) q << 1);
                            break;
                        } catch (EngineFault e) {
                            count[q] = combiner.terminalCount(li, q, n, 0, 0); // not its partition
                        }
                }
                TerminalCount.Report[] reps = new TerminalCount.Report[n];
                for (int q = 0; q < n; q++) reps[q] = count[q].report();
                combiner.layer(li, reports.toArray(new SliceReport[0]), reps);
            }
            return combiner.conclude();
        }
    }

    static void engineFault(Result r, String what) {
        assertNotEquals(Result.Verdict.VERIFIED, r.verdict, what);
        assertEquals(Result.Verdict.ERROR, r.verdict, () -> what + ": " + KernelDriver.show(r));
        assertTrue(r.errorMessage != null && r.errorMessage.contains("engine fault"),
                () -> what + ": " + r.errorMessage);
    }

    static long[][] census(Result r) {
        return r.census.toArray(new long[0][]);
    }

    @Test
    void anOthelloCensusDoesNotDependOnWhetherTheEnginePartitionsTerminalKeys() throws Exception {
        Path p = write(AttackCerts.othello(64));
        Result plain = new Engine(p, 0).run();
        assertEquals(Result.Verdict.VERIFIED, plain.verdict, KernelDriver.show(plain));
        for (int parts : new int[] {1, 3}) {
            Result r = new Engine(p, parts).run();
            assertEquals(Result.Verdict.VERIFIED, r.verdict, KernelDriver.show(r));
            assertEquals(plain.census.size(), r.census.size());
            for (int i = 0; i < plain.census.size(); i++)
                assertArrayEquals(plain.census.get(i), r.census.get(i), "row " + i);
        }
    }

    @Test
    void anOthelloCensusCannotBeRaisedByAKeyTakenInAPartitionNoSliceSentTo() throws Exception {
        Path p = write(AttackCerts.othello(3));
        Engine e = new Engine(p, 2);
        e.fabricated = new long[] {0x0000_0660L | 1L, 1L};
        engineFault(e.run(), "an Othello partition given a key no slice routed");
    }

    @Test
    void countReportsForALayerThatCountsNoneAreAnEngineFault() throws Exception {
        Path p = write(AttackCerts.othello(3));
        Engine e = new Engine(p, 0);
        e.extraCounts = 1;
        engineFault(e.run(), "a count report for an Othello layer not partitioned");
        Engine f = new Engine(p, 0);
        f.extraCounts = 2;
        f.fabricated = new long[] {0x0000_0660L | 1L, 1L};
        engineFault(f.run(), "count reports with a key for an Othello layer not partitioned");
    }

    @Test
    void aConnectFourSliceSetUpWithNoTerminalPartitionsIsAnEngineFault() throws Exception {
        Path p = write(c4());
        Engine e = new Engine(p, 0);
        engineFault(e.run(), "a Connect Four slice that counts no terminal keys");
        Result honest = new Engine(p, 3).run();
        assertEquals(Result.Verdict.VERIFIED, honest.verdict, KernelDriver.show(honest));
    }

    @Test
    void aConnectFourCensusCannotBeRaisedByAFabricatedTerminalKey() throws Exception {
        Path p = write(c4());
        Engine e = new Engine(p, 3);
        e.fabricated = new long[] {0xFL, 0x5L};
        engineFault(e.run(), "a partition given a key no slice routed");
    }

    @Test
    void aLaterSliceThatClaimsNoKeyBeforeItIsAnEngineFault() throws Exception {
        Path p = write(c4());
        Engine e = new Engine(p, 3);
        e.laterHaveNone = true;
        engineFault(e.run(), "a slice after a layer's first that says none comes before it");
    }

    @Test
    void aLayersFirstSliceCannotClaimAKeyBeforeIt() throws Exception {
        Path p = write(c4());
        Engine e = new Engine(p, 3);
        e.firstHasPrevious = true; // (0, 0) before every layer's first slice
        engineFault(e.run(), "a first slice with a key before it");
    }

    @Test
    void terminalPartitionsOutOfRangeAreAnEngineFault() throws Exception {
        Path p = write(c4());
        KernelDriver d = new KernelDriver(p);
        FileMap map = d.map;
        int li = map.layers() - 1;
        assertTrue(map.header().family != Header.OTHELLO);
        for (int parts : new int[] {-1, 0, TerminalCount.MAX_PARTITIONS + 1})
            assertThrows(EngineFault.class, () -> new SliceCheck(map, li, map.firstBlock(li),
                    map.endBlock(li), false, 1, new SliceCheck.Setup(false, 0, 0, parts)),
                    parts + " partitions");
        new SliceCheck(map, li, map.firstBlock(li), map.endBlock(li), false, 1,
                new SliceCheck.Setup(false, 0, 0, TerminalCount.MAX_PARTITIONS));
        Path o = write(AttackCerts.othello(3));
        FileMap othello = new KernelDriver(o).map;
        int top = othello.layers() - 1;
        assertThrows(EngineFault.class, () -> new SliceCheck(othello, top,
                othello.firstBlock(top), othello.endBlock(top), false, 1,
                new SliceCheck.Setup(false, 0, 0, -1)), "-1 partitions in Othello");
    }

    /** Othello 4×4 from the start, mode 1, split 5 plies below the root: part 1 is a part. */
    static TestComposite composite() {
        TinySolver o4 = new TinySolver(1, 4, 4, 1, null);
        long[] start = o4.othelloStart();
        return TestComposite.split(o4, start[0], start[1], 1, 5);
    }

    /**
     * A part's setup other than the default for a file that is no part, or out of range for a
     * part (open entries before it below 0, a part index outside the manifest), is an engine
     * fault when the slice is made; the Combiner refuses a slice with no setup, and every call
     * after.
     */
    @Test
    void aPartsSetupOutOfRangeOrForAFileThatIsNoPartIsAnEngineFault() throws Exception {
        TestComposite comp = composite();
        Manifest m = Manifest.parse(comp.manifest());
        FileMap part = new KernelDriver(write(comp.parts.get(1).cert)).map;
        assertTrue(part.header().part);
        int pl = part.layers() - 1, pf = part.firstBlock(pl), pe = part.endBlock(pl);
        for (SliceCheck.Setup wrong : new SliceCheck.Setup[] {
            new SliceCheck.Setup(false, 0, 0, 0, -1, null, 0, -1),
            new SliceCheck.Setup(false, 0, 0, 0, 0, m, -1, -1),
            new SliceCheck.Setup(false, 0, 0, 0, 0, m, m.partCount(), -1)})
            assertThrows(EngineFault.class,
                    () -> new SliceCheck(part, pl, pf, pe, false, 1, wrong), wrong.toString());
        new SliceCheck(part, pl, pf, pe, false, 1,
                new SliceCheck.Setup(false, 0, 0, 0, 0, m, 1, 4));
        FileMap map = new KernelDriver(write(c4())).map;
        int li = map.layers() - 1, f = map.firstBlock(li), e = map.endBlock(li);
        assertTrue(!map.header().part);
        for (SliceCheck.Setup wrong : new SliceCheck.Setup[] {
            new SliceCheck.Setup(false, 0, 0, 1, 1, null, 0, -1),
            new SliceCheck.Setup(false, 0, 0, 1, 0, m, 0, -1),
            new SliceCheck.Setup(false, 0, 0, 1, 0, null, 3, -1),
            new SliceCheck.Setup(false, 0, 0, 1, 0, null, 0, 5)})
            assertThrows(EngineFault.class, () -> new SliceCheck(map, li, f, e, false, 1, wrong),
                    wrong.toString());
        new SliceCheck(map, li, f, e, false, 1,
                new SliceCheck.Setup(false, 0, 0, 1, 0, null, 0, -1));
        Combiner c = new Combiner(map, false, false, 1);
        assertThrows(NullPointerException.class, () -> c.slice(li, f, e, null));
        assertThrows(EngineFault.class,
                () -> c.slice(li, f, e, new SliceCheck.Setup(false, 0, 0, 1)),
                "a call after one that threw");
    }

    /** A part's setup in the Combiner (partOf) is given once, the default one included. */
    @Test
    void aPartsCompositeSetUpTwiceIsAnEngineFault() throws Exception {
        TestComposite comp = composite();
        Manifest m = Manifest.parse(comp.manifest());
        FileMap part = new KernelDriver(write(comp.parts.get(1).cert)).map;
        Combiner c = new Combiner(part, false, false, 1);
        c.partOf(null, 0, false);
        assertThrows(EngineFault.class, () -> c.partOf(m, 1, true));
    }
}
