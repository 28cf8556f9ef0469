package org.gamecert.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * What the Spark jobs of a run cost, summed over their tasks (for scripts/bench-spark): tasks,
 * executor run and CPU time, bytes of task results sent to the driver, shuffle bytes written and
 * read, peak execution memory; and the driver JVM's peak resident set (VmHWM; in local mode the
 * executors run in it). Printed on stderr with --metrics.
 */
public final class SparkMetrics extends SparkListener {
    private long tasks, runMs, cpuNs, resultBytes, shuffleWrite, shuffleRead, peakExecMem, gcMs, inputBytes;

    public static SparkMetrics attach(JavaSparkContext sc) {
        SparkMetrics m = new SparkMetrics();
        sc.sc().addSparkListener(m);
        return m;
    }

    @Override
    public synchronized void onTaskEnd(SparkListenerTaskEnd end) {
        TaskMetrics t = end.taskMetrics();
        tasks++;
        if (t == null) return;
        runMs += t.executorRunTime();
        cpuNs += t.executorCpuTime();
        resultBytes += t.resultSize();
        gcMs += t.jvmGCTime();
        shuffleWrite += t.shuffleWriteMetrics().bytesWritten();
        shuffleRead += t.shuffleReadMetrics().totalBytesRead();
        inputBytes += t.inputMetrics().bytesRead();
        peakExecMem = Math.max(peakExecMem, t.peakExecutionMemory());
    }

    /** One line, after the jobs' events were delivered (waits for the listener bus to drain). */
    public String line(JavaSparkContext sc) {
        try {
            sc.sc().listenerBus().waitUntilEmpty(10_000);
        } catch (java.util.concurrent.TimeoutException | RuntimeException e) {
            // the figures may then miss the last tasks' events
        }
        synchronized (this) {
            return String.format(Locale.ROOT, "spark metrics: %d tasks, executor run %.2f s, executor cpu %.2f s, gc %.2f s,"
                    + " task results %,d bytes, shuffle write %,d bytes, shuffle read %,d bytes, peak execution memory %,d bytes,"
                    + " driver JVM peak RSS %,d MiB", tasks, runMs / 1e3, cpuNs / 1e9, gcMs / 1e3, resultBytes, shuffleWrite,
                    shuffleRead, peakExecMem, peakRssKib() >> 10);
        }
    }

    /** VmHWM of this process in KiB (0 when /proc is not there). */
    static long peakRssKib() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status")))
                if (l.startsWith("VmHWM:")) return Long.parseLong(l.replaceAll("[^0-9]", ""));
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }
}
