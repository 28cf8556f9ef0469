package org.gamecert.verifier.peer;

import java.io.PrintStream;
import java.nio.file.Path;

/** What to verify and with which resources. */
public final class PeerOptions {
    /** Tables: a directory, a .csv, a .tar, a .tar.zst, or one part of a split .tar.zst. */
    public Path input;
    /** A root position (board text, see {@link PeerCodec#parsePosition}); null: the initial position or the lowest table's records. */
    public String root;
    /** Heap budget for a child key range and its index, in bytes; ≤ 0: 60 % of the JVM's max heap. */
    public long maxMemory;
    /** Caps a child range at this many records (tests and benchmarks force several passes); ≤ 0: from maxMemory. */
    public long rangeRecords;
    /** Temporary files (per-parent state between passes, spooled tables of a streamed archive). */
    public Path tmp;
    /** Directory recording tables already verified, so that a restart skips them; null: none. */
    public Path state;
    /** Worker threads; ≤ 0: the available processors. */
    public int threads;
    /** Progress lines (stderr); null: quiet. */
    public PrintStream progress;
    /** Check SHA256SUMS when present next to the input. */
    public boolean checkSums = true;

    /**
     * Another engine that checks the tables (the Spark module), each table n against n+1 with a
     * kernel of its own (PeerVerifier.checkSlice: slices of a table, each its own task); null: this JVM's threads. Not with --state.
     */
    public PeerVerifier.SliceRunner runner;

    /**
     * Records of table n per slice when a runner checks the tables in slices (each a task); ≤ 0:
     * all the records over the tasks the runner runs at once, but at most half the biggest table
     * and at least 1 M (a streamed archive: 4 M, as it is spooled before its sizes are known).
     */
    public long sliceRecords;

    /**
     * Bytes per record of a child range: the engine's lookup entry (8) and the kernel's record of
     * what it admitted (8, ChildTable.fact), against which every answer is checked.
     */
    public static final long BYTES_PER_CHILD = 16;

    /** The heap budget in bytes: --max-memory, never above 85 % of -Xmx (beyond it: OutOfMemoryError); default 60 %. */
    long budgetBytes() {
        long heap = Runtime.getRuntime().maxMemory();
        return maxMemory > 0 ? Math.min(maxMemory, (long) (heap * 0.85)) : (long) (heap * 0.6);
    }

    /** Records a child range may hold under the budget (16 bytes each, after the index and buffers). */
    long effectiveRangeRecords() {
        long budget = budgetBytes();
        long reserve = 243L * 243 * 243 * 4 + 64L * 1024 * 1024; // 3-byte bucket index + chunks in flight
        long r = Math.max(1L << 16, (budget - reserve) / BYTES_PER_CHILD);
        if (rangeRecords > 0) r = Math.min(r, rangeRecords);
        return r;
    }

    /** True when --max-memory asks for more than the JVM's heap allows (the budget was lowered). */
    boolean memoryClamped() {
        return maxMemory > 0 && maxMemory > (long) (Runtime.getRuntime().maxMemory() * 0.85);
    }

    int effectiveThreads() {
        return threads > 0 ? threads : Math.max(1, Runtime.getRuntime().availableProcessors());
    }
}
