package org.gamecert.verifier.cli;

import java.io.PrintStream;
import java.math.BigInteger;
import java.util.Map;
import java.util.function.Consumer;
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
        return execute(cl, args, out, err, errorCode, null, Map.of());
    }

    /**
     * As above; {@code onError} (may be null) also gets the message of a usage or internal error
     * (--json prints it as a JSON object), and {@code ranges} gives, per option, the values it takes
     * ("between 1 and 256"), for the message when a number does not even fit its Java type
     * ("--threads must be between 1 and 256, not '99999999999'", not "is not an int").
     */
    public static int execute(CommandLine cl, String[] args, PrintStream out, PrintStream err, int errorCode,
                              Consumer<String> onError, Map<String, String> ranges) {
        cl.setOut(new java.io.PrintWriter(out, true));
        cl.setErr(new java.io.PrintWriter(err, true));
        cl.registerConverter(Integer.class, new IntConverter());
        cl.registerConverter(Integer.TYPE, new IntConverter());
        cl.registerConverter(Long.class, new LongConverter());
        cl.registerConverter(Long.TYPE, new LongConverter());
        cl.setParameterExceptionHandler(new UsageErrors(err, errorCode, onError, ranges));
        cl.setExecutionExceptionHandler(new Failures(err, errorCode, onError));
        try {
            return cl.execute(args);
        } catch (Throwable t) {
            err.println("error: internal error: " + t);
            if (onError != null) onError.accept("internal error: " + t);
            return errorCode;
        }
    }

    // The converters and handlers are classes, not lambdas: a lambda that implements a picocli
    // interface cannot be kept in the class-data-sharing archive (picocli's classes are Java 5 class
    // files) and would be generated at every start, with the method-handle machinery that takes
    // (issue #42).

    private static final class IntConverter implements CommandLine.ITypeConverter<Integer> {
        @Override public Integer convert(String s) { return (int) whole(s, Integer.MIN_VALUE, Integer.MAX_VALUE); }
    }

    private static final class LongConverter implements CommandLine.ITypeConverter<Long> {
        @Override public Long convert(String s) { return whole(s, Long.MIN_VALUE, Long.MAX_VALUE); }
    }

    private static final class UsageErrors implements CommandLine.IParameterExceptionHandler {
        private final PrintStream err;
        private final int errorCode;
        private final Consumer<String> onError;
        private final Map<String, String> ranges;

        UsageErrors(PrintStream err, int errorCode, Consumer<String> onError, Map<String, String> ranges) {
            this.err = err; this.errorCode = errorCode; this.onError = onError; this.ranges = ranges;
        }

        @Override public int handleParseException(CommandLine.ParameterException ex, String[] args) {
            String msg = numberMessage(ex, ranges);
            err.println("error: " + msg + " (see --help)");
            if (onError != null) onError.accept(msg);
            return errorCode;
        }
    }

    private static final class Failures implements CommandLine.IExecutionExceptionHandler {
        private final PrintStream err;
        private final int errorCode;
        private final Consumer<String> onError;

        Failures(PrintStream err, int errorCode, Consumer<String> onError) {
            this.err = err; this.errorCode = errorCode; this.onError = onError;
        }

        @Override public int handleExecutionException(Exception ex, CommandLine c, CommandLine.ParseResult p) {
            err.println("error: internal error: " + ex);
            if (onError != null) onError.accept("internal error: " + ex);
            return errorCode;
        }
    }

    private static final String NOT_WHOLE = "not a whole number", TOO_BIG = "out of range";

    private static long whole(String s, long min, long max) {
        String t = s.trim();
        if (!t.matches("[+-]?\\d+")) throw new CommandLine.TypeConversionException(NOT_WHOLE);
        BigInteger v = new BigInteger(t);
        if (v.compareTo(BigInteger.valueOf(min)) < 0 || v.compareTo(BigInteger.valueOf(max)) > 0)
            throw new CommandLine.TypeConversionException(TOO_BIG);
        return v.longValue();
    }

    /** A number that could not be converted, as the option's range; any other parameter error as picocli says it. */
    static String numberMessage(CommandLine.ParameterException ex, Map<String, String> ranges) {
        if (ex.getCause() instanceof CommandLine.TypeConversionException c
                && (NOT_WHOLE.equals(c.getMessage()) || TOO_BIG.equals(c.getMessage()))
                && ex.getArgSpec() instanceof CommandLine.Model.OptionSpec o) {
            String value = "'" + ex.getValue() + "'", name = o.longestName();
            return ranges.containsKey(name) ? name + " must be " + ranges.get(name) + ", not " + value
                    : name + ": " + value + " is " + (NOT_WHOLE.equals(c.getMessage()) ? NOT_WHOLE : "too large");
        }
        return ex.getMessage();
    }
}
