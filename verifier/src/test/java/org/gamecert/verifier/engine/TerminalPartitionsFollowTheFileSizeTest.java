package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The one-machine engine counts a layer's terminal keys in partitions whose number follows the
 * file's entries: few for a small file (each partition costs its sets and a sealed report a
 * layer), more for a large one (each partition's set stays small enough to be read from cache).
 */
class TerminalPartitionsFollowTheFileSizeTest {
    @Test
    void aSmallFileKeepsTheFewestPartitions() {
        assertEquals(SliceEngine.MIN_TERMINAL_PARTITIONS, SliceEngine.terminalPartitions(0));
        assertEquals(SliceEngine.MIN_TERMINAL_PARTITIONS, SliceEngine.terminalPartitions(1_000));
        assertEquals(SliceEngine.MIN_TERMINAL_PARTITIONS,
                SliceEngine.terminalPartitions(64L << 20));
    }

    @Test
    void aLargerFileGetsOnePartitionPerMillionEntriesUpToTheMost() {
        assertEquals(171, SliceEngine.terminalPartitions(180_123_210)); // 7x6 after "44"
        assertEquals(SliceEngine.MAX_TERMINAL_PARTITIONS,
                SliceEngine.terminalPartitions(876_185_782)); // the whole 7x6 game
        assertEquals(SliceEngine.MAX_TERMINAL_PARTITIONS,
                SliceEngine.terminalPartitions(Long.MAX_VALUE));
    }
}
