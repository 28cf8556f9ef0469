package org.gamecert.verifier.kernel;

/**
 * A key range of a layer that an engine holds at one time, and where its entries start in the
 * layer: keys after (afterOcc, afterMover) unless first, up to (upOcc, upMover) unless last; the
 * layer's entries base .. base + size - 1. The kernel checks that the ranges an engine gives for
 * one layer tile it (LayerCheck.pass).
 */
public record KeyRange(boolean first, boolean last, long afterOcc, long afterMover,
        long upOcc, long upMover, long base, long size) {

    /** All of a layer of size entries. */
    public static KeyRange whole(long size) {
        return new KeyRange(true, true, 0, 0, 0, 0, 0, size);
    }

    public boolean contains(long occ, long mover) {
        boolean afterStart = first || after(occ, mover, afterOcc, afterMover);
        return afterStart && (last || !after(occ, mover, upOcc, upMover));
    }

    /** Key (occ, mover) comes strictly after key (o, m): unsigned occ, then unsigned mover. */
    public static boolean after(long occ, long mover, long o, long m) {
        return occ == o ? Long.compareUnsigned(mover, m) > 0 : Long.compareUnsigned(occ, o) > 0;
    }
}
