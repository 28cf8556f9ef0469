package org.gamecert.spark.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.gamecert.verifier.kernel.TerminalCount;
import org.junit.jupiter.api.Test;

/**
 * The terminal keys' partitions, when none are asked for, grow with the certificate: one per
 * 2^20 entries, never fewer than Spark's parallelism nor more than the kernel takes. (With the
 * parallelism alone, two partitions in local[2], the whole 7×6 game's larger layers held millions
 * of distinct keys in each partition's TerminalCount, and a 2 GiB heap ran out.)
 */
class TerminalPartitionsGrowWithTheFileTest {
    @Test
    void onePartitionPerMillionEntriesAtLeastTheParallelism() {
        assertEquals(2, SparkSliced.defaultTerminalPartitions(1000, 2));
        assertEquals(2, SparkSliced.defaultTerminalPartitions(0, 2));
        assertEquals(1, SparkSliced.defaultTerminalPartitions(0, 0));
        assertEquals(8, SparkSliced.defaultTerminalPartitions(3L << 20, 8));
        assertEquals(3, SparkSliced.defaultTerminalPartitions(3L << 20, 2));
        assertEquals(4, SparkSliced.defaultTerminalPartitions((3L << 20) + 1, 2));
        // the whole 7x6 game in mode 5: 281,156,529 entries
        assertEquals(269, SparkSliced.defaultTerminalPartitions(281_156_529L, 2));
        assertEquals(TerminalCount.MAX_PARTITIONS, SparkSliced.defaultTerminalPartitions(Long.MAX_VALUE / 4, 2));
    }
}
