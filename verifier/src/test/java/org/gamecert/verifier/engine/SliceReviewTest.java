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
import org.gamecert.verifier.kernel.Kernel;
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

    static String outcome(Path file, SliceEngine.Faults faults) {
        try {
            Result r = new SliceEngine(1, 1, faults).verify(file, false);
            return r.verdict + " " + r.firstViolation();
        } catch (Kernel.EngineFault e) {
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
     * census counts that entry out (the kernel does not tally an entry that failed).
     */
    Path oneFalseBound() throws IOException {
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
            if (row[0] == target.layer()) row[2]--;
        Path f = dir.resolve("one-false-bound.gsc");
        Files.write(f, t.write());
        return f;
    }

    /**
     * SliceReport is "made only by the kernel; immutable", but it is Serializable: an engine can
     * write a report out and read it back through an ObjectInputStream of its own, replacing
     * objects as it reads (resolveObject, public API). Here the slice's violation is read back as
     * null, and the Combiner takes the report as a clean slice.
     */
    @Test
    void aSliceReportRebuiltFromItsSerialFormIsRefused() throws IOException {
        Path f = oneFalseBound();
        String honest = outcome(f, SliceEngine.Faults.NONE);
        assertTrue(honest.startsWith("REJECTED"), honest);
        String forged = outcome(f, new SliceEngine.Faults() {
            public List<SliceReport> reports(int li, List<SliceReport> reports) {
                List<SliceReport> out = new ArrayList<>();
                for (SliceReport r : reports) out.add(withoutViolation(r));
                return out;
            }
        });
        assertTrue(!forged.startsWith("VERIFIED"), "honest: " + honest + "; forged: " + forged);
    }
}
