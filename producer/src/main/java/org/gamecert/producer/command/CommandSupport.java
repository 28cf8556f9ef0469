package org.gamecert.producer.command;

import java.io.PrintStream;

/**
 * What the producer's subcommands share with its entry point: exit codes, the one-line user error,
 * and the streams a subcommand prints to. Its own package, so the dependencies go one way: the
 * entry point (cli) knows the subcommands, the subcommands know only this.
 */
public final class CommandSupport {
    public static final int EXIT_OK = 0;
    /** The certificate could not be produced or read (internal failure, corrupt input file). */
    public static final int EXIT_FAILURE = 1;
    /** Malformed request: bad option, unknown game, illegal move sequence, unwritable output. */
    public static final int EXIT_USAGE = 2;

    private CommandSupport() {}

    /** A one-line error for the user (no stack trace), with its exit code. */
    public static final class UserError extends RuntimeException {
        public final int exitCode;
        public UserError(String msg, int exitCode) { super(msg); this.exitCode = exitCode; }
        public UserError(String msg) { this(msg, EXIT_USAGE); }
    }

    /** Subcommands that print get the caller's streams. */
    public interface Streams { void streams(PrintStream out, PrintStream err); }
}
