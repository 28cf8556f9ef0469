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
    /** solve --game loa:NxN: no proof within --time-limit or the rank bound (no certificate written). */
    public static final int EXIT_NOT_SOLVED = 3;

    /** The exit codes every subcommand's --help lists (docs/producing.md has the same table). */
    public static final String EXIT_HEADING = "%nExit codes:%n",
            EXIT_0 = "0:done (the certificate, bundle, export, key pair or answer was written)",
            EXIT_1 = "1:failed on a valid request: an input certificate is corrupt (query names the broken rule as scripts/verify does), "
                    + "a certificate to release does not verify, a mutation class does not apply, a disk or internal failure",
            EXIT_2 = "2:bad request: an unknown option or value, a number out of range, an input that does not exist or is not a "
                    + "certificate, an output that exists (solve: --force) or cannot be written",
            EXIT_3 = "3:solve --game loa:NxN only: not solved within --time-limit or the rank bound (no certificate)";

    private CommandSupport() {}

    /** A one-line error for the user (no stack trace), with its exit code. */
    public static final class UserError extends RuntimeException {
        public final int exitCode;
        public UserError(String msg, int exitCode) { super(msg); this.exitCode = exitCode; }
        public UserError(String msg) { this(msg, EXIT_USAGE); }
    }

    /**
     * The allowed values of the numeric options, as every message gives them (the range check in a
     * command, and a number too large even for Java's int or long: "--threads must be between 1
     * and 1024, not 99999999999", not "is not an int").
     */
    public static final java.util.Map<String, String> RANGES = java.util.Map.of(
            "--threads", "between 1 and 1024",
            "--jobs", "between 1 and 1024",
            "--tt-mb", "between 1 and 65536",
            "--time-limit", "a whole number of seconds, at least 1",
            "--leaf-empties", "between 0 and 6",
            "--split-at", "a disc count between the root's and the board's");

    /** "--threads must be between 1 and 1024, not 0". */
    public static String outOfRange(String option, String value) {
        String r = RANGES.get(option);
        return option + " must be " + (r != null ? r : "a whole number") + ", not " + value;
    }

    /**
     * Converts the numbers of int and long options; a value that is not a whole number, or that
     * does not fit, fails with a message that {@link #numberMessage} turns into one line.
     */
    public static void registerNumberConverters(picocli.CommandLine cl) {
        cl.registerConverter(Integer.class, new IntConverter());
        cl.registerConverter(Integer.TYPE, new IntConverter());
        cl.registerConverter(Long.class, new LongConverter());
        cl.registerConverter(Long.TYPE, new LongConverter());
    }

    // Classes, not lambdas: a lambda implementing a picocli interface cannot be kept in the
    // class-data-sharing archive (picocli's are Java 5 class files) and is generated at every start.
    private static final class IntConverter implements picocli.CommandLine.ITypeConverter<Integer> {
        @Override public Integer convert(String s) { return (int) whole(s, Integer.MIN_VALUE, Integer.MAX_VALUE); }
    }

    private static final class LongConverter implements picocli.CommandLine.ITypeConverter<Long> {
        @Override public Long convert(String s) { return whole(s, Long.MIN_VALUE, Long.MAX_VALUE); }
    }

    private static final String NOT_WHOLE = "not a whole number", TOO_BIG = "out of range";

    private static long whole(String s, long min, long max) {
        String t = s.trim();
        if (!t.matches("[+-]?\\d+")) throw new picocli.CommandLine.TypeConversionException(NOT_WHOLE);
        java.math.BigInteger v = new java.math.BigInteger(t);
        if (v.compareTo(java.math.BigInteger.valueOf(min)) < 0 || v.compareTo(java.math.BigInteger.valueOf(max)) > 0)
            throw new picocli.CommandLine.TypeConversionException(TOO_BIG);
        return v.longValue();
    }

    /**
     * The one-line message of a parameter error: for a number that could not be converted,
     * "--threads must be between 1 and 1024, not 99999999999"; else picocli's own.
     */
    public static String numberMessage(picocli.CommandLine.ParameterException ex) {
        if (ex.getCause() instanceof picocli.CommandLine.TypeConversionException c
                && (NOT_WHOLE.equals(c.getMessage()) || TOO_BIG.equals(c.getMessage()))
                && ex.getArgSpec() instanceof picocli.CommandLine.Model.OptionSpec o) {
            String value = ex.getValue() != null ? "'" + ex.getValue() + "'" : "that";
            return RANGES.containsKey(o.longestName()) ? outOfRange(o.longestName(), value)
                    : o.longestName() + ": " + value + " is " + (NOT_WHOLE.equals(c.getMessage()) ? NOT_WHOLE : "too large");
        }
        return ex.getMessage();
    }

    /**
     * Why a file cannot be written at {@code out} (given as option), as every command says it:
     * "cannot write --out nodir/x.gsc: directory /abs/nodir does not exist (make it first)"; null
     * when its directory exists and is writable and out is not a directory.
     */
    public static String unwritable(String option, java.nio.file.Path out) {
        java.nio.file.Path abs = out.toAbsolutePath(), dir = abs.getParent();
        String what = "cannot write " + (option == null ? "" : option + " ") + out + ": ";
        if (dir == null) return what + "it names no file";
        if (!java.nio.file.Files.exists(dir)) return what + "directory " + dir + " does not exist (make it first)";
        if (!java.nio.file.Files.isDirectory(dir)) return what + dir + " is not a directory";
        if (!java.nio.file.Files.isWritable(dir)) return what + "directory " + dir + " is not writable";
        if (java.nio.file.Files.isDirectory(abs)) return what + "it is a directory";
        return null;
    }

    /** Throws the {@link #unwritable} message as a usage error (exit 2). */
    public static void requireWritable(String option, java.nio.file.Path out) {
        String why = unwritable(option, out);
        if (why != null) throw new UserError(why);
    }

    /** Subcommands that print get the caller's streams. */
    public interface Streams { void streams(PrintStream out, PrintStream err); }
}
