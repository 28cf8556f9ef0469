package org.gamecert.spark;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.spark.api.java.JavaSparkContext;
import org.gamecert.spark.produce.SparkProducer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** spark-produce: a compositional certificate, its parts made as Spark tasks. */
@Command(name = "produce", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Produces a compositional certificate (SPEC §15) with its parts as Spark tasks: the driver runs"
                + " `produce solve --split-at DISCS --out DIR`, each task runs `produce solve-part DIR TASK` in an executor,"
                + " the driver runs `produce compose DIR`. DIR must be a path every executor shares. Rerun to resume:"
                + " tasks already done are skipped. The composite id is the plain producer's, whatever the executors.",
            "Exit codes: 0 made; 1 a task or step failed; 2 bad usage."})
public final class ProduceCommand implements Callable<Integer>, SparkMain.Streams {
    @Option(names = "--game", required = true, description = "As produce solve: othello:6x6, connect4:7x6, ...")
    String game;
    @Option(names = "--moves", description = "Root as a move sequence (as produce solve).")
    String moves;
    @Option(names = "--board", description = "Root as board text (as produce solve).")
    String board;
    @Option(names = "--mode", defaultValue = "semi-strong", description = "semi-strong (default) or weak.")
    String mode;
    @Option(names = "--leaf-empties", paramLabel = "L", defaultValue = "0", description = "Weak mode only (as produce solve).")
    int leafEmpties;
    @Option(names = "--split-at", required = true, paramLabel = "DISCS", description = "Where the root part stops; one task per open entry.")
    int splitAt;
    @Option(names = "--out", required = true, paramLabel = "DIR", description = "The composite's directory (shared by the executors).")
    Path out;
    @Option(names = "--tt-mb", defaultValue = "256", description = "Transposition table per partition and for the root part, MiB (default: ${DEFAULT-VALUE}).")
    long ttMb;
    @Option(names = "--master", paramLabel = "URL", description = "Spark master (default local[*], or spark-submit's).")
    String master;
    @Option(names = "--partitions", paramLabel = "N", description = "Spark partitions for the tasks, each one solve-part run with one search table (default: 4 per core, at most one per task).")
    int partitions;

    @Option(names = "--metrics", description = "Print the Spark jobs' costs on stderr.")
    boolean metrics;

    private PrintStream stdout = System.out, stderr = System.err;

    @Override
    public void streams(PrintStream out, PrintStream err) {
        stdout = out;
        stderr = err;
    }

    @Override
    public Integer call() {
        List<String> a = new ArrayList<>(List.of("--game", game, "--mode", mode, "--leaf-empties", Integer.toString(leafEmpties),
                "--split-at", Integer.toString(splitAt), "--out", out.toString(), "--tt-mb", Long.toString(ttMb)));
        if (moves != null) a.addAll(List.of("--moves", moves));
        if (board != null) a.addAll(List.of("--board", board));
        if (partitions < 0) {
            stderr.println("error: --partitions must be at least 1");
            return SparkMain.ERROR;
        }
        try (JavaSparkContext sc = SparkSessions.open(master, "gamecert produce " + game)) {
            long t0 = System.nanoTime();
            SparkMetrics metric = metrics ? SparkMetrics.attach(sc) : null;
            SparkProducer.Made m = SparkProducer.produce(sc, a, out, partitions, ttMb, stdout);
            stdout.print(m.composeOutput());
            stdout.printf(java.util.Locale.ROOT, "spark         %d tasks: %d made as Spark tasks, %d already done; %.2f s%n", m.tasks(),
                    m.ran(), m.skipped(), (System.nanoTime() - t0) / 1e9);
            if (metric != null) stderr.println(metric.line(sc));
            return 0;
        } catch (Exception e) {
            stderr.println("error: " + e.getMessage());
            return 1;
        }
    }
}
