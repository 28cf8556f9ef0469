package org.gamecert.verifier.kernel;

/**
 * What an engine answers for the kernel (untrusted): the record with a given key in the range of
 * the layer below that the engine holds. The kernel computes every child and its canonical key
 * itself, asks only for keys inside the range, and checks that each answer carries exactly the
 * key it asked for and an index inside the range (EntryChecker.lookUp).
 */
public interface ChildLookup {
    /** An engine with no layer below: every key is absent. */
    ChildLookup NONE = (occ, mover, answer) -> false;

    /** Fills answer with the record of key (occ, mover); false: no such record ("absent"). */
    boolean find(long occ, long mover, Answer answer);

    /** One answer; reused, so that no lookup allocates. */
    final class Answer {
        public long occ, mover;
        public int kind, lo, hi;
        /** The record's index within the range (0 = the range's first entry). */
        public long index;
    }
}
