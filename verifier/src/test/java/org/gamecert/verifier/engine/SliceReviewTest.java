package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.SliceReport;
import org.gamecert.verifier.kernel.Violation;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Independent review of the sequential kernel (SliceCheck, SliceReport, Combiner, FileMap): an
 * untrusted engine in the kernel's JVM, using only public Java API (no reflection, no Unsafe),
 * must not turn a rejected certificate into VERIFIED. Each test here failed on the kernel as
 * reviewed.
 */
class SliceReviewTest {
    @TempDir
    Path dir;

    /** cluster: the engine reads the map for a check across JVMs (SliceEngine's test mode). */
    static String outcome(Path file, SliceEngine.Faults faults, boolean cluster) {
        try {
            Result r = new SliceEngine(1, 1, faults, cluster).verify(file, false);
            return r.verdict + " " + r.firstViolation();
        } catch (org.gamecert.verifier.kernel.EngineFault e) {
            return "fault";
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Java serialization round trip, with every Violation object read back as null. */
    static SliceReport withoutViolation(SliceReport r) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                out.writeObject(r);
            }
            try (ObjectInputStream in = new ObjectInputStream(
                    new ByteArrayInputStream(bytes.toByteArray())) {
                {
                    enableResolveObject(true);
                }

                @Override
                protected Object resolveObject(Object o) {
                    return o instanceof Violation ? null : o;
                }
            }) {
                return (SliceReport) in.readObject();
            }
        } catch (IOException | ClassNotFoundException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * A valid weak Othello 4x4 certificate, blocks of one entry, with the cut move of one entry
     * (the last of its layer, not the root) replaced by a worse legal move: R-CUT-1 there (its
     * parents see the same bounds, and it consults the same children), and the trailer's
     * census counts that entry out (the kernel does not tally an entry that failed, unless every
     * violation is asked for: countedOut false, the census --all counts).
     */
    Path oneFalseBound() throws IOException {
        return oneFalseBound(true);
    }

    Path oneFalseBound(boolean countedOut) throws IOException {
        TinySolver c4 = new TinySolver(1, 4, 4, 1, null); // Othello 4x4: values -16..16
        long[] start = c4.othelloStart();
        TestCert t = c4.build(start[0], start[1], 2);
        t.chunk = 1;
        long rootOcc = c4.canonicalKey(t.rootMover, t.rootOpponent);
        TestCert.Entry target = null;
        for (TestCert.Entry e : t.entries) {
            boolean last = true;
            for (TestCert.Entry x : t.entries)
                if (x.layer() == e.layer() && (Long.compareUnsigned(x.occ, e.occ) > 0
                        || x.occ == e.occ && Long.compareUnsigned(x.mover, e.mover) > 0)) last = false;
            if (!last || e.occ == rootOcc || (e.kind & TestCert.C) == 0) continue;
            long opp = e.occ & ~e.mover;
            for (long legal = c4.game.legalMoveCodes(e.mover, opp); legal != 0 && target == null;
                    legal &= legal - 1) {
                int code = Long.numberOfTrailingZeros(legal);
                if (code != e.move && c4.moveValue(e.mover, opp, code) < e.lo) {
                    e.move = code; // a cut move worth less than the lower bound: R-CUT-1
                    target = e;
                }
            }
            if (target != null) break;
        }
        assertTrue(target != null, "an entry to make false");
        for (long[] row : t.census)
            if (row[0] == target.layer() && countedOut) row[2]--;
        Path f = dir.resolve("one-false-bound.gsc");
        Files.write(f, t.write());
        return f;
    }

    /**
     * SliceReport is "made only by the kernel; immutable", and Serializable when made for a
     * cluster (its reports travel): an engine can read such a serial form back through an
     * ObjectInputStream of its own, replacing objects as it reads (resolveObject, public API).
     * Here a cluster check's reports of the same file are rebuilt with every violation read back
     * as null and handed to a check in one JVM, whose Combiner takes only the very reports its
     * own slices made: an engine fault, never a clean slice.
     */
    @Test
    void aReportRebuiltFromASerialFormIsRefusedInOneJvm() throws IOException {
        Path f = oneFalseBound();
        String honest = outcome(f, SliceEngine.Faults.NONE, false);
        assertTrue(honest.startsWith("REJECTED"), honest);
        java.util.Map<Integer, List<SliceReport>> rebuilt = new java.util.HashMap<>();
        String cluster = outcome(f, new SliceEngine.Faults() {
            public List<SliceReport> reports(int li, List<SliceReport> reports) {
                List<SliceReport> out = new ArrayList<>();
                for (SliceReport r : reports) out.add(withoutViolation(r));
                rebuilt.put(li, out);
                return reports;
            }
        }, true);
        assertEquals(honest, cluster);
        String forged = outcome(f, new SliceEngine.Faults() {
            public List<SliceReport> reports(int li, List<SliceReport> reports) {
                return rebuilt.get(li);
            }
        }, false);
        assertEquals("fault", forged, "honest: " + honest + "; forged: " + forged);
    }

    /**
     * A serial form hands a stream that replaces objects as it writes them (enableReplaceObject,
     * public API) every object it writes, the report's own inner ones included: --all's list and
     * map of violations, which public API can empty. In one JVM the Combiner takes a report as
     * the very object its slice made, so a report emptied that way would be taken, and the file
     * rejected honestly under --all would verify: a report made in one JVM has no serial form.
     */
    @Test
    void aReportMadeInOneJvmHasNoSerialFormToEmptyItsViolations() throws IOException {
        Path f = oneFalseBound(false);
        Options all = new Options();
        all.all = true;
        Result honest = new SliceEngine(1, 1).verify(f, all);
        assertEquals("[R-CUT-1]", String.valueOf(honest.violationCounts.keySet()),
                String.valueOf(honest.violations));
        boolean[] refused = {false};
        Result emptied = new SliceEngine(1, 1, new SliceEngine.Faults() {
            public List<SliceReport> reports(int li, List<SliceReport> reports) {
                for (SliceReport r : reports) emptyWhatItHolds(r, refused);
                return reports; // the very objects, whatever was done to their insides
            }
        }).verify(f, all);
        assertNotEquals(Result.Verdict.VERIFIED, emptied.verdict, "a report's violations emptied");
        assertTrue(refused[0], "a report of a one-JVM check was serialized");
    }

    /** Writes r out through a stream that empties every collection and map it is handed. */
    static void emptyWhatItHolds(SliceReport r, boolean[] refused) {
        try (ObjectOutputStream out = new ObjectOutputStream(java.io.OutputStream.nullOutputStream()) {
            {
                enableReplaceObject(true);
            }

            @Override
            protected Object replaceObject(Object o) {
                if (o instanceof java.util.Collection<?> c) c.clear();
                if (o instanceof java.util.Map<?, ?> m) m.clear();
                return o;
            }
        }) {
            out.writeObject(r);
        } catch (java.io.NotSerializableException e) {
            refused[0] = true;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * SPEC §2 "Work against size": a file may not bring the entries read above 64 per byte of
     * it (the reference verifier ends such a file in ERROR, checked from each BLOCK record's
     * count before its data frame is read). FileMap reads the records without that bound, and
     * SliceEngine sizes its table of a layer from the records' counts. Here 2048 blocks of 2^20
     * entries each (an Othello 8x8 header, one layer of 32 discs; the same 6 MB payload in every
     * block, a few hundred bytes compressed): a file of under a megabyte makes the engine ask for
     * arrays of 2^31 entries, an OutOfMemoryError. (The test JVM's heap is far below the 16 GB
     * asked, so nothing is actually allocated; below the heap, the memory would be taken.)
     */
    @Test
    @org.junit.jupiter.api.Tag("slow") // writing the file hashes 12 GB of payload (about 50 s)
    void aFileDeclaringMoreThan64EntriesPerByteIsRefusedWithoutACrash() throws IOException {
        TestCert t = new TestCert();
        t.family = 1;
        t.width = t.height = 8;
        t.utility = 1;
        t.symmetry = 0;
        t.mode = 2;
        t.tb = new int[64];
        for (int i = 0; i < 64; i++) t.tb[i] = i;
        t.rootMover = 1L << 28 | 1L << 35;
        t.rootOpponent = 1L << 27 | 1L << 36;
        t.rootValue = 0;
        t.maxBlockBytes = 1 << 24;
        t.maxBlockEntries = 1 << 20;
        t.chunk = 1;
        t.sortEntries = false;
        for (int b = 0; b < 2048; b++) {
            TestCert.Entry e = new TestCert.Entry(0xFFFFFFFFL, b, TestCert.C | TestCert.A, 0, 0, 0);
            e.layer = 32;
            t.entries.add(e);
        }
        int n = 1 << 20;
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        TestCert.varint(raw, 0xFFFFFFFFL); // occ: 32 discs; then c = 0, 1, 2, ...
        TestCert.varint(raw, 0);
        for (int i = 1; i < n; i++) {
            raw.write(0);
            raw.write(0);
        }
        for (int i = 0; i < n; i++) raw.write(0x18); // {C, A}
        for (int i = 0; i < 2 * n; i++) raw.write(0); // [0, 0]
        for (int i = 0; i < n; i++) raw.write(0); // move 0
        byte[] payload = raw.toByteArray();
        byte[] frame = com.github.luben.zstd.Zstd.compress(payload, 3);
        t.payloadHook = (block, honest) -> payload;
        t.compress = bytes -> frame;
        t.recordHook = (block, rec) -> rec[1] = n;
        Path f = dir.resolve("inflated-counts.gsc");
        Files.write(f, t.write());
        assertTrue(Files.size(f) * 64 < 2048L * n, Files.size(f) + " bytes");
        Result now;
        try {
            now = new SliceEngine(1, 1).verify(f, false);
        } catch (Throwable e) {
            throw new AssertionError("the sequential kernel's engine: " + e, e);
        }
        assertNotEquals(Result.Verdict.VERIFIED, now.verdict);
    }
}
