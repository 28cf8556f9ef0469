package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.gamecert.verifier.kernel.Combiner;
import org.gamecert.verifier.kernel.EngineFault;
import org.gamecert.verifier.kernel.FileMap;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.SliceCheck;
import org.gamecert.verifier.kernel.SliceReport;
import org.gamecert.verifier.kernel.TerminalCount;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.testcert.TestCert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sequential kernel's protocol (SPEC §11.1, docs/kernel-redesign.md "Contract") against an
 * engine of the test's own (KernelDriver) that drives FileMap, SliceCheck and Combiner through
 * their public API in an order or with data the contract does not allow: layers out of order,
 * skipped or twice, a conclusion before the layers, a slice's steps out of turn or twice, data of
 * the wrong size, a slice or the Combiner on another file's map, reports of another layer or
 * file, frames altered or of another file. Each is an engine fault or a rejection, never
 * VERIFIED; and what the contract says changes nothing (frames altered after they were handed
 * over, a check made twice with one report kept, the arrays an engine reads from the map) does
 * not change the outcome. Most of these attacks were once a false VERIFIED on the old kernel
 * (reviews 4 to 10, SliceAttackTest): the old test each comes from is named.
 */
class SliceProtocolTest {
    @TempDir
    Path dir;

    Path valid() throws IOException {
        return AttackCerts.validOthello(dir);
    }

    Path bad() throws IOException {
        return AttackCerts.rejectedOthello(dir);
    }

    static void fault(Result r, String how) {
        assertEquals(Result.Verdict.ERROR, r.verdict, how + ": " + AttackCerts.show(r));
        assertTrue(r.errorMessage.startsWith("engine fault: "), how + ": " + AttackCerts.show(r));
        System.out.println("expected: " + how + ": " + r.errorMessage);
    }

    static FileMap mapOf(Path p) throws Exception {
        try (Container ct = new Container(p)) {
            return FileMap.read(ct);
        }
    }

    /** The honest driver concludes as the one-machine engine, slices of one block and whole. */
    @Test
    void theHonestDriverConcludesAsTheEngine() throws Exception {
        for (Path p : new Path[] {valid(), bad()})
            for (long slice : new long[] {1, 1 << 16}) {
                KernelDriver d = new KernelDriver(p);
                d.sliceEntries = slice;
                Result r = d.run();
                Result e = AttackCerts.verdict(p);
                assertEquals(e.verdict, r.verdict, AttackCerts.show(r));
                assertEquals(AttackCerts.rule(e), AttackCerts.rule(r));
                assertEquals(e.commitment, r.commitment);
            }
    }

    /**
     * Records given one at a time (SPEC §11.1, step f: answer, then check()) in any order, each
     * first as another entry's and then again as its own (the later stands), conclude as the
     * same records in arrays: verdict, first rule and commitment.
     */
    @Test
    void answersGivenOneAtATimeInAnyOrderConcludeAsTheArrays() throws Exception {
        for (Path p : new Path[] {valid(), bad()}) {
            KernelDriver d = new KernelDriver(p) {
                @Override
                SliceReport steps(SliceCheck check, Slice s, int[] facts, int[][] bits,
                        Table under) throws IOException {
                    for (int b = s.first(); b < s.end(); b++) check.decode(b, honestFrame(b));
                    check.takeCounts(SliceEngine.interleaved(facts, bits), 0);
                    int n = check.makeRequests();
                    long[] occ = new long[n + 3], mover = new long[n + 3]; // longer is room
                    check.requestKeys(occ, mover);
                    Answers a = under.answer(new long[][] {java.util.Arrays.copyOf(occ, n),
                        java.util.Arrays.copyOf(mover, n)});
                    int other = -1; // an index the layer below holds, for the wrong first record
                    for (int j = 0; j < n && other < 0; j++) if (a.index[j] >= 0) other = j;
                    for (int j = n - 1; j >= 0; j--) {
                        if (a.index[j] < 0) continue;
                        check.answer(j, a.index[other], a.kind[other], a.lo[other], a.hi[other]);
                        check.answer(j, a.index[j], a.kind[j], a.lo[j], a.hi[j]);
                    }
                    return check.check();
                }
            };
            d.sliceEntries = 1 << 16;
            Result r = d.run();
            Result e = AttackCerts.verdict(p);
            assertEquals(e.verdict, r.verdict, AttackCerts.show(r));
            assertEquals(AttackCerts.rule(e), AttackCerts.rule(r));
            assertEquals(e.commitment, r.commitment);
        }
    }

