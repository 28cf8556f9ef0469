package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.gamecert.verifier.kernel.Combiner;
import org.gamecert.verifier.kernel.FileMap;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.SliceCheck;
import org.gamecert.verifier.kernel.SliceReport;
import org.gamecert.verifier.kernel.TerminalCount;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review of commit 6304716 (SPEC §10.3, §11.1 "Terminal positions in partitions"): a slice routes
 * each terminal key once per move that reaches it, the partitions deduplicate, and sums of keyed
 * hashes bind what the slices sent to what the partitions took. A fake engine, over the kernel's
 * public API only, tampers with the routed keys and the partitions' reports; the census it could
 * change (Connect Four counts terminal positions of R in region_d, which R-CENSUS-1 compares with
 * the trailer) must never come out VERIFIED.
 */
class TerminalRoutesBindTheCensusTest {
    static TinySolver c4;
    static TestCert honest;

    @TempDir
    Path dir;

    @BeforeAll
    static void build() {
        c4 = new TinySolver(2, 4, 4, 2, null);
        long[] root = RuleViolationTest.c4Position(c4, "1234");
        honest = c4.build(root[0], root[1], 1);
        honest.chunk = 3; // several blocks, so several slices, a layer
    }

    /** One routed key: occ, mover, route (partition and set). */
    record Key(long occ, long mover, long route) {}

    /** A partitioning engine with hooks on the keys routed and the counts reported. */
    /** An engine that changes the keys routed in layer target as change does, else honest. */
    Engine keysChanged(Path p, int partitions, int target, Consumer<List<Key>> change)
            throws IOException {
        return new Engine(p, partitions) {
            @Override
            List<Key> keys(int li, List<Key> sent) {
                if (li == target) change.accept(sent);
                return sent;
            }
        };
    }

    class Engine {
        final KernelDriver d;
        final int partitions;
        /** Layers whose routed keys had a repeat (the same key and route twice or more). */
        final List<Integer> layersWithRepeats = new ArrayList<>();
        /** Routed keys per layer, as the slices gave them (honest). */
        final Map<Integer, List<Key>> routed = new HashMap<>();

        Engine(Path file, int partitions) throws IOException {
            d = new KernelDriver(file);
            d.sliceEntries = 1;
            this.partitions = partitions;
        }

        /** The keys as the engine hands them on (a test changes them). */
        List<Key> keys(int li, List<Key> sent) {
            return sent;
        }

        /** The partitions' reports as handed to the Combiner. */
        TerminalCount.Report[] counts(int li, TerminalCount.Report[] honestCounts) {
            return honestCounts;
        }

        /** Whether slice number j of layer li is partitioned (all, honestly). */
        boolean partitioned(int li, int j) {
            return true;
        }

        FileMap countMap() {
            return d.map;
        }

        /** Counters the engine makes itself (not through Combiner.terminalCount). */
        boolean countsOfItsOwn;

        Result run() {
            try {
                return runOrThrow();
            } catch (RuntimeException | IOException e) {
                return AttackCerts.faultAsResult(e instanceof RuntimeException re ? re
                        : new RuntimeException(e));
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
                List<Key> sent = new ArrayList<>();
                for (int j = 0; j < slices.length; j++) {
                    KernelDriver.Slice s = slices[j];
                    boolean has = s.base() > 0;
                    long[] prev = has ? own.keys.get((int) s.base() - 1) : new long[2];
                    boolean part = partitioned(li, j);
                    SliceCheck check = combiner.slice(li, s.first(), s.end(),
                            new SliceCheck.Setup(has, prev[0], prev[1], part ? partitions : 0));
                    int[] f = KernelDriver.factsOf(facts, s);
                    int[][] bs = KernelDriver.bitsOf(bits, s);
                    reports.add(d.steps(check, s, f, bs, under));
                    if (part) {
                        long[][] k = check.terminalKeys();
                        for (int x = 0; x < k[0].length; x++)
                            sent.add(new Key(k[0][x], k[1][x], k[2][x]));
                    }
                    if (below >= 0) KernelDriver.sendMarks(check, map, below, factsTo, bitsTo);
                }
                routed.put(li, List.copyOf(sent));
                if (new java.util.HashSet<>(sent).size() < sent.size()) layersWithRepeats.add(li);
                List<Key> given = keys(li, new ArrayList<>(sent));
                TerminalCount[] count = new TerminalCount[partitions];
                for (int q = 0; q < partitions; q++)
                    count[q] = countMap() == map && !countsOfItsOwn ? combiner.terminalCount(li, q, partitions, 0, 0)
                            : new TerminalCount(countMap(), li, q, partitions, 0, 0);
                for (Key k : given)
                    count[TerminalCount.partitionOf(k.route)].take(k.occ, k.mover, k.route);
                TerminalCount.Report[] reps = new TerminalCount.Report[partitions];
                for (int q = 0; q < partitions; q++) reps[q] = count[q].report();
                combiner.layer(li, reports.toArray(new SliceReport[0]), counts(li, reps));
            }
            return combiner.conclude();
        }
    }

