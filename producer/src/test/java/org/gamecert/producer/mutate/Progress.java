package org.gamecert.producer.mutate;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Progress of an audit campaign (scripts/audit) on stderr, so that a run of half an hour or more is
 * never silent for long: a line when a mutation class is done, and one at least every 30 s (from a
 * thread of its own, so also while one mutant takes minutes), each with the mutants done so far,
 * the time taken and a rough estimate of the time left, followed by what has been busy for 30 s or
 * more (a mutant's verification, or the brute force that checks an accepted mutant's claims).
 */
final class Progress implements AutoCloseable {
    private static final long EVERY_NANOS = 30_000_000_000L;
    private record Task(String what, long since) {}

    private final String name;
    private final long total;
    private final PrintStream err;
    private final long t0 = System.nanoTime();
    private final Map<Thread, Task> busy = new ConcurrentHashMap<>();
    private final Thread heartbeat;
    private long done, lastLine = t0;

    /** name: each line's prefix ("audit", "peer-audit", ...); total: the mutants (seeds) to try. */
    Progress(String name, long total, PrintStream err) {
        this.name = name;
        this.total = Math.max(1, total);
        this.err = err;
        heartbeat = new Thread(this::beat, name + "-progress");
        heartbeat.setDaemon(true);
        heartbeat.start();
    }

    /** What the calling thread works on from now (null: nothing); shown once it takes 30 s. */
    void doing(String what) {
        if (what == null) busy.remove(Thread.currentThread());
        else busy.put(Thread.currentThread(), new Task(what, System.nanoTime()));
    }

    /** One more mutant (seed) done. */
    synchronized void step() {
        done++;
    }

    /** A mutation class is done; what: its name and counts. */
    synchronized void classDone(String what) {
        line(System.nanoTime(), what + "; ");
    }

    @Override
    public void close() {
        heartbeat.interrupt();
    }

    private void beat() {
        try {
            while (true) {
                Thread.sleep(1000);
                synchronized (this) {
                    long now = System.nanoTime();
                    if (now - lastLine < EVERY_NANOS) continue;
                    line(now, "");
                    for (Task t : busy.values())
                        if (now - t.since >= EVERY_NANOS)
                            err.printf(Locale.ROOT, "%s:   busy for %.0f s: %s%n", name, (now - t.since) / 1e9, t.what);
                }
            }
        } catch (InterruptedException stop) {
            // closed
        }
    }

    private void line(long now, String what) {
        lastLine = now;
        double secs = (now - t0) / 1e9;
        String left = done == 0 || done >= total ? ""
                : String.format(Locale.ROOT, ", about %.0f s left", secs * (total - done) / done);
        err.printf(Locale.ROOT, "%s: %s%d/%d mutants (%.0f %%), %.0f s%s%n", name, what, done, total,
                100.0 * done / total, secs, left);
    }
}
