package org.gamecert.producer.search;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A proof log within a memory budget ({@link ProofLog#ProofLog(Path, long)}): the pages beyond it
 * go to its file, and every long reads back as written, in increasing order (the window moving
 * forward), backwards and at random; the file goes with {@link ProofLog#close}.
 */
class ProofLogSpillTest {
    @Test void readsBackWhatWasWrittenWhereverItIs(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("log.bin");
        ProofLog mem = new ProofLog();
        ProofLog log = new ProofLog(file, 40 << 10); // pages of 1024 longs, 5 held
        SplittableRandom rnd = new SplittableRandom(7);
        int records = appendAlike(mem, log, 300_000, rnd, 0);
        assertEquals(mem.size(), log.size());
        assertTrue(log.spilledLongs() > 250_000 && log.spilledLongs() % 1024 == 0, "spilled " + log.spilledLongs());
        assertEquals(log.spilledFileBytes(), Files.size(file));
        for (long i = 0; i < log.size(); i++) assertEquals(mem.get(i), log.get(i), "long " + i);
        long forward = log.fileReads();
        assertEquals(log.spilledLongs() / 1024, forward, "a forward read costs a read a frame (a page of 1024 longs here)");
        for (long i = log.size() - 1; i >= 0; i -= 977) assertEquals(mem.get(i), log.get(i), "long " + i);
        for (int k = 0; k < 10_000; k++) {
            long i = rnd.nextLong(log.size());
            assertEquals(mem.get(i), log.get(i), "long " + i);
        }
        log.close();
        assertFalse(Files.exists(file), "closed, the file is gone");
        assertTrue(records > 1000);
    }

    @Test void aPersistedLogOpensWithTheSameLongsAndABadTrailerIsRefused(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("log.bin");
        ProofLog mem = new ProofLog();
        ProofLog spilled = new ProofLog(file, 40 << 10); // pages of 1024 longs, 5 held
        appendAlike(mem, spilled, 100_000, new SplittableRandom(11), 1 << 20); // small handles, as a real log's
        assertEquals(mem.size(), spilled.size());
        assertTrue(spilled.spilledLongs() > 0);
        assertTrue(spilled.spilledFileBytes() < 8 * spilled.spilledLongs() * 3 / 4, "frames of small handles compress: "
                + spilled.spilledFileBytes() + " bytes for " + spilled.spilledLongs() + " longs");
        spilled.persist();
        long longs = spilled.size();
        spilled.close(false);
        ProofLog opened = ProofLog.open(file, longs);
        for (long i = 0; i < longs; i++) assertEquals(mem.get(i), opened.get(i), "long " + i);
        opened.close(false);
        assertThrows(java.io.IOException.class, () -> ProofLog.open(file, longs + 1024 * 1024), "more longs than its frames hold");
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - 24] ^= 1; // the frame count
        Files.write(file, bytes);
        assertThrows(java.io.IOException.class, () -> ProofLog.open(file, longs));
        bytes[bytes.length - 24] ^= 1;
        bytes[bytes.length - 1] ^= 1; // the magic
        Files.write(file, bytes);
        assertThrows(java.io.IOException.class, () -> ProofLog.open(file, longs));
        bytes[bytes.length - 1] ^= 1;
        java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(bytes.length - 24, 1L << 28);
        Files.write(file, bytes);
        assertThrows(java.io.IOException.class, () -> ProofLog.open(file, longs), "a frame count the longs cannot have");
    }

    @Test void aLogWhoseLastPageLeftMemoryWholePersistsAndOpens(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("log.bin");
        ProofLog mem = new ProofLog(), log = new ProofLog(file, 40 << 10);
        long[] c = {5, 6, 7};
        for (int i = 0; i < 20_000; i++) {
            mem.append(i, ~i, ProofLog.LOW, i % 64, 0, 20, c, 3, 0);
            log.append(i, ~i, ProofLog.LOW, i % 64, 0, 20, c, 3, 0);
        }
        log.holdAtMost(0); // every page to the file, the last one (part empty) whole
        assertTrue(log.spilledLongs() > log.size());
        log.persist();
        long longs = log.size();
        log.close(false);
        ProofLog opened = ProofLog.open(file, longs);
        for (long i = 0; i < longs; i++) assertEquals(mem.get(i), opened.get(i), "long " + i);
        opened.close();
        assertFalse(Files.exists(file));
    }

    /**
     * Appends the same random records to both logs until b holds at least {@code longs} longs,
     * checking that they get the same handles; child words and leaf-cut words below
     * {@code wordBound} when it is positive (compressible, as a real log's handles), else any.
     * Returns how many records.
     */
    private static int appendAlike(ProofLog a, ProofLog b, long longs, SplittableRandom rnd, long wordBound) {
        long[] children = new long[40];
        int records = 0;
        while (b.size() < longs) {
            int n = rnd.nextInt(1, 34);
            for (int i = 0; i < n; i++) children[i] = wordBound > 0 ? rnd.nextLong(wordBound) : rnd.nextLong();
            long m = rnd.nextLong(), o = rnd.nextLong();
            long cuts = rnd.nextInt(3) != 0 ? 0 : (wordBound > 0 ? rnd.nextLong(wordBound) : rnd.nextLong()) | 1;
            int v = rnd.nextInt(-64, 65), e = rnd.nextInt(8, 60);
            assertEquals(a.append(m, o, ProofLog.LOW, v, 0, e, children, n, cuts), b.append(m, o, ProofLog.LOW, v, 0, e, children, n, cuts));
            records++;
        }
        return records;
    }

    @Test void aLogWithinItsBudgetMakesNoFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("log.bin");
        try (ProofLog log = new ProofLog(file, 1 << 20)) {
            long[] c = {1, 2, 3};
            for (int i = 0; i < 1000; i++) log.append(i, ~i, ProofLog.HIGH, 3, 5, 20, c, 1, 0);
            assertEquals(0, log.spilledLongs());
            assertFalse(Files.exists(file));
            long last = 1 + 999 * 2; // a record of one child: its header and its child word
            assertEquals(ProofLog.HIGH, ProofLog.kind(log.get(last)));
            assertEquals(20, ProofLog.empties(log.get(last)));
            assertEquals(1, log.get(last + 1));
            assertEquals(last + 2, log.size());
        }
    }
}
