package org.gamecert.verifier.engine;

/**
 * What a check cost, as the engine measured it: its time and the memory of its own tables. No
 * part of the verdict (the kernel's Result carries that); reports print these beside it.
 */
public final class Figures {
    /** The check's wall time. */
    public long nanos;
    /** The engine's tables, counts and held slices at their peak, as estimated. */
    public long peakTableBytes;
    /** The layer tables' footprint per entry held. */
    public long bytesPerEntryHeld;
    /** Layers checked against the layer below in several segments (too big for --max-memory). */
    public int splitLayers;
    /** The most segments one of them needed. */
    public int maxSegments;
}