    Path write(TestCert t) throws IOException {
        Path p = dir.resolve("c" + System.nanoTime() + ".gsc");
        Files.write(p, t.write());
        return p;
    }

    static void refused(Result r, String what) {
        assertNotEquals(Result.Verdict.VERIFIED, r.verdict, what);
        assertEquals(Result.Verdict.ERROR, r.verdict, () -> what + ": " + KernelDriver.show(r));
        assertTrue(r.errorMessage != null && r.errorMessage.contains("engine fault"),
                () -> what + ": " + r.errorMessage);
    }

    /** The layer with the most routed keys, and a key in it routed at least twice. */
    static int busiestLayer(Engine e) {
        int best = -1;
        for (int li : e.layersWithRepeats)
            if (best < 0 || e.routed.get(li).size() > e.routed.get(best).size()) best = li;
        assertTrue(best >= 0, "a layer whose slices routed some key twice");
        return best;
    }

    static Key repeated(List<Key> keys) {
        for (int i = 0; i < keys.size(); i++)
            for (int j = i + 1; j < keys.size(); j++) if (keys.get(i).equals(keys.get(j))) return keys.get(i);
        throw new AssertionError("no repeat");
    }

    @Test
    void theCensusDoesNotDependOnThePartitionCount() throws Exception {
        Path p = write(honest);
        Result plain = new KernelDriver(p).run();
        assertEquals(Result.Verdict.VERIFIED, plain.verdict, KernelDriver.show(plain));
        for (int partitions : new int[] {1, 2, 7}) {
            Engine e = new Engine(p, partitions);
            Result r = e.run();
            assertEquals(Result.Verdict.VERIFIED, r.verdict, KernelDriver.show(r));
            assertEquals(plain.census.size(), r.census.size());
            for (int i = 0; i < r.census.size(); i++)
                assertArrayEquals(plain.census.get(i), r.census.get(i), "row " + i);
            assertTrue(!e.layersWithRepeats.isEmpty(), "per-move routing repeats keys");
        }
        Result engine = Verifier.verify(p, new Options());
        for (int i = 0; i < engine.census.size(); i++)
            assertArrayEquals(plain.census.get(i), engine.census.get(i), "SliceEngine row " + i);
    }

    /**
     * A mode-5 certificate whose A' moves are not canonical (its R, and so its terminal keys,
     * follow the stored moves): the one-machine engine's census, term_d included, is the same
     * however the layers are cut and on however many threads (the partitions deduplicate
     * repeats across and within slices).
     */
    @Test
    void aModeFiveCensusDoesNotDependOnTheSlicing() throws Exception {
        long[] root = RuleViolationTest.c4Position(c4, "1234");
        OptimalMoveCerts b = new OptimalMoveCerts(c4, honest.tb);
        TestCert five = OptimalMoveCerts.withHeaderOf(b.build(root[0], root[1], 5,
                OptimalMoveCerts.A_PRIME_ONLY), honest);
        assertTrue(b.nonCanonical > 0);
        five.chunk = 5;
        Path p = write(five);
        Result first = null;
        for (int threads : new int[] {1, 2})
            for (long slice : new long[] {1, 7, 1 << 20}) {
                Result r = new SliceEngine(threads, slice).verify(p, new Options());
                assertEquals(Result.Verdict.VERIFIED, r.verdict, KernelDriver.show(r));
                if (first == null) first = r;
                for (int i = 0; i < r.census.size(); i++)
                    assertArrayEquals(first.census.get(i), r.census.get(i),
                            threads + " threads, slices of " + slice + ": row " + i);
            }
    }

