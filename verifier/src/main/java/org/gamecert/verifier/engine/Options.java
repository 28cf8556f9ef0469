package org.gamecert.verifier.engine;

/** What the user asked for. */
public final class Options {
    /** Default bound on the memory the verifier's tables may use (bytes): 2 GiB. */
    public static final long DEFAULT_MAX_MEMORY = 2L << 30;

    public long maxMemory = DEFAULT_MAX_MEMORY;
    public int threads = 1;
    /** Reject unreached entries (R-REACH-1) instead of only reporting them. */
    public boolean strict;
    /** Keep going after entry-level violations and report them per rule. */
    public boolean all;
    /** At most this many violations are kept per rule with {@link #all} (all are counted). */
    public int maxViolationsPerRule = 10;
    /** At most this many entries in one layer table; a bigger layer is checked in segments (tests). */
    public long maxHeldEntries = Long.MAX_VALUE;
    /** Told about progress now and then; may be null. */
    public Progress progress;

    /** Progress callback (called from the checking thread). */
    public interface Progress {
        void update(long entriesChecked, int layersDone, long bytesRead, long fileSize, int pass);
    }
}