    /**
     * A slice takes its counts at once, from the entries it has decoded (SPEC §11.1, step d), so
     * it refuses them itself until its last block is decoded: before any block and between two,
     * the call that gives them is the engine fault (not only the sums that would then differ).
     */
    @Test
    void countsBeforeTheLastBlockAreRefusedWhenGiven() throws Exception {
        for (int blocks = 0; blocks <= 1; blocks++) {
            int decodedFirst = blocks;
            Steps early = new Steps(valid()) {
                SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u)
                        throws IOException {
                    for (int x = s.first(); x < s.first() + decodedFirst; x++)
                        c.decode(x, honestFrame(x));
                    EngineFault refused = assertThrows(EngineFault.class, () -> c.takeCounts(SliceEngine.interleaved(f, b), 0));
                    assertTrue(refused.getMessage().contains("counts before its blocks"),
                            refused.getMessage());
                    throw refused;
                }
            };
            fault(early.run(), "the counts after " + blocks + " of the slice's blocks");
            assertTrue(early.done, "no slice of two blocks");
        }
    }

    /** The driver's conclusion on p is the one-machine engine's (its slice of two blocks met). */
    static void concludesAsTheEngine(Path p, Steps steps) throws Exception {
        Result r = steps.run();
        assertTrue(steps.done, "no slice of two blocks");
        Result e = AttackCerts.verdict(p);
        assertEquals(e.verdict, r.verdict, AttackCerts.show(r));
        assertEquals(AttackCerts.rule(e), AttackCerts.rule(r));
        assertEquals(e.commitment, r.commitment);
    }

    /** A slice's counts as an engine holds a layer's: five ints an entry, from index at. */
    static int[] interleaved(int[] facts, int[][] bits, int at) {
        int[] layer = new int[at + 5 * facts.length + 7]; // other entries' counts around it
        java.util.Arrays.fill(layer, 9);
        for (int i = 0; i < facts.length; i++) {
            layer[at + 5 * i] = facts[i];
            for (int q = 0; q < 4; q++) layer[at + 5 * i + 1 + q] = bits[q][i];
        }
        return layer;
    }

    /**
     * A slice's kernel reads its counts out of the layer's (what the engine holds, five ints an
     * entry, other entries' around them) from the index it is given: the same conclusion as the
     * slice's own counts from index 0, on a valid file and on one rejected.
     */
    @Test
    void countsTakenAtTheirIndexInTheLayersArrayConcludeAsTheSlicesOwn() throws Exception {
        for (Path p : new Path[] {valid(), bad()}) {
            Steps fromLayer = new Steps(p) {
                SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u)
                        throws IOException {
                    for (int x = s.first(); x < s.end(); x++) c.decode(x, honestFrame(x));
                    c.takeCounts(interleaved(f, b, 10), 10);
                    return rest(c, u);
                }
            };
            concludesAsTheEngine(p, fromLayer);
        }
    }

    // ---------------------------------------------------------------- the layers' order

    /** A driver whose layers are taken in the order order(layers) gives. */
    static KernelDriver inOrder(Path p, Function<Integer, int[]> order) throws IOException {
        return new KernelDriver(p) {
            @Override
            int[] layerOrder() {
                return order.apply(map.layers());
            }
        };
    }

    /**
     * Layers deepest first (review 4: the deepest layer got fresh flags, its region row 0, and a
     * false census VERIFIED), the deepest and then the others, only the top layer, none, the top
     * layer twice (review 4: a layer finished twice doubled the census; SliceAttackTest: layers
     * joined out of order or skipped): each an engine fault, on a valid file whose census says 0
     * for the deepest layer's region as well as on one rejected for a false entry.
     */
    @Test
    void layersOutOfOrderSkippedOrTwiceAreEngineFaults() throws Exception {
        TestCert t = AttackCerts.othello(7);
        int deepest = 0;
        for (TestCert.Entry e : t.entries) deepest = Math.max(deepest, e.layer());
        for (long[] row : t.census) if (row[0] == deepest) row[1] = 0;
        Path census = AttackCerts.write(dir, "deepest-row-0.gsc", t);
        Map<String, Function<Integer, int[]>> orders = new java.util.LinkedHashMap<>();
        orders.put("deepest first", n -> {
            int[] o = new int[n];
            for (int i = 0; i < n; i++) o[i] = i;
            return o;
        });
        orders.put("the deepest, then shallowest first", n -> {
            int[] o = new int[n];
            for (int i = 1; i < n; i++) o[i] = n - i;
            return o;
        });
        orders.put("only the top layer", n -> new int[] {n - 1});
        orders.put("no layer", n -> new int[0]);
        orders.put("the top layer twice", n -> new int[] {n - 1, n - 1});
        orders.put("every layer twice in a row", n -> {
            int[] o = new int[2 * n];
            for (int i = 0; i < n; i++) o[2 * i] = o[2 * i + 1] = n - 1 - i;
            return o;
        });
        for (Path p : new Path[] {census, bad()}) {
            assertEquals(Result.Verdict.REJECTED, AttackCerts.verdict(p).verdict);
            for (Map.Entry<String, Function<Integer, int[]>> o : orders.entrySet())
                fault(inOrder(p, o.getValue()).run(), o.getKey() + " (" + p.getFileName() + ")");
        }
    }

    /**
     * A file with no block under a valid file's header (review 10: the old kernel adopted the
     * valid file's layout and joined its slices): that file's reports given to its Combiner
     * are an engine fault; alone it is rejected (R-ROOT-1).
     */
    @Test
    void anotherFilesLayersForAFileWithNoBlockAreAnEngineFault() throws Exception {
        TestCert t = new org.gamecert.verifier.testcert.TinySolver(1, 4, 4, 1, null).build(
                AttackCerts.othello(7).rootMover, AttackCerts.othello(7).rootOpponent, 2);
        Path good = AttackCerts.write(dir, "t.gsc", t);
        TestCert f = t.copy();
        f.entries.clear();
        f.census.clear();
        for (long[] row : t.census) f.census.add(new long[] {row[0], row[1], 0});
        Path empty = AttackCerts.write(dir, "f.gsc", f);
        Result alone = new KernelDriver(empty).run();
        assertEquals(Result.Verdict.REJECTED, alone.verdict, AttackCerts.show(alone));
        assertEquals("R-ROOT-1", AttackCerts.rule(alone));
        Map<Integer, List<SliceReport>> reports = new HashMap<>();
        KernelDriver grab = new KernelDriver(good) {
            @Override
            List<SliceReport> reports(int li, List<SliceReport> honest) {
                reports.put(li, honest);
                return honest;
            }
        };
        assertEquals(Result.Verdict.VERIFIED, grab.run().verdict);
        Combiner c = new Combiner(mapOf(empty), false, false, 1);
        Result r;
        try {
            for (int li = reports.size() - 1; li >= 0; li--) c.layer(li, reports.get(li).toArray(new SliceReport[0]),
                    new TerminalCount.Report[0]);
            r = c.conclude();
        } catch (RuntimeException e) {
            r = AttackCerts.faultAsResult(e);
        }
        fault(r, "a file with no block given another file's layers");
    }

    /**
     * A layer after the last one (-1), or no array of reports, is an engine fault like any step
     * out of turn, and a final one: the Combiner refuses every later call ("a call after ...").
     */
    @Test
    void aLayerAfterTheLastOrNoArrayOfReportsIsAFinalEngineFault() throws Exception {
        Path good = AttackCerts.write(dir, "t.gsc", AttackCerts.othello(7));
        Combiner[] made = new Combiner[1];
        KernelDriver honest = new KernelDriver(good) {
            @Override
            Combiner combiner() {
                return made[0] = super.combiner();
            }
        };
        assertEquals(Result.Verdict.VERIFIED, honest.run().verdict);
        TerminalCount.Report[] noCounts = new TerminalCount.Report[0];
        EngineFault past = assertThrows(EngineFault.class,
                () -> made[0].layer(-1, new SliceReport[0], noCounts));
        assertTrue(past.getMessage().contains("layer -1 given"), past.getMessage());
        EngineFault then = assertThrows(EngineFault.class, made[0]::conclude);
        assertTrue(then.getMessage().contains("a call after"), then.getMessage());
        KernelDriver fresh = new KernelDriver(good);
        int top = fresh.map.layers() - 1;
        for (int variant = 0; variant < 2; variant++) {
            Combiner c = fresh.combiner();
            SliceReport[] reports = variant == 0 ? null : new SliceReport[0];
            TerminalCount.Report[] counts = variant == 0 ? noCounts : null;
            assertThrows(EngineFault.class, () -> c.layer(top, reports, counts));
            EngineFault after = assertThrows(EngineFault.class,
                    () -> c.layer(top, new SliceReport[0], noCounts));
            assertTrue(after.getMessage().contains("a call after"), after.getMessage());
        }
    }

    // ---------------------------------------------------------------- a slice's steps

    /** A driver that takes one slice's steps its own way (the first slice of two blocks or more). */
    abstract static class Steps extends KernelDriver {
        boolean done;

        Steps(Path p) throws IOException {
            super(p);
            sliceEntries = 1 << 16;
        }

        @Override
        SliceReport steps(SliceCheck check, Slice s, int[] facts, int[][] bits, Table under)
                throws IOException {
            if (done || s.end() - s.first() < 2) return super.steps(check, s, facts, bits, under);
            done = true;
            return wrong(check, s, facts, bits, under);
        }

        abstract SliceReport wrong(SliceCheck check, Slice s, int[] facts, int[][] bits,
                Table under) throws IOException;

        /** Every block of the slice, in order, as an honest engine hands them over. */
        void blocks(SliceCheck check, Slice s) throws IOException {
            for (int x = s.first(); x < s.end(); x++) check.decode(x, honestFrame(x));
        }

        /** After a wrong step that the kernel did not refuse, the rest as an honest engine. */
        SliceReport goOn(SliceCheck check, Slice s, Table under) throws IOException {
            for (int x = s.first(); x < s.end(); x++) check.decode(x, honestFrame(x));
            return rest(check, under);
        }

        SliceReport rest(SliceCheck check, Table under) {
            long[][] req = SliceEngine.requests(check);
            Answers a = under.answer(req);
            return SliceEngine.check(check, a.index, a.kind, a.lo, a.hi);
        }
    }

    /** A step an engine takes after a slice's report (d: the driver, for its frames). */
    interface Late {
        void take(Steps d, SliceCheck c, KernelDriver.Slice s, int[] facts, int[][] bits)
                throws IOException;
    }

    /** A driver that checks a slice honestly, then takes the step late after its report. */
    static Steps afterTheReport(Path p, Late late) throws IOException {
        return new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u)
                    throws IOException {
                for (int x = s.first(); x < s.end(); x++) c.decode(x, honestFrame(x));
                c.takeCounts(SliceEngine.interleaved(f, b), 0);
                SliceReport r = rest(c, u);
                late.take(this, c, s, f, b);
                return r;
            }
        };
    }

    /**
     * A slice's steps out of turn or twice: requests before the blocks or after only the first
     * (SliceAttackTest: a slice ended after its first block), blocks out of order, a block twice,
     * the counts before or between the blocks, after the requests, twice or never, any step
     * after the report (the kernel has let go of its working arrays then), the
     * requests or the answers twice, answers before the
     * requests (reviews 4 and 5: an engine that ended pass 2 before the layers, or took the
     * census before pass 2). Each an engine fault, the first time the slice is driven wrong.
     */
    @Test
    void aSlicesStepsOutOfTurnOrTwiceAreEngineFaults() throws Exception {
        Path p = bad();
        Map<String, Steps> wrong = new java.util.LinkedHashMap<>();
        wrong.put("requests before the blocks", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) {
                return rest(c, u);
            }
        });
        wrong.put("the counts before the blocks", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                c.takeCounts(SliceEngine.interleaved(f, b), 0);
                return goOn(c, s, u);
            }
        });
        wrong.put("the counts between two blocks", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                c.decode(s.first(), honestFrame(s.first()));
                c.takeCounts(SliceEngine.interleaved(f, b), 0);
                for (int x = s.first() + 1; x < s.end(); x++) c.decode(x, honestFrame(x));
                return rest(c, u);
            }
        });
        wrong.put("requests after the first block only", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                c.decode(s.first(), honestFrame(s.first()));
                return rest(c, u);
            }
        });
        wrong.put("the second block first", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                c.decode(s.first() + 1, honestFrame(s.first() + 1));
                c.decode(s.first(), honestFrame(s.first()));
                for (int x = s.first() + 2; x < s.end(); x++) c.decode(x, honestFrame(x));
                c.takeCounts(SliceEngine.interleaved(f, b), 0);
                return rest(c, u);
            }
        });
        wrong.put("a block twice", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                c.decode(s.first(), honestFrame(s.first()));
                c.decode(s.first(), honestFrame(s.first()));
                for (int x = s.first() + 1; x < s.end(); x++) c.decode(x, honestFrame(x));
                c.takeCounts(SliceEngine.interleaved(f, b), 0);
                return rest(c, u);
            }
        });
        wrong.put("a block of the layer after the slice's", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                for (int x = s.first(); x < s.end(); x++) c.decode(x, honestFrame(x));
                if (s.end() < map.blocks()) c.decode(s.end(), honestFrame(s.end()));
                c.takeCounts(SliceEngine.interleaved(f, b), 0);
                return rest(c, u);
            }
        });
        wrong.put("the counts after the requests", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                for (int x = s.first(); x < s.end(); x++) c.decode(x, honestFrame(x));
                long[][] req = SliceEngine.requests(c);
                c.takeCounts(SliceEngine.interleaved(f, b), 0);
                Answers a = u.answer(req);
                return SliceEngine.check(c, a.index, a.kind, a.lo, a.hi);
            }
        });
        wrong.put("no counts at all (a slice of a layer its parents sent facts to)", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                for (int x = s.first(); x < s.end(); x++) c.decode(x, honestFrame(x));
                return rest(c, u);
            }
        });
        wrong.put("the counts twice", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                for (int x = s.first(); x < s.end(); x++) c.decode(x, honestFrame(x));
                c.takeCounts(SliceEngine.interleaved(f, b), 0);
                c.takeCounts(SliceEngine.interleaved(f, b), 0);
                return rest(c, u);
            }
        });
        wrong.put("the requests twice", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                for (int x = s.first(); x < s.end(); x++) c.decode(x, honestFrame(x));
                c.takeCounts(SliceEngine.interleaved(f, b), 0);
                SliceEngine.requests(c);
                return rest(c, u);
            }
        });
        wrong.put("the answers twice", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                for (int x = s.first(); x < s.end(); x++) c.decode(x, honestFrame(x));
                c.takeCounts(SliceEngine.interleaved(f, b), 0);
                long[][] req = SliceEngine.requests(c);
                Answers a = u.answer(req);
                SliceEngine.check(c, a.index, a.kind, a.lo, a.hi);
                return SliceEngine.check(c, a.index, a.kind, a.lo, a.hi);
            }
        });
        // after the report the kernel has let go of its working arrays: each step is refused
        wrong.put("the requests after the report",
                afterTheReport(p, (d, c, s, f, b) -> c.makeRequests()));
        wrong.put("the counts again after the report",
                afterTheReport(p, (d, c, s, f, b) -> c.takeCounts(SliceEngine.interleaved(f, b), 0)));
        wrong.put("a block after the report",
                afterTheReport(p, (d, c, s, f, b) -> c.decode(s.first(),
                        d.honestFrame(s.first()))));
        wrong.put("a record before the requests", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                for (int x = s.first(); x < s.end(); x++) c.decode(x, honestFrame(x));
                c.takeCounts(SliceEngine.interleaved(f, b), 0);
                c.answer(0, 0, (byte) 0, (byte) 0, (byte) 0);
                return rest(c, u);
            }
        });
        wrong.put("the request keys before the requests", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                for (int x = s.first(); x < s.end(); x++) c.decode(x, honestFrame(x));
                c.takeCounts(SliceEngine.interleaved(f, b), 0);
                c.requestKeys(new long[1 << 16], new long[1 << 16]);
                return rest(c, u);
            }
        });
        wrong.put("the check with its records twice", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                for (int x = s.first(); x < s.end(); x++) c.decode(x, honestFrame(x));
                c.takeCounts(SliceEngine.interleaved(f, b), 0);
                c.makeRequests();
                c.check();
                return c.check();
            }
        });
        wrong.put("a record after the report", afterTheReport(p, (d, c, s, f, b) -> c.answer(0, 0,
                (byte) 0, (byte) 0, (byte) 0)));
        wrong.put("the request keys after the report", afterTheReport(p, (d, c, s, f, b) ->
                c.requestKeys(new long[1 << 16], new long[1 << 16])));
        wrong.put("answers before the requests", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                for (int x = s.first(); x < s.end(); x++) c.decode(x, honestFrame(x));
                c.takeCounts(SliceEngine.interleaved(f, b), 0);
                return c.check();
            }
        });
        eachAnEngineFault(wrong);
    }

    /**
     * A call that throws anything but an engine fault (a null array here, a NullPointerException
     * inside the call; an OutOfMemoryError or a StackOverflowError an engine catches alike) leaves
     * the slice part way through a step, so every later call is refused, an engine fault. (An
     * OutOfMemoryError caught inside requests, after its step was set, let the answers be taken
     * with no entry checked: the slice reported none of its violations, a false VERIFIED.)
     */
    @Test
    void aCallThatThrowsLeavesTheSliceRefusingEveryLaterCall() throws Exception {
        Path p = bad();
        Map<String, Steps> wrong = new java.util.LinkedHashMap<>();
        wrong.put("a null frame, then the next block", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                assertThrows(NullPointerException.class, () -> c.decode(s.first(), null));
                byte[] next = honestFrame(s.first() + 1);
                throw refusedAfterAThrow(() -> c.decode(s.first() + 1, next));
            }
        });
        wrong.put("null counts, then the requests", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                blocks(c, s);
                assertThrows(NullPointerException.class, () -> c.takeCounts(null, 0));
                throw refusedAfterAThrow(c::makeRequests);
            }
        });
        wrong.put("null arrays for the request keys, then the check", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                blocks(c, s);
                c.takeCounts(SliceEngine.interleaved(f, b), 0);
                c.makeRequests();
                assertThrows(NullPointerException.class, () -> c.requestKeys(null, new long[0]));
                throw refusedAfterAThrow(c::check);
            }
        });
        eachAnEngineFault(wrong);
    }

    /**
     * The Combiner concludes once: a second conclusion is refused (a review: the first Result's
     * header was the Combiner's own, whose tie-breaking order an engine could change and then
     * have a second conclusion carry into a composite's check of the parts' games; it is a copy
     * now).
     */
    @Test
    void theCombinerConcludesOnce() throws Exception {
        Combiner[] made = new Combiner[1];
        KernelDriver d = new KernelDriver(valid()) {
            @Override
            Combiner combiner() {
                return made[0] = super.combiner();
            }
        };
        Result r = d.run();
        assertEquals(Result.Verdict.VERIFIED, r.verdict, AttackCerts.show(r));
        EngineFault again = assertThrows(EngineFault.class, made[0]::conclude);
        assertTrue(again.getMessage().contains("concluded twice"), again.getMessage());
    }

    /**
     * A map read from a container the engine has already read blocks from numbers them from 0 (a
     * review: the numbering carried on, so each chain value h_i was computed with another i, and
     * a file whose chain was made with shifted indexes verified).
     */
    @Test
    void aMapReadAfterTheEngineReadTheContainerNumbersItsBlocksFromZero() throws Exception {
        try (Container ct = new Container(valid())) {
            ct.readHeaderContent();
            for (int k = 0; k < 3; k++) ct.readDataFrame(ct.nextBlockRecord());
            FileMap map = FileMap.read(ct);
            for (int b = 0; b < map.blocks(); b++) assertEquals(b, map.record(b).index);
            assertEquals(null, map.readingViolation());
        }
    }

    /**
     * A block record's serial form is written from a copy: a stream that replaces objects as it
     * writes them (an engine's, `enableReplaceObject`) is never handed the map's own chain array,
     * against which R-HASH-1 is checked (a review: zeroed, or set to another file's values, it
     * let a chain that does not hold verify).
     */
    @Test
    void aRecordsSerialFormNeverHandsOutTheMapsChainArray() throws Exception {
        FileMap map = mapOf(valid());
        byte[] stored = map.record(0).chain();
        try (java.io.ObjectOutputStream out =
                new java.io.ObjectOutputStream(new java.io.ByteArrayOutputStream()) {
                    {
                        enableReplaceObject(true);
                    }

                    @Override
                    protected Object replaceObject(Object o) {
                        if (o instanceof byte[] b) java.util.Arrays.fill(b, (byte) 0);
                        return o;
                    }
                }) {
            out.writeObject(map.record(0));
        }
        org.junit.jupiter.api.Assertions.assertArrayEquals(stored, map.record(0).chain());
    }

    /** Each driver, run, met its slice of two blocks and ended in an engine fault. */
    static void eachAnEngineFault(Map<String, Steps> wrong) throws Exception {
        for (Map.Entry<String, Steps> w : wrong.entrySet()) {
            Result r = w.getValue().run();
            assertTrue(w.getValue().done, w.getKey() + ": no slice of two blocks");
            fault(r, w.getKey());
        }
    }

    /** The engine fault call throws, as the call after one that threw. */
    static EngineFault refusedAfterAThrow(org.junit.jupiter.api.function.Executable call) {
        EngineFault refused = assertThrows(EngineFault.class, call);
        assertTrue(refused.getMessage().contains("a call after one that threw"),
                refused.getMessage());
        return refused;
    }

    /**
     * Data of the wrong size or out of range: counts that end short of the slice or start outside
     * the array, a negative count (SliceAttackTest: more marks counted than given), a flag counted
     * on more facts than named the entry, one answer more or fewer
     * than the requests, an answer naming an index beyond the layer below, bounds outside
     * [U_min, U_max] (review 5: the old binding took bounds modulo 2^16, so lo + 2^16 passed
     * for lo). Each an engine fault.
     */
    @Test
    void dataOfTheWrongSizeOrOutOfRangeIsAnEngineFault() throws Exception {
        Path p = valid();
        Map<String, Steps> wrong = new java.util.LinkedHashMap<>();
        wrong.put("layer counts one int short of the slice", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                int[] layer = interleaved(f, b, 3); // cut to end one int before the slice's
                blocks(c, s);
                c.takeCounts(java.util.Arrays.copyOf(layer, 3 + 5 * f.length - 1), 3);
                return rest(c, u);
            }
        });
        wrong.put("layer counts from a negative index", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                blocks(c, s);
                c.takeCounts(interleaved(f, b, 0), -5);
                return rest(c, u);
            }
        });
        wrong.put("layer counts from an index whose end overflows", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                blocks(c, s);
                c.takeCounts(interleaved(f, b, 0), Long.MAX_VALUE - 2);
                return rest(c, u);
            }
        });
        wrong.put("a flag on more facts than the entry's", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                int[] layer = interleaved(f, b, 0);
                layer[5 * 1 + 1 + 3] = layer[5 * 1] + 1; // the second entry's reached, one too many
                blocks(c, s);
                // refused as it is taken (not only by the sums, which it would also unbalance)
                EngineFault refused = assertThrows(EngineFault.class, () -> c.takeCounts(layer, 0));
                assertTrue(refused.getMessage().contains("more facts with a flag than facts"),
                        refused.getMessage());
                throw refused;
            }
        });
        wrong.put("a negative count in the layer's counts", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                int[] layer = interleaved(f, b, 0);
                layer[0] = -1; // the slice's first entry's facts
                blocks(c, s);
                c.takeCounts(layer, 0);
                return rest(c, u);
            }
        });
        wrong.put("records in arrays one longer than the requests", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                for (int x = s.first(); x < s.end(); x++) c.decode(x, honestFrame(x));
                c.takeCounts(SliceEngine.interleaved(f, b), 0);
                long[][] req = SliceEngine.requests(c);
                int n = req[0].length + 1; // the record past the last: index 0 (a record)
                Answers a = u.answer(req);
                return SliceEngine.check(c, java.util.Arrays.copyOf(a.index, n),
                        java.util.Arrays.copyOf(a.kind, n), java.util.Arrays.copyOf(a.lo, n),
                        java.util.Arrays.copyOf(a.hi, n));
            }
        });
        for (int past : new int[] {-1, 0}) // request -1, and request n (one past the last)
            wrong.put("a record for request " + (past < 0 ? "-1" : "n"), new Steps(p) {
                SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                    for (int x = s.first(); x < s.end(); x++) c.decode(x, honestFrame(x));
                    c.takeCounts(SliceEngine.interleaved(f, b), 0);
                    int n = c.makeRequests();
                    c.answer(past < 0 ? -1 : n, 0, (byte) 0, (byte) 0, (byte) 0);
                    return c.check();
                }
            });
        wrong.put("a record with a negative index", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                for (int x = s.first(); x < s.end(); x++) c.decode(x, honestFrame(x));
                c.takeCounts(SliceEngine.interleaved(f, b), 0);
                if (c.makeRequests() > 0) c.answer(0, -1, (byte) 0, (byte) 0, (byte) 0);
                return c.check();
            }
        });
        for (int which = 0; which < 2; which++) {
            boolean occShort = which == 0;
            wrong.put("request keys into " + (occShort ? "occ" : "mover") + " one too short",
                    new Steps(p) {
                SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                    for (int x = s.first(); x < s.end(); x++) c.decode(x, honestFrame(x));
                    c.takeCounts(SliceEngine.interleaved(f, b), 0);
                    int n = c.makeRequests();
                    c.requestKeys(new long[occShort ? n - 1 : n], new long[occShort ? n : n - 1]);
                    return c.check();
                }
            });
        }
        wrong.put("an index beyond the layer below", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                for (int x = s.first(); x < s.end(); x++) c.decode(x, honestFrame(x));
                c.takeCounts(SliceEngine.interleaved(f, b), 0);
                long[][] req = SliceEngine.requests(c);
                Answers a = u.answer(req);
                a.index[0] = map.size(map.below(s.li()));
                return SliceEngine.check(c, a.index, a.kind, a.lo, a.hi);
            }
        });
        wrong.put("bounds above U_max", new Steps(p) {
            SliceReport wrong(SliceCheck c, Slice s, int[] f, int[][] b, Table u) throws IOException {
                for (int x = s.first(); x < s.end(); x++) c.decode(x, honestFrame(x));
                c.takeCounts(SliceEngine.interleaved(f, b), 0);
                long[][] req = SliceEngine.requests(c);
                Answers a = u.answer(req);
                int j = 0;
                while (a.index[j] < 0) j++;
                a.hi[j] = (byte) (map.game().uMax + 1);
                return SliceEngine.check(c, a.index, a.kind, a.lo, a.hi);
            }
        });
        eachAnEngineFault(wrong);
    }

    // ---------------------------------------------------------------- frames

    /**
     * The bytes of a block are the engine's, copied when handed over: the engine's array
     * overwritten right after (review 5: entries changed between block() and endBlock(); review
     * 8: pass 1 read the engine's payload) changes nothing, on a valid and on a rejected file.
     */
    @Test
    void aFrameOverwrittenAfterItWasHandedOverChangesNothing() throws Exception {
        for (Path p : new Path[] {valid(), bad()}) {
            Result honest = new KernelDriver(p).run();
            int[] changed = {0};
            Result r = new KernelDriver(p) {
                @Override
                void afterDecode(int b, byte[] handed) {
                    java.util.Arrays.fill(handed, (byte) 0);
                    changed[0]++;
                }
            }.run();
            assertTrue(changed[0] > 0);
            assertEquals(AttackCerts.show(honest), AttackCerts.show(r));
            assertEquals(honest.commitment, r.commitment);
        }
    }

    /**
     * A frame altered in one byte, or the frame of another file for the same block (a false root
     * value's file given the true file's frame for the root's block: review 9's spliced blocks,
     * FaultyEngineTest's root entry handed over with the true value), is not the file's: the
     * slice never takes it. It is refused against the SHA-256 of the frame the map read (an
     * engine fault, the verdict error: the file may be valid), before the chain value (R-HASH-1)
     * or the frame's own check (R-CON-3), which would have judged the engine's bytes.
     */
    @Test
    void aFrameThatIsNotTheFilesIsRejected() throws Exception {
        TestCert truth = AttackCerts.othello(7);
        TestCert lie = truth.copy();
        int rootDiscs = Long.bitCount(truth.rootMover | truth.rootOpponent);
        for (TestCert.Entry e : lie.entries)
            if (e.layer() == rootDiscs) {
                e.lo += 2;
                e.hi += 2;
            }
        lie.rootValue += 2;
        Path t = AttackCerts.write(dir, "truth.gsc", truth), l = AttackCerts.write(dir, "lie.gsc", lie);
        KernelDriver other = new KernelDriver(t);
        int last = other.map.blocks() - 1;
        byte[] trueRootFrame = other.honestFrame(last);
        Result spliced = new KernelDriver(l) {
            @Override
            byte[] frame(int li, int b, byte[] honest) {
                return b == last ? trueRootFrame : honest;
            }
        }.run();
        assertEquals(Result.Verdict.ERROR, spliced.verdict, AttackCerts.show(spliced));
        assertTrue(spliced.errorMessage.contains("other bytes than its data frame"),
                AttackCerts.show(spliced));
        for (int at : new int[] {0, 20}) {
            Result flipped = new KernelDriver(t) {
                @Override
                byte[] frame(int li, int b, byte[] honest) {
                    if (b == 1) honest[Math.min(at, honest.length - 1)] ^= 0x10;
                    return honest;
                }
            }.run();
            assertEquals(Result.Verdict.ERROR, flipped.verdict, AttackCerts.show(flipped));
            assertTrue(flipped.errorMessage.contains("other bytes than its data frame"),
                    AttackCerts.show(flipped));
        }
    }

    // ---------------------------------------------------------------- another file's map or reports

    /** A driver whose slices not holding block 0 (or all: every) are checked on another map. */
    static KernelDriver onMap(Path p, FileMap other, boolean every) throws IOException {
        return new KernelDriver(p) {
            @Override
            FileMap sliceMap(int li, int first) {
                return every || first != 0 ? other : map;
            }
        };
    }

    /**
     * Twins whose blocks are byte for byte the same and whose headers differ (the tie-breaking
     * order: SliceAttackTest's slice kernels and driver reading another header, a checker of
     * another kernel; the root value: SlicedVerifierTest, review 9; the root: a strict file's
     * twin naming an unreached subtree's root as the root, SliceAttackTest's R-REACH-1 hidden by
     * another root): the slices checked on the twin's map, every slice or all but block 0's, are
     * an engine fault; the Combiner made on the twin's map checks the twin (its verdict, under its
     * commitment); honest, the file is rejected.
     */
    @Test
    void aSliceOnAnotherHeadersMapIsAnEngineFaultAndACombinerOnOneChecksThatFile() throws Exception {
        List<Path[]> twins = new ArrayList<>();
        twins.add(AttackCerts.tieBreakTwins(dir, 7));
        TestCert t1 = AttackCerts.othello(7), t2 = t1.copy();
        t2.rootValue = t1.rootValue + 2;
        twins.add(new Path[] {AttackCerts.write(dir, "root-plus-2.gsc", t2),
            AttackCerts.write(dir, "root-true.gsc", t1)});
        Path[] sub = AttackCerts.extraSubtree(dir);
        for (Path[] pair : twins) {
            assertEquals(Result.Verdict.REJECTED, new KernelDriver(pair[0]).run().verdict);
            assertEquals(Result.Verdict.VERIFIED, new KernelDriver(pair[1]).run().verdict);
        }
        twins.add(sub);
        for (Path[] pair : twins) {
            Path p = pair[0];
            FileMap twin = mapOf(pair[1]);
            boolean strict = pair == sub;
            for (boolean every : new boolean[] {false, true}) {
                KernelDriver d = onMap(p, twin, every);
                d.strict = strict;
                fault(d.run(), (every ? "every slice" : "the slices but block 0's") + " of "
                        + p.getFileName() + " on its twin's map");
            }
            KernelDriver c = new KernelDriver(p) {
                @Override
                Combiner combiner() {
                    return new Combiner(twin, strict, false, 1);
                }
            };
            c.strict = strict;
            // the Combiner makes its slices on its own map: what it concludes is the twin's check
            // (the twin's verdict, under the twin's commitment), whatever file the engine read
            Result onTwin = c.run();
            KernelDriver twinItself = new KernelDriver(pair[1]);
            twinItself.strict = strict;
            Result twinsOwn = twinItself.run();
            assertEquals(twinsOwn.verdict, onTwin.verdict, AttackCerts.show(onTwin));
            assertEquals(twinsOwn.commitment, onTwin.commitment);
            KernelDriver honest = new KernelDriver(p);
            honest.strict = strict;
            assertEquals(Result.Verdict.REJECTED, honest.run().verdict, p.toString());
        }
    }

    /**
     * The reports of the layer that holds a violation replaced (SliceAttackTest: results of
     * another file, results moved between layers, the slice with the violation dropped; review 4
     * and SliceAttackTest: a violation swallowed or erased by the engine): by the same layer's
     * reports from the valid twin, by the layer above's, or with the violating slice left out.
     * Each an engine fault.
     */
    @Test
    void theViolatingSlicesReportReplacedOrDroppedIsAnEngineFault() throws Exception {
        Map<Integer, List<SliceReport>> good = new HashMap<>();
        KernelDriver grab = new KernelDriver(valid()) {
            @Override
            List<SliceReport> reports(int li, List<SliceReport> honest) {
                good.put(li, honest);
                return honest;
            }
        };
        assertEquals(Result.Verdict.VERIFIED, grab.run().verdict);
        Path p = bad();
        Map<String, java.util.function.BiFunction<Integer, List<SliceReport>, List<SliceReport>>> ways =
                new java.util.LinkedHashMap<>();
        List<List<SliceReport>> above = new ArrayList<>();
        ways.put("the valid twin's reports for the violating layer", (li, r) ->
                r.stream().anyMatch(x -> x.violation() != null) ? good.get(li) : r);
        ways.put("the valid twin's report for the violating slice", (li, r) -> {
            List<SliceReport> out = new ArrayList<>();
            for (int i = 0; i < r.size(); i++)
                out.add(r.get(i).violation() != null ? good.get(li).get(i) : r.get(i));
            return out;
        });
        ways.put("the layer above's reports", (li, r) -> {
            List<SliceReport> prev = above.isEmpty() ? null : above.get(above.size() - 1);
            above.add(r);
            return prev != null && r.stream().anyMatch(x -> x.violation() != null) ? prev : r;
        });
        ways.put("the violating slice left out", (li, r) ->
                r.stream().filter(x -> x.violation() == null).toList());
        for (Map.Entry<String, java.util.function.BiFunction<Integer, List<SliceReport>, List<SliceReport>>> w
                : ways.entrySet()) {
            above.clear();
            boolean[] seen = {false};
            KernelDriver d = new KernelDriver(p) {
                @Override
                List<SliceReport> reports(int li, List<SliceReport> honest) {
                    seen[0] |= honest.stream().anyMatch(x -> x.violation() != null);
                    return w.getValue().apply(li, honest);
                }
            };
            Result r = d.run();
            assertTrue(seen[0], "a slice reported the violation");
            fault(r, w.getKey());
        }
    }

    /**
     * --strict: the top layer's answers all "absent" (a violation is then held), and every entry
     * of every deeper slice sent a forged fact REACHED (SliceAttackTest: forged marks while the
     * old kernel held a violation and compared no sums, then the violation forgotten). The
     * Combiner compares the facts of every layer whatever it holds: an engine fault.
     */
    @Test
    void forgedReachedFactsWhileAViolationIsHeldAreAnEngineFault() throws Exception {
        Path file = AttackCerts.extraSubtree(dir)[0];
        assertEquals(Result.Verdict.REJECTED, AttackCerts.strictVerdict(file).verdict);
        KernelDriver d = new KernelDriver(file) {
            @Override
            void answers(int li, int first, long[][] req, long[] index, byte[] kind, byte[] lo,
                    byte[] hi) {
                if (li == map.layers() - 1) java.util.Arrays.fill(index, -1);
            }

            @Override
            void counts(int li, int first, int[] facts, int[][] bits) {
                if (li == map.layers() - 1) return;
                for (int i = 0; i < facts.length; i++) {
                    facts[i] = Math.max(1, facts[i]);
                    bits[3][i] = Math.max(1, bits[3][i]);
                }
            }
        };
        d.strict = true;
        d.sliceEntries = 20;
        fault(d.run(), "forged REACHED under every deeper entry, a violation held");
    }

    /**
     * Review 6 (regression): a slice checked twice, the second check's report and marks thrown
     * away, changes nothing (the sums count only what the reports given hold).
     */
    @Test
    void aSliceCheckedTwiceWithOneReportKeptChangesNothing() throws Exception {
        for (Path p : new Path[] {valid(), bad()}) {
            Result honest = new KernelDriver(p).run();
            int[] extra = {0};
            Result r = new KernelDriver(p) {
                final Map<Integer, Table> own = new HashMap<>();

                @Override
                SliceReport steps(SliceCheck check, Slice s, int[] facts, int[][] bits, Table under)
                        throws IOException {
                    boolean has = s.base() > 0;
                    Table layer = own.get(s.li());
                    if (layer == null) own.put(s.li(), layer = table(s.li()));
                    long[] prev = has ? layer.keys.get((int) s.base() - 1) : new long[2];
                    SliceCheck twice = new SliceCheck(map, s.li(), s.first(), s.end(), all,
                            maxPerRule, new SliceCheck.Setup(has, prev[0], prev[1], 0));
                    super.steps(twice, s, facts.clone(), new int[][] {bits[0].clone(),
                        bits[1].clone(), bits[2].clone(), bits[3].clone()}, under);
                    extra[0]++;
                    return super.steps(check, s, facts, bits, under);
                }
            }.run();
            assertTrue(extra[0] > 0);
            assertEquals(AttackCerts.show(honest), AttackCerts.show(r));
            assertEquals(honest.commitment, r.commitment);
        }
    }

    /**
     * What the engine reads from the map is a copy (review 8: the header's tie-breaking order
     * was the kernel's own array; a block record's chain value and h_0 were the kernel's arrays;
     * review 10: the header's order rewritten by an engine thread before the kernel copied it):
     * an engine that writes the twin's order into the header it got and zeros into every record's
     * chain value before any slice is made changes nothing: the file whose moves do not follow
     * its header's order is still rejected (R-TB-1), the twin still verifies.
     */
    @Test
    void theHeaderAndRecordsAnEngineReadsAreCopies() throws Exception {
        Path[] twins = AttackCerts.tieBreakTwins(dir, 7);
        for (Path p : twins) {
            Result honest = new KernelDriver(p).run();
            KernelDriver d = new KernelDriver(p);
            int[] tb = d.map.header().tb;
            for (int i = 0; i < tb.length / 2; i++) {
                int x = tb[i];
                tb[i] = tb[tb.length - 1 - i];
                tb[tb.length - 1 - i] = x;
            }
            for (int b = 0; b < d.map.blocks(); b++) java.util.Arrays.fill(d.map.record(b).chain(), (byte) 0);
            Result r = d.run();
            assertEquals(AttackCerts.show(honest), AttackCerts.show(r));
            assertEquals(honest.commitment, r.commitment);
        }
        assertEquals("R-TB-1", AttackCerts.rule(new KernelDriver(twins[0]).run()));
    }

    /**
     * A part's slices told it is checked for one composite, its Combiner told it is checked alone
     * or for another composite (or the other way round): the open entries the slices kept are
     * those of m2's links (and the first that none names), but a conclusion "checked alone" says
     * they are all of them, and Composition takes it for any manifest (or, kept "for m", it lacks
     * the first entry m's links do not name). The root part of a composite with at least three
     * open entries; m links the first two, m2 the first only: Composition rejects m with the
     * honest conclusion (R-COMP-3), and must with the mixed one.
     */
    @Test
    void aPartsSlicesAndCombinerToldOfDifferentCompositesCannotHideOpenEntries() throws Exception {
        org.gamecert.verifier.testcert.TinySolver ts =
                new org.gamecert.verifier.testcert.TinySolver(1, 4, 4, 0, null);
        long[] start = ts.othelloStart();
        org.gamecert.verifier.testcert.TestComposite comp =
                org.gamecert.verifier.testcert.TestComposite.split(ts, start[0], start[1], 1, 5);
        List<long[]> rootLinks = new ArrayList<>();
        for (long[] l : comp.links) if (l[0] == 0) rootLinks.add(l);
        assertTrue(rootLinks.size() >= 3, "the root part has at least three open entries");
        org.gamecert.verifier.testcert.TestComposite mComp =
                CompositionInputTest.sub(comp, rootLinks.subList(0, 2));
        org.gamecert.verifier.kernel.format.Manifest m =
                org.gamecert.verifier.kernel.format.Manifest.parse(mComp.manifest());
        org.gamecert.verifier.kernel.format.Manifest m2 =
                org.gamecert.verifier.kernel.format.Manifest.parse(
                        CompositionInputTest.sub(comp, rootLinks.subList(0, 1)).manifest());
        Path root = dir.resolve("root.gsc");
        java.nio.file.Files.write(root, comp.parts.get(0).bytes);
        org.gamecert.verifier.kernel.PartConclusion[] honestParts =
                new org.gamecert.verifier.kernel.PartConclusion[m.partCount()];
        honestParts[0] = new KernelDriver(root).run().conclusion;
        for (int i = 1; i < mComp.parts.size(); i++) {
            Path f = dir.resolve("part" + i + ".gsc");
            java.nio.file.Files.write(f, mComp.parts.get(i).bytes);
            honestParts[i] = new KernelDriver(f).run().conclusion;
            assertTrue(honestParts[i] != null, "part " + i);
        }
        org.gamecert.verifier.kernel.Composition.Outcome honest =
                org.gamecert.verifier.kernel.Composition.decide(m, honestParts,
                        new org.gamecert.verifier.kernel.Violation[honestParts.length], false);
        assertEquals(Result.Verdict.REJECTED, honest.verdict);
        assertEquals("R-COMP-3", honest.violation.rule());
        List<String> verified = new ArrayList<>();
        String[] mixes = {"slices for m2, Combiner alone", "slices alone, Combiner for m2",
            "slices for m2, Combiner for m"};
        for (int mix = 0; mix < mixes.length; mix++) {
            KernelDriver d = new KernelDriver(root);
            if (mix != 1) {
                d.slicesFor = m2;
                d.slicesPart = 0;
            }
            if (mix != 0) {
                d.combinerFor = mix == 1 ? m2 : m;
                d.combinerPart = 0;
            }
            Result r = d.run();
            String how = mixes[mix] + ": " + AttackCerts.show(r);
            if (r.verdict != Result.Verdict.INCOMPLETE) {
                assertTrue(r.verdict == Result.Verdict.ERROR || r.verdict == Result.Verdict.REJECTED, how);
                continue;
            }
            org.gamecert.verifier.kernel.PartConclusion[] given = honestParts.clone();
            given[0] = r.conclusion;
            org.gamecert.verifier.kernel.Composition.Outcome o =
                    org.gamecert.verifier.kernel.Composition.decide(m, given,
                            new org.gamecert.verifier.kernel.Violation[given.length], false);
            if (o.verdict == Result.Verdict.VERIFIED)
                verified.add(how + "; open entries kept " + r.conclusion.openKept() + " of "
                        + r.conclusion.openCount() + ": composite m VERIFIED");
        }
        assertTrue(verified.isEmpty(), String.join("\n", verified));
    }

    /**
     * In one JVM the Combiner takes a report only as the very object a slice it made
     * (Combiner.slice) reported: honest slices the engine made itself, on the same map and set up
     * alike, are an engine fault. Across JVMs (a map read for a cluster) reports are taken as
     * given, so there the same honest slices verify.
     */
    @Test
    void slicesTheEngineMadeItselfAreTakenOnlyAcrossJvms() throws Exception {
        KernelDriver own = new KernelDriver(valid());
        own.slicesOfItsOwn = true;
        fault(own.run(), "slices the engine made itself, in one JVM");
        KernelDriver cluster = new KernelDriver(valid(), true);
        cluster.slicesOfItsOwn = true;
        Result r = cluster.run();
        assertEquals(Result.Verdict.VERIFIED, r.verdict, AttackCerts.show(r));
        assertTrue(r.acrossJvms());
    }

    /**
     * The engine chooses the mode of each SliceCheck it makes itself (all: every violation) and of
     * the Combiner (first violation) through their public constructors. A slice in --all mode
     * keeps its violations in its kept list and counts and reports no first violation; a
     * Combiner in first-violation mode reads only the first: slices made with all = true under a
     * Combiner made with all = false must not hide a violation. On the Othello 4x4 certificate
     * with one P entry of 8 discs claiming a wrong value (honest: R-P-1 at block 1401, layer 8)
     * this was VERIFIED, with a commitment, when the test was written (2026-11-29). In one JVM
     * the Combiner takes no report of a slice it did not make; across JVMs, where reports are
     * taken as given, each carries its mode and the Combiner requires its own.
     */
    @Test
    void slicesInAllModeUnderAFirstViolationCombinerCannotHideAViolation() throws Exception {
        Path p = bad();
        for (boolean cluster : new boolean[] {false, true})
        for (boolean slicesAll : new boolean[] {true, false}) {
            KernelDriver d = new KernelDriver(p, cluster) {
                @Override
                Combiner combiner() {
                    return new Combiner(map, strict, !slicesAll, maxPerRule);
                }
            };
            d.all = slicesAll;
            d.slicesOfItsOwn = true;
            Result r = d.run();
            String how = "cluster=" + cluster + ", slices all=" + slicesAll + ", Combiner all="
                    + !slicesAll + ": " + AttackCerts.show(r) + " " + r.commitment;
            assertNotEquals(Result.Verdict.VERIFIED, r.verdict, how);
            assertTrue(r.verdict == Result.Verdict.REJECTED || r.verdict == Result.Verdict.ERROR,
                    how);
        }
    }

    /**
     * A slice whose every answer is "absent" (SliceAttackTest: absent answers) only makes the
     * kernel know less: rejected on a valid file, never VERIFIED on a false one.
     */
    @Test
    void everyAnswerAbsentIsARejection() throws Exception {
        for (Path p : new Path[] {valid(), bad()}) {
            Result r = new KernelDriver(p) {
                @Override
                void answers(int li, int first, long[][] req, long[] index, byte[] kind, byte[] lo,
                        byte[] hi) {
                    java.util.Arrays.fill(index, -1);
                }
            }.run();
            assertEquals(Result.Verdict.REJECTED, r.verdict, AttackCerts.show(r));
        }
        assertNotEquals(Result.Verdict.VERIFIED, AttackCerts.verdict(bad()).verdict);
    }
}
