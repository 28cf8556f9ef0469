package org.gamecert.verifier.cli;

import java.io.PrintStream;
import picocli.CommandLine;

/**
 * Runs a picocli command line the way every verifying entry point does (scripts/verify, and
 * scripts/spark-verify in the spark module): output to the given streams, a usage mistake or an
 * internal failure printed as one "error: …" line with the error exit code, never a stack trace.
 */
public final class CommandRunner {
    private CommandRunner() {}

    /** Executes {@code cl} on {@code args}; returns its exit code, or {@code errorCode}. Never throws. */
    public static int execute(CommandLine cl, String[] args, PrintStream out, PrintStream err, int errorCode) {
        cl.setOut(new java.io.PrintWriter(out, true));
        cl.setErr(new java.io.PrintWriter(err, true));
        cl.setParameterExceptionHandler((ex, a) -> {
            err.println("error: " + ex.getMessage() + " (see --help)");
            return errorCode;
        });
        cl.setExecutionExceptionHandler((ex, c, p) -> {
            err.println("error: internal error: " + ex);
            return errorCode;
        });
        try {
            return cl.execute(args);
        } catch (Throwable t) {
            err.println("error: internal error: " + t);
            return errorCode;
        }
    }
}
