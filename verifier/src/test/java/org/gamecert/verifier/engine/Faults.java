package org.gamecert.verifier.engine;

import org.gamecert.verifier.kernel.ChildLookup;
import org.gamecert.verifier.kernel.KeyRange;
import org.gamecert.verifier.kernel.format.Payload;

/**
 * The engine's choices that the kernel checks, in one place: which blocks it hands over and in
 * which order, how it splits a block's entries over threads, the key ranges it holds and how it
 * answers lookups. NONE is what the engine does; the tests make each choice wrong on purpose
 * (FaultyEngineTest) to show that the kernel never verifies because of it.
 */
interface Faults {
    Faults NONE = new Faults() {};

    /** Pass 1: whether to keep back the handed-th block read (counted from 0). */
    default boolean skipBlock(long handed) {
        return false;
    }

    /**
     * Pass 2: the blocks of a layer, [first, end), in the order they are handed over; checked:
     * the layer being checked (else the layer below, read into the table).
     */
    default int[] blockOrder(int first, int end, boolean checked) {
        int[] order = new int[end - first];
        for (int i = 0; i < order.length; i++) order[i] = first + i;
        return order;
    }

    /** Pass 1: a block's entries as handed over to the kernel after decoding. */
    default void alterRead(Payload p) {}

    /** Pass 2: a block's entries as handed over to be checked. */
    default void alter(Payload p) {}

    /** A block's m entries split into parts ranges {from, to}, one per thread. */
    default int[][] ranges(int m, int parts) {
        int[][] ranges = new int[parts][];
        int chunk = (m + parts - 1) / parts;
        for (int t = 0; t < parts; t++) {
            int from = Math.min(m, t * chunk);
            ranges[t] = new int[] {from, Math.min(m, from + chunk)};
        }
        return ranges;
    }

    /** The checker that checks each of a block's parts ranges (one per thread). */
    default org.gamecert.verifier.kernel.EntryChecker[] checkers(org.gamecert.verifier.kernel.EntryChecker[] workers,
                                                                 int parts) {
        return java.util.Arrays.copyOf(workers, parts);
    }

    /** The key range of the layer below held in a segment. */
    default KeyRange range(KeyRange held) {
        return held;
    }

    /** The answers to the kernel's lookups in the held table. */
    default ChildLookup lookup(Layer table) {
        return (occ, mover, answer) -> {
            int i = table.find(occ, mover);
            if (i < 0) return false;
            answer.occ = table.occ(i);
            answer.mover = table.mover(i);
            answer.kind = table.kind(i);
            answer.lo = table.lo(i);
            answer.hi = table.hi(i);
            answer.index = i;
            return true;
        };
    }
}