    /** Repeats are expected now, but a repeat dropped or added is still a change the sums see. */
    @Test
    void droppingOrAddingOneCopyOfARepeatedKeyIsAnEngineFault() throws Exception {
        Path p = write(honest);
        Engine probe = new Engine(p, 1);
        assertEquals(Result.Verdict.VERIFIED, probe.run().verdict);
        int target = busiestLayer(probe);
        Key twice = repeated(probe.routed.get(target));
        refused(new Engine(p, 1) {
            @Override
            List<Key> keys(int li, List<Key> sent) {
                if (li == target) sent.remove(twice); // one copy; the distinct count is the same
                return sent;
            }
        }.run(), "one copy of a repeated key dropped");
        refused(keysChanged(p, 1, target, sent -> sent.add(twice)).run(), "a copy of a key added");
        refused(keysChanged(p, 1, target, sent -> sent.removeIf(twice::equals)).run(),
                "every copy of a key dropped");
    }

    /** Keys fabricated, swapped, or sent under the other set (R versus proof only). */
    @Test
    void aKeyFabricatedSwappedOrSentUnderTheOtherSetIsAnEngineFault() throws Exception {
        Path p = write(honest);
        Engine probe = new Engine(p, 1);
        assertEquals(Result.Verdict.VERIFIED, probe.run().verdict);
        int target = busiestLayer(probe);
        Key some = probe.routed.get(target).get(0);
        Key fake = new Key(some.occ ^ 0x100000000L, some.mover, some.route);
        refused(keysChanged(p, 1, target, sent -> sent.add(fake)).run(), "a fabricated key");
        refused(new Engine(p, 1) {
            @Override
            List<Key> keys(int li, List<Key> sent) {
                if (li == target) {
                    sent.removeIf(some::equals);
                    sent.add(fake);
                }
                return sent;
            }
        }.run(), "a key swapped for another (the distinct count unchanged)");
        refused(new Engine(p, 1) {
            @Override
            List<Key> keys(int li, List<Key> sent) {
                if (li == target)
                    sent.replaceAll(k -> k.equals(some) ? new Key(k.occ, k.mover, k.route ^ 1) : k);
                return sent;
            }
        }.run(), "a key sent under the other set");
        refused(keysChanged(p, 1, target, sent -> sent.remove(0)).run(),
                "a key left out of its layer");
    }

    /** A key moved to another partition, or counted in two. */
    @Test
    void aKeyMovedToAnotherPartitionIsAnEngineFault() throws Exception {
        Path p = write(honest);
        Engine probe = new Engine(p, 2);
        assertEquals(Result.Verdict.VERIFIED, probe.run().verdict);
        int target = busiestLayer(probe);
        Key some = probe.routed.get(target).get(0);
        // each check draws its own partition key: the key's partition is read in this run
        refused(new Engine(p, 2) {
            @Override
            List<Key> keys(int li, List<Key> sent) {
                if (li == target)
                    sent.replaceAll(k -> k.occ == some.occ && k.mover == some.mover
                            ? new Key(k.occ, k.mover, k.route ^ 2) : k); // partition 0 <-> 1
                return sent;
            }
        }.run(), "a key routed to the other partition");
    }

