package org.gamecert.producer.compose;

import org.gamecert.producer.cert.CertificateWriter;
import org.gamecert.producer.cert.Extractor;
import org.gamecert.producer.command.CommandSupport;
import org.gamecert.producer.game.Game;
import org.gamecert.producer.search.Oracle;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Makes the parts of a composite (SPEC §15): for each task of a split directory, a certificate
 * rooted at the open entry that proves the entry's claim, named by its commitment. Parts are
 * independent, so they run as parallel jobs; each part's bytes depend only on its task.
 */
@Command(exitCodeListHeading = org.gamecert.producer.command.CommandSupport.EXIT_HEADING, exitCodeList = {org.gamecert.producer.command.CommandSupport.EXIT_0, org.gamecert.producer.command.CommandSupport.EXIT_1, org.gamecert.producer.command.CommandSupport.EXIT_2},
        name = "solve-part", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Make the parts of a composite that 'solve --split-at' started: one certificate per task "
                + "(an open entry of the root part), proving that entry's claim from it, written to DIR as <commitment>.gsc.",
                "A task already done is skipped, so a killed run loses only the parts in flight: run the command again.",
                "Then 'compose DIR' writes the manifest."})
public final class SolvePartCommand implements Callable<Integer>, CommandSupport.Streams {
    @Parameters(index = "0", paramLabel = "DIR", description = "The directory written by solve --split-at.")
    Path dir;
    @Parameters(index = "1..*", paramLabel = "TASK", description = "Task numbers (the first column of DIR/tasks.tsv).")
    List<Integer> taskNumbers;
    @Option(names = "--parts", paramLabel = "all", description = "'all': every task not yet done.")
    String parts;
    @Option(names = "--jobs", defaultValue = "1", description = "Parts made at the same time, one thread each (default: ${DEFAULT-VALUE}). "
            + "Does not change any part.")
    int jobs;
    @Option(names = "--tt-mb", defaultValue = "256", description = "Transposition table in MiB, shared by the jobs (default: ${DEFAULT-VALUE}).")
    long ttMb;
    @Option(names = {"-q", "--quiet"}, description = "No progress on stderr.")
    boolean quiet;

    private PrintStream stdout = System.out, stderr = System.err;

    @Override public void streams(PrintStream out, PrintStream err) { stdout = out; stderr = err; }

    @Override public Integer call() throws Exception {
        if ((parts == null) == (taskNumbers == null || taskNumbers.isEmpty()))
            throw new CommandSupport.UserError("give either task numbers or --parts all");
        if (parts != null && !parts.equals("all")) throw new CommandSupport.UserError("--parts takes 'all'");
        if (jobs < 1 || jobs > 1024) throw new CommandSupport.UserError(CommandSupport.outOfRange("--jobs", "" + jobs));
        if (ttMb < 1 || ttMb > 65536) throw new CommandSupport.UserError(CommandSupport.outOfRange("--tt-mb", "" + ttMb));
        SplitDir sd;
        try { sd = SplitDir.read(dir); }
        catch (IOException | RuntimeException e) { throw new CommandSupport.UserError("cannot read the split in " + dir + ": " + e.getMessage()); }
        Game game = Game.parse(sd.gameName);
        List<SplitDir.Task> todo = new ArrayList<>();
        int skipped = 0;
        if (parts != null) {
            for (SplitDir.Task t : sd.tasks) if (sd.done(t) == null) todo.add(t); else skipped++;
        } else {
            for (int n : taskNumbers) {
                if (n < 1 || n > sd.tasks.size())
                    throw new CommandSupport.UserError("no task " + n + " (tasks 1.." + sd.tasks.size() + ")");
                SplitDir.Task t = sd.tasks.get(n - 1);
                if (sd.done(t) == null) todo.add(t); else skipped++;
            }
        }
        long t0 = System.nanoTime();
        Oracle oracle = new Oracle(game, ttMb);
        AtomicInteger finished = new AtomicInteger();
        AtomicLong entries = new AtomicLong(), bytes = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(jobs, r -> {
            Thread th = new Thread(r, "part");
            th.setDaemon(true);
            return th;
        });
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (SplitDir.Task t : todo)
                futures.add(pool.submit(() -> {
                    CertificateWriter.Written w = makePart(sd, game, oracle, t);
                    int k = finished.incrementAndGet();
                    entries.addAndGet(w.entries);
                    bytes.addAndGet(w.fileBytes);
                    if (!quiet) {
                        double s = (System.nanoTime() - t0) / 1e9;
                        stderr.printf(Locale.ROOT, "[%6.1fs] part %d/%d: task %d (%s), %d entries, %s; ETA %.0f s%n", s, k,
                                todo.size(), t.number, t.claim, w.entries, w.commitmentId, s / k * (todo.size() - k));
                    }
                    return null;
                }));
            for (Future<?> f : futures) {
                try { f.get(); }
                catch (ExecutionException e) {
                    Throwable c = e.getCause();
                    throw new CommandSupport.UserError("a part failed: " + c, CommandSupport.EXIT_FAILURE);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        stdout.printf(Locale.ROOT, "parts         %d made, %d already done, of %d tasks%n", todo.size(), skipped, sd.tasks.size());
        stdout.printf(Locale.ROOT, "entries       %d in the parts made, %d bytes%n", entries.get(), bytes.get());
        stdout.printf(Locale.ROOT, "search        %d nodes, %.2f s, %d jobs%n", oracle.nodes(), secs, jobs);
        stdout.println("next          scripts/produce compose " + dir);
        return CommandSupport.EXIT_OK;
    }

    /** One part: extracted in memory from the task's claim, written, renamed to its commitment, marked done. */
    static CertificateWriter.Written makePart(SplitDir sd, Game game, Oracle oracle, SplitDir.Task t) throws IOException {
        Extractor.Mode mode = t.claim.mode();
        Extractor ex = new Extractor(oracle, 1);
        Extractor.Result r;
        try {
            if (mode == Extractor.Mode.WEAK) ex.endgameLeaves(sd.leafEmpties);
            r = ex.run(t.mover, t.opponent, mode, t.claim);
        } finally {
            ex.shutdown();
        }
        int leaves = mode == Extractor.Mode.WEAK ? sd.leafEmpties : 0;
        String info = CertificateWriter.INFO_PRODUCER + "; " + game.name() + "; part " + (mode == Extractor.Mode.WEAK ? "weak" : "semi-strong");
        byte[] header = CertificateWriter.header(game, mode, leaves, t.mover, t.opponent, t.claim, t.claim.lo, info);
        Path tmp = sd.dir.resolve("task-" + t.number + ".gsc.partial");
        CertificateWriter.Written w = CertificateWriter.write(tmp, header, r.layers, r.region, r.aux, r.rootLayer);
        String hex = SplitDir.hexOf(w.commitmentId);
        Files.move(tmp, sd.certificate(hex), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        sd.markDone(t, hex, w.entries + " entries " + w.fileBytes + " bytes");
        return w;
    }
}
