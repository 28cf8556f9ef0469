package org.gamecert.spark.produce;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.gamecert.producer.cli.ProduceMain;
import org.gamecert.producer.compose.SplitDir;
import scala.Tuple2;

/**
 * Production on Spark: a compositional certificate's independent units of work as Spark tasks.
 * The driver runs `produce solve --split-at DISCS --out DIR` (the root part and DIR/tasks.tsv),
 * then every task not yet done runs `produce solve-part DIR TASK` in an executor, which writes the
 * part as DIR/&lt;commitment&gt;.gsc and DIR/done/TASK (DIR: a path every executor shares), then the
 * driver runs `produce compose DIR` (the manifest) after checking that each task's part is in
 * place. A part's bytes depend only on its task, so the composite id is the plain producer's
 * whatever the number of executors, partitions or retries.
 */
public final class SparkProducer {
    private SparkProducer() {}

    /** What was made: the composite id, the tasks run here and those already done. */
    public record Made(String compositeId, int tasks, int ran, int skipped, String composeOutput) {}

    /**
     * solveArgs: the arguments of `produce solve` (with --split-at and --out DIR); partitions: Spark
     * partitions for the tasks (0: four per core; each runs solve-part once for its tasks); ttMb: each partition's transposition table.
     */
    public static Made produce(JavaSparkContext sc, List<String> solveArgs, Path dir, int partitions, long ttMb, PrintStream log)
            throws IOException {
        if (!Files.isRegularFile(dir.resolve(SplitDir.TASKS))) { // else: resume the tasks not yet done
            List<String> a = new ArrayList<>();
            a.add("solve");
            a.addAll(solveArgs);
            ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
            int rc = ProduceMain.run(a.toArray(new String[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            if (log != null) log.print(out.toString(StandardCharsets.UTF_8));
            if (rc != 0) throw new IOException("produce solve failed (exit " + rc + "): " + err.toString(StandardCharsets.UTF_8).trim());
        }
        SplitDir sd = SplitDir.read(dir);
        List<Integer> todo = new ArrayList<>();
        for (SplitDir.Task t : sd.tasks) if (sd.done(t) == null) todo.add(t.number);
        String abs = dir.toAbsolutePath().toString();
        if (!todo.isEmpty()) {
            // a partition runs solve-part once for its tasks: one transposition table per partition
            int slices = Math.min(todo.size(), partitions > 0 ? partitions : 4 * Math.max(1, sc.defaultParallelism()));
            if (log != null) log.printf("spark         %d tasks of %d to make, in %d partitions%n", todo.size(), sd.tasks.size(), slices);
            List<Tuple2<Integer, String>> made = sc.parallelize(todo, slices)
                    .mapPartitions(it -> {
                        List<Integer> mine = new ArrayList<>();
                        it.forEachRemaining(mine::add);
                        return new PartJob(abs, mine, ttMb).run().iterator();
                    }).collect();
            for (Tuple2<Integer, String> m : made)
                if (m._2() == null) throw new IOException("task " + m._1() + ": no part in place after its Spark task");
        }
        SplitDir again = SplitDir.read(dir);
        for (SplitDir.Task t : again.tasks)
            if (again.done(t) == null) throw new IOException("task " + t.number + " has no part after the Spark job");
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = ProduceMain.run(new String[] {"compose", abs}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        if (rc != 0) throw new IOException("produce compose failed (exit " + rc + "): " + err.toString(StandardCharsets.UTF_8).trim());
        String id = null;
        for (String line : text.split("\n")) if (line.startsWith("composite ")) id = line.substring("composite ".length()).trim();
        return new Made(id, sd.tasks.size(), todo.size(), sd.tasks.size() - todo.size(), text);
    }

    /**
     * One Spark task: `produce solve-part DIR TASK...` in the executor for the tasks of its
     * partition (one search table for them, as solve-part --jobs 1); each part's commitment (64
     * hex) back.
     */
    static final class PartJob implements Serializable {
        private static final long serialVersionUID = 1L;
        final String dir;
        final List<Integer> tasks;
        final long ttMb;

        PartJob(String dir, List<Integer> tasks, long ttMb) {
            this.dir = dir;
            this.tasks = tasks;
            this.ttMb = ttMb;
        }

        List<Tuple2<Integer, String>> run() throws IOException {
            List<Tuple2<Integer, String>> done = new ArrayList<>();
            if (tasks.isEmpty()) return done;
            List<String> a = new ArrayList<>(List.of("solve-part", dir));
            for (int t : tasks) a.add(Integer.toString(t));
            a.addAll(List.of("--tt-mb", Long.toString(ttMb), "-q"));
            ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
            int rc = ProduceMain.run(a.toArray(new String[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            if (rc != 0)
                throw new IOException("solve-part " + dir + " " + tasks + " failed (exit " + rc + "): " + err.toString(StandardCharsets.UTF_8).trim());
            SplitDir sd = SplitDir.read(Path.of(dir));
            for (int t : tasks) done.add(new Tuple2<>(t, sd.done(sd.tasks.get(t - 1))));
            return done;
        }
    }
}
