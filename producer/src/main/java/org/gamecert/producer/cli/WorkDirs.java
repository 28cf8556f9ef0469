package org.gamecert.producer.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The hidden working directories ({@code .gamecert-solve-NNN}) of solves run without --state. Each
 * run holds an OS lock on the file {@code lock} in its directory for as long as it lives; the lock
 * goes with the process, however it ends (kill -9, a crash, a reboot). So a directory whose lock
 * can be taken was left by a run that is gone: the next solve that uses the same place removes it,
 * and says so. A directory in use by a running solve (in this JVM or another) is never touched; one
 * without a lock file (left by a version before this one) is named, not removed.
 */
final class WorkDirs {
    static final String PREFIX = ".gamecert-solve-", LOCK = "lock";

    private WorkDirs() {}

    /** A working directory and the lock that marks it in use; close() releases the lock. */
    record Locked(Path dir, FileChannel channel, FileLock lock) implements AutoCloseable {
        @Override public void close() throws IOException {
            try { lock.release(); } finally { channel.close(); Files.deleteIfExists(dir.resolve(LOCK)); }
        }
    }

    /**
     * Removes the stale working directories in base (a note on notes for each, unless null), then
     * makes a new one and locks it.
     */
    static Locked create(Path base, PrintStream notes) throws IOException {
        removeStale(base, notes);
        Path dir = Files.createTempDirectory(base, PREFIX);
        FileChannel ch = FileChannel.open(dir.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        if (lock == null) { // cannot happen for a file this run just made; refuse rather than share
            ch.close();
            throw new IOException("cannot lock " + dir.resolve(LOCK));
        }
        return new Locked(dir, ch, lock);
    }

    /** Removes the working directories in base whose run is gone; returns how many. */
    static int removeStale(Path base, PrintStream notes) {
        int removed = 0;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(base, PREFIX + "*")) {
            for (Path d : ds) {
                if (!Files.isDirectory(d, java.nio.file.LinkOption.NOFOLLOW_LINKS)) continue;
                Path lockFile = d.resolve(LOCK);
                if (!Files.isRegularFile(lockFile)) {
                    if (notes != null)
                        notes.println("note: " + d + " looks left behind by a solve that was killed (made by an earlier version:"
                                + " it has no lock file); remove it if no solve is running there");
                    continue;
                }
                // A lock file seconds old may belong to a solve that made it and is about to lock it.
                if (ageSeconds(lockFile) < FRESH_SECONDS || !ownerGone(lockFile)) continue;
                long bytes = deleteTree(d);
                removed++;
                if (notes != null)
                    notes.printf(java.util.Locale.ROOT, "note: removed %s (%s), the working directory of a solve that was killed%n",
                            d, Units.bytes(bytes));
            }
        } catch (IOException e) {
            if (notes != null) notes.println("note: could not look for stale working directories in " + base + ": " + e.getMessage());
        }
        return removed;
    }

    /** A lock file younger than this is left alone, even unlocked (its solve may be starting). */
    static final long FRESH_SECONDS = 60;

    private static long ageSeconds(Path f) {
        try {
            return (System.currentTimeMillis() - Files.getLastModifiedTime(f).toMillis()) / 1000;
        } catch (IOException e) {
            return 0;
        }
    }

    /** True when no live process holds the lock on this file. */
    private static boolean ownerGone(Path lockFile) {
        try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
            FileLock l = ch.tryLock();
            if (l == null) return false; // another process holds it
            l.release();
            return true;
        } catch (OverlappingFileLockException e) {
            return false; // a solve in this JVM holds it
        } catch (IOException e) {
            return false; // cannot tell: leave it
        }
    }

    /** Deletes a directory tree; returns the bytes of the files it held. */
    private static long deleteTree(Path root) throws IOException {
        long[] bytes = {0};
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
                bytes[0] += a.size();
                Files.delete(f);
                return FileVisitResult.CONTINUE;
            }

            @Override public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                Files.delete(d);
                return FileVisitResult.CONTINUE;
            }
        });
        return bytes[0];
    }
}
