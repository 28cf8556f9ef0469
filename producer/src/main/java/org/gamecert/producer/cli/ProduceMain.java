package org.gamecert.producer.cli;

import org.gamecert.producer.command.CommandSupport;
import org.gamecert.producer.command.CommandSupport.Streams;
import org.gamecert.producer.command.CommandSupport.UserError;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintStream;
import java.io.PrintWriter;

/**
 * Entry point of the producer: `solve` writes a certificate, `query` answers from one. Further
 * subcommands (mutate, export, release, keygen) are added as classes in {@link #commandLine}.
 */
@Command(exitCodeListHeading = org.gamecert.producer.command.CommandSupport.EXIT_HEADING, exitCodeList = {org.gamecert.producer.command.CommandSupport.EXIT_0, org.gamecert.producer.command.CommandSupport.EXIT_1, org.gamecert.producer.command.CommandSupport.EXIT_2, org.gamecert.producer.command.CommandSupport.EXIT_3},
        name = "produce", mixinStandardHelpOptions = true, versionProvider = ProduceMain.Version.class,
        description = "Solve a game position with reopening alpha-beta and write a gamecert certificate (SPEC v1), or query one.")
public final class ProduceMain implements Runnable {
    /**
     * The subcommands, in the order --help lists them. Added by {@link #commandLine(PrintStream,
     * PrintStream, boolean, String[])}: only the one named first when it is named first (picocli's
     * reflective model of all eight cost about 0.1-0.2 CPU-s at every start, issue #42), else all.
     */
    private static final java.util.Map<String, java.util.function.Supplier<Object>> SUBCOMMANDS = new java.util.LinkedHashMap<>();
    static {
        SUBCOMMANDS.put("solve", SolveCommand::new);
        SUBCOMMANDS.put("query", QueryCommand::new);
        SUBCOMMANDS.put("release", org.gamecert.producer.release.ReleaseCommand::new);
        SUBCOMMANDS.put("keygen", org.gamecert.producer.release.KeygenCommand::new);
        SUBCOMMANDS.put("mutate", org.gamecert.producer.mutate.MutateCommand::new);
        SUBCOMMANDS.put("export", org.gamecert.producer.export.ExportCommand::new);
        SUBCOMMANDS.put("solve-part", org.gamecert.producer.compose.SolvePartCommand::new);
        SUBCOMMANDS.put("compose", org.gamecert.producer.compose.ComposeCommand::new);
    }

    public static final int EXIT_OK = CommandSupport.EXIT_OK;
    public static final int EXIT_FAILURE = CommandSupport.EXIT_FAILURE;
    public static final int EXIT_USAGE = CommandSupport.EXIT_USAGE;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    /** --version: "gamecert producer 0.6.0 (commit 29b3…, clean)"; the commit is the one the jar was built from. */
    public static String versionLine() {
        return "gamecert producer " + org.gamecert.verifier.cli.BuildInfo.load(org.gamecert.producer.release.Release.PRODUCER_BUILD_INFO).describe();
    }

    public static final class Version implements CommandLine.IVersionProvider {
        @Override public String[] getVersion() { return new String[] {versionLine()}; }
    }

    @Override public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand: one of "
                + String.join(", ", spec.commandLine().getSubcommands().keySet()));
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static CommandLine commandLine(PrintStream out, PrintStream err) {
        return commandLine(out, err, false, new String[0]);
    }

    /**
     * With json (query --json), an error is also one JSON object on stdout: {"error":"...","exit_code":N}.
     * When args[0] names a subcommand only that one is modelled; otherwise (help, version, a typo,
     * nothing) all of them, so every message that lists them is as before.
     */
    static CommandLine commandLine(PrintStream out, PrintStream err, boolean json, String[] args) {
        CommandLine cl = new CommandLine(new ProduceMain());
        if (args.length > 0 && SUBCOMMANDS.containsKey(args[0])) cl.addSubcommand(args[0], SUBCOMMANDS.get(args[0]).get());
        else for (java.util.Map.Entry<String, java.util.function.Supplier<Object>> e : SUBCOMMANDS.entrySet()) cl.addSubcommand(e.getKey(), e.getValue().get());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        cl.setExitCodeExceptionMapper(new ExitOnFailure());
        CommandSupport.registerNumberConverters(cl);
        cl.setParameterExceptionHandler(new UsageErrors(out, json));
        cl.setExecutionExceptionHandler(new Failures(out, json));
        return cl;
    }

    // The handlers below are classes, not lambdas: a lambda that implements a picocli interface
    // cannot be kept in the class-data-sharing archive (picocli's classes are Java 5 class files)
    // and would be generated at every start, with the method-handle machinery that takes (issue #42).

    private static final class ExitOnFailure implements CommandLine.IExitCodeExceptionMapper {
        @Override public int getExitCode(Throwable t) { return EXIT_FAILURE; }
    }

    private static final class UsageErrors implements CommandLine.IParameterExceptionHandler {
        private final PrintStream out;
        private final boolean json;

        UsageErrors(PrintStream out, boolean json) { this.out = out; this.json = json; }

        @Override public int handleParseException(CommandLine.ParameterException ex, String[] a) {
            ex.getCommandLine().getErr().println("error: " + CommandSupport.numberMessage(ex));
            ex.getCommandLine().getErr().println("(see --help)");
            if (json) jsonError(out, CommandSupport.numberMessage(ex), EXIT_USAGE);
            return EXIT_USAGE;
        }
    }

    private static final class Failures implements CommandLine.IExecutionExceptionHandler {
        private final PrintStream out;
        private final boolean json;

        Failures(PrintStream out, boolean json) { this.out = out; this.json = json; }

        @Override public int handleExecutionException(Exception ex, CommandLine c, CommandLine.ParseResult r) {
            if (ex instanceof UserError) {
                c.getErr().println("error: " + ex.getMessage());
                if (json) jsonError(out, ex.getMessage(), ((UserError) ex).exitCode);
                return ((UserError) ex).exitCode;
            }
            c.getErr().println("error: internal failure: " + ex);
            if (json) jsonError(out, "internal failure: " + ex, EXIT_FAILURE);
            return EXIT_FAILURE;
        }
    }

    private static void jsonError(PrintStream out, String message, int exitCode) {
        StringBuilder b = new StringBuilder("{\"error\":\"");
        for (char c : message.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
            else b.append(c);
        }
        out.println(b.append("\",\"exit_code\":").append(exitCode).append('}'));
        out.flush();
    }

    /** Testable entry point: parses, runs, and returns the exit code; never throws. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        boolean json = false;
        for (String a : args) {
            if (a.equals("--")) break;
            if (a.equals("--json")) { json = true; break; }
        }
        CommandLine cl = commandLine(out, err, json, args);
        for (CommandLine sc : cl.getSubcommands().values()) {
            Object o = sc.getCommand();
            if (o instanceof Streams) ((Streams) o).streams(out, err);
        }
        int rc = cl.execute(args);
        out.flush();
        err.flush();
        return rc;
    }
}