    /** The partitions' reports: one twice, one of another check of the same file, none. */
    @Test
    void aPartitionsReportRepeatedFromAnotherCheckOrMissingIsAnEngineFault() throws Exception {
        Path p = write(honest);
        refused(new Engine(p, 2) {
            @Override
            TerminalCount.Report[] counts(int li, TerminalCount.Report[] c) {
                return new TerminalCount.Report[] {c[0], c[0]};
            }
        }.run(), "partition 0's report twice");
        refused(new Engine(p, 2) {
            @Override
            TerminalCount.Report[] counts(int li, TerminalCount.Report[] c) {
                return new TerminalCount.Report[] {c[1]};
            }
        }.run(), "a partition's report missing");
        refused(new Engine(p, 2) {
            final Map<Integer, TerminalCount.Report[]> seen = new HashMap<>();

            @Override
            TerminalCount.Report[] counts(int li, TerminalCount.Report[] c) {
                seen.put(li, c);
                // the layer above's reports (the sums would fit if that layer sent nothing)
                return seen.containsKey(li + 1) ? seen.get(li + 1) : c;
            }
        }.run(), "another layer's reports");
        // the same file read again: another check, another key; its counts are not this one's
        FileMap other;
        try (Container ct = new Container(p)) {
            other = FileMap.read(ct);
        }
        FileMap otherMap = other;
        refused(new Engine(p, 1) {
            @Override
            FileMap countMap() {
                return otherMap;
            }
        }.run(), "counts made on another check's map of the same file");
        // counted honestly, on this check's map, by counters the Combiner did not make
        Engine own = new Engine(p, 1);
        own.countsOfItsOwn = true;
        refused(own.run(), "counts by counters the engine made itself");
        refused(new Engine(p, 2) {
            @Override
            boolean partitioned(int li, int j) {
                return j != 0; // one slice set up with no terminal partitions
            }
        }.run(), "a slice of a game with terminal positions whose keys are not partitioned");
    }

    /**
     * The census an engine would have to change: the trailer says region_d one more at a layer
     * of terminal positions; the honest run rejects it (R-CENSUS-1), an engine that counts a
     * fabricated terminal key of R there is refused.
     */
    @Test
    void aCensusOffByATerminalPositionCannotBeMadeToVerify() throws Exception {
        Path good = write(honest);
        Engine probe = new Engine(good, 1);
        assertEquals(Result.Verdict.VERIFIED, probe.run().verdict);
        int target = -1;
        Key ofR = null;
        for (Map.Entry<Integer, List<Key>> e : probe.routed.entrySet())
            for (Key k : e.getValue())
                if (!TerminalCount.isProof(k.route) && ofR == null) {
                    ofR = k;
                    target = e.getKey();
                }
        assertTrue(ofR != null, "a terminal position of R");
        int discs = Long.bitCount(ofR.occ);
        TestCert lie = honest.copy();
        lie.chunk = honest.chunk;
        for (long[] row : lie.census) if (row[0] == discs) row[1]++;
        Path bad = write(lie);
        Result plain = new Engine(bad, 1).run();
        assertEquals(Result.Verdict.REJECTED, plain.verdict, KernelDriver.show(plain));
        assertEquals("R-CENSUS-1", plain.firstViolation().rule());
        int layer = target;
        Key fake = new Key(ofR.occ ^ 0x100000000L, ofR.mover, ofR.route);
        refused(new Engine(bad, 1) {
            @Override
            List<Key> keys(int li, List<Key> sent) {
                if (li == layer) sent.add(fake);
                return sent;
            }
        }.run(), "a fabricated terminal key of R to fit the trailer's census");
    }

    /**
     * A partition's report holds the sum of what it took, keyed by the map's K: a serial form
     * would show it (an engine that reads one key's term can balance the sums of keys it drops
     * or adds). Made for one JVM it has none; made for a cluster it travels (Spark).
     */
    @Test
    void aCountsReportMadeInOneJvmHasNoSerialForm() throws Exception {
        Path p = write(honest);
        for (boolean cluster : new boolean[] {false, true}) {
            FileMap map;
            try (Container ct = new Container(p)) {
                map = cluster ? FileMap.readForCluster(ct) : FileMap.read(ct);
            }
            Combiner c = new Combiner(map, false, false, 1);
            int li = map.layers() - 1;
            TerminalCount count = c.terminalCount(li, 0, 1, 0, 0);
            TerminalCount.Report r = count.report();
            boolean written;
            try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(
                    java.io.OutputStream.nullOutputStream())) {
                out.writeObject(r);
                written = true;
            } catch (java.io.NotSerializableException e) {
                written = false;
            }
            assertEquals(cluster, written, cluster ? "a cluster's count" : "a one-JVM count");
        }
    }

}
