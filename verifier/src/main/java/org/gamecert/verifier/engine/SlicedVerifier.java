package org.gamecert.verifier.engine;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gamecert.verifier.kernel.JoinedLayer;
import org.gamecert.verifier.kernel.Kernel;
import org.gamecert.verifier.kernel.SliceResult;

/**
 * Pass 2 in slices within one JVM, one step after another (Slices): what the Spark engine does
 * across executors, here for tests and as its reference. Each slice is checked by a kernel of
 * its own; the kernel that read the file takes their results (JoinedLayer).
 */
public final class SlicedVerifier implements Options.SlicedPass2 {
    private final long sliceEntries;
    private final SliceFaults faults;
    /** Slices checked so far (tests). */
    long slicesChecked;

    /** Slices of about sliceEntries entries (at least one block each). */
    public SlicedVerifier(long sliceEntries) {
        this(sliceEntries, SliceFaults.NONE);
    }

    SlicedVerifier(long sliceEntries, SliceFaults faults) {
        this.sliceEntries = sliceEntries;
        this.faults = faults;
    }

    @Override
    public void run(Kernel kernel, Slices.Job honestJob, long[] firstOcc, long[] firstMover)
            throws IOException {
        Slices.Job job = faults.job(honestJob);
        Map<Integer, List<Slices.MarkBatch>> marksIn = new HashMap<>();
        for (int li = kernel.layers() - 1; li >= 0; li--) {
            int below = kernel.below(li);
            Slices.Slice[] slices = Slices.plan(kernel, li, sliceEntries, firstOcc, firstMover);
            Slices.Slice[] under = below < 0 ? new Slices.Slice[0]
                    : Slices.plan(kernel, below, sliceEntries, firstOcc, firstMover);
            Map<Integer, List<Slices.Requests>> requests = new HashMap<>();
            for (Slices.Slice s : slices)
                for (Slices.Requests r : Slices.requests(job, s, under))
                    requests.computeIfAbsent(r.child, q -> new ArrayList<>()).add(r);
            Map<Integer, List<Slices.Answers>> answers = new HashMap<>();
            for (Slices.Slice c : under)
                for (Slices.Answers a : faults.answers(Slices.answer(job, c,
                        requests.getOrDefault(c.id(), List.of()))))
                    answers.computeIfAbsent(a.parent, s -> new ArrayList<>()).add(a);
            long sizeBelow = below < 0 ? 0 : kernel.size(below);
            JoinedLayer joined = kernel.beginJoinedLayer(li);
            Map<Integer, List<Slices.MarkBatch>> next = new HashMap<>();
            List<SliceResult> results = new ArrayList<>();
            for (Slices.Slice s : slices) {
                Slices.Checked c = Slices.check(job, s, sizeBelow, under,
                        answers.getOrDefault(s.id(), List.of()),
                        faults.marks(marksIn.getOrDefault(s.id(), List.of())));
                results.add(c.result);
                slicesChecked++;
                for (Slices.MarkBatch m : c.marks)
                    next.computeIfAbsent(m.child, q -> new ArrayList<>()).add(m);
            }
            for (SliceResult r : faults.results(results)) joined.add(r);
            joined.finish();
            marksIn = next;
        }
    }

    /** What a faulty engine would do at each step (tests: the kernel must catch it). */
    interface SliceFaults {
        SliceFaults NONE = new SliceFaults() {};

        /** The file and layout the slices' kernels are given. */
        default Slices.Job job(Slices.Job honest) {
            return honest;
        }

        default List<Slices.Answers> answers(List<Slices.Answers> honest) {
            return honest;
        }

        default List<Slices.MarkBatch> marks(List<Slices.MarkBatch> honest) {
            return honest;
        }

        default List<SliceResult> results(List<SliceResult> honest) {
            return honest;
        }
    }
}
