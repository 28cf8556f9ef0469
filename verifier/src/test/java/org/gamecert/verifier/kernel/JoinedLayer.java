package org.gamecert.verifier.kernel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Pass 2 of one layer checked in slices by other kernels (a cluster engine, SPEC §11.1), tallied
 * by the kernel that read the file. It requires the slices to be checked against this file's
 * Layout, to tile the layer (its blocks from first to last, each once, the entries counted as
 * pass 1 counted them), and the marks the slices took to be the marks the layer above sent
 * (Marks: none dropped, repeated, moved or altered). Then it tallies the layer as LayerCheck
 * does (SPEC §10): region, unreached entries, terminal positions; its first violation is the
 * earliest entry's.
 */
public final class JoinedLayer {
    private final Kernel kernel;
    private final int li, below, discs;
    private final List<SliceResult> slices = new ArrayList<>();
    private boolean finished;

    JoinedLayer(Kernel kernel, int li) {
        this.kernel = kernel;
        this.li = li;
        this.below = kernel.below(li);
        this.discs = kernel.lDiscs[li];
    }

    /** A slice's result, in any order. */
    public void add(SliceResult r) {
        if (finished) throw kernel.engineFault("a slice of layer " + discs + " after its end");
        slices.add(r);
    }

    /** Every slice was given: the checks above, then the tally. */
    public void finish() {
        if (finished) throw kernel.engineFault("layer " + discs + " ended twice");
        finished = true;
        kernel.openLayer = null;
        slices.sort(Comparator.comparingInt((SliceResult r) -> r.firstBlock));
        byte[] own = kernel.adopted;
        int nextBlock = kernel.lFirst[li];
        long entries = 0;
        Violation best = null;
        long[] sums = new long[4];
        for (SliceResult r : slices) {
            if (!Arrays.equals(r.layout, own))
                throw kernel.engineFault("a slice of layer " + discs + " was checked against"
                        + " another layout of the file");
            long count = 0;
            for (int b = r.firstBlock; b < r.endBlock && b < kernel.lEnd[li]; b++)
                count += kernel.blockList.get(b).count;
            if (r.li != li || r.firstBlock != nextBlock || r.endBlock <= r.firstBlock
                    || r.endBlock > kernel.lEnd[li] || r.base != entries || r.count != count)
                throw kernel.engineFault("the slices of layer " + discs + " do not tile it"
                        + " (blocks " + r.firstBlock + ".." + (r.endBlock - 1) + " where block "
                        + nextBlock + " was due)");
            nextBlock = r.endBlock;
            entries += count;
            if (r.first != null && (best == null || r.first.entry() < best.entry()))
                best = r.first;
            for (int s = 0; s < 4; s++) sums[s] += r.sums[s];
        }
        if (nextBlock != kernel.lEnd[li] || entries != kernel.lSize[li])
            throw kernel.engineFault("the slices of layer " + discs + " end at block "
                    + nextBlock + ", the layer at " + kernel.lEnd[li]);
        // What the layer above sent this layer must be what its slices took; when a check
        // stopped at a violation, the sums are partial (and the verdict a rejection).
        boolean stopped = best != null || kernel.found != null;
        if (!stopped && (sums[2] != kernel.sentTo[li][0] || sums[3] != kernel.sentTo[li][1]))
            throw kernel.engineFault("the marks layer " + discs + " took are not those the"
                    + " layer above sent (dropped, repeated, moved or altered)");
        if (below >= 0) {
            kernel.sentTo[below][0] += sums[0];
            kernel.sentTo[below][1] += sums[1];
        }
        tally();
        kernel.layerChecked(li);
        if (best != null) kernel.found = best; // a shallower layer's comes later in the order
    }

    /** SPEC §10: as LayerCheck.finish, from the slices' parts. */
    private void tally() {
        KeySet terminals = new KeySet(), proofTerminals = new KeySet();
        for (SliceResult r : slices) {
            kernel.region[discs] += r.region;
            if (r.unreached > 0 && kernel.unreached == 0) {
                kernel.firstUnreachedLayer = li;
                kernel.firstUnreachedIndex = r.firstUnreached;
            }
            kernel.unreached += r.unreached;
            terminals.addPairs(r.terminals, null);
        }
        for (SliceResult r : slices) proofTerminals.addPairs(r.proofTerminals, terminals);
        if (discs + 1 < kernel.region.length) kernel.region[discs + 1] += terminals.size();
        if (discs + 1 < kernel.proofTerminals.length)
            kernel.proofTerminals[discs + 1] += proofTerminals.size();
    }
}
