package org.gamecert.producer.search;

/** A single-threaded exact searcher (fail-soft negamax/PVS) sharing a transposition table. */
public interface Solver {
    /**
     * Fail-soft alpha–beta value of a non-terminal position: a result r ≤ alpha means V ≤ r,
     * r ≥ beta means V ≥ r, anything between is exact.
     */
    int search(long mover, long opponent, int alpha, int beta);

    /** Nodes visited so far by this solver. */
    long nodes();
}
