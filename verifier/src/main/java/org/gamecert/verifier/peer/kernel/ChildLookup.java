package org.gamecert.verifier.peer.kernel;

/**
 * What an engine answers for the peer kernel (untrusted): the record with a given order key in the
 * range of table n+1 that the engine holds (ChildRange). The kernel computes every child and its
 * canonical key itself, asks only for keys inside the range, and checks that each answer carries
 * exactly the key it asked for and an index inside the range (RecordChecker.lookUp). The engine
 * may be asked from several threads at once, each with its own Answer.
 */
public interface ChildLookup {
    /** Fills answer with the record of key; false: no such record ("absent"). */
    boolean find(long key, Answer answer);

    /** One answer; reused, so that no lookup allocates. */
    final class Answer {
        public long key;
        /** What a parent needs of the child: RecordRules.childInfo of its kind and bounds. */
        public int info;
        /** The record's index within the range (0 = the range's first record). */
        public long index;
    }
}
