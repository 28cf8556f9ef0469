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
        cl.registerConverter(Integer.class, s -> (int) whole(s, Integer.MIN_VALUE, Integer.MAX_VALUE));
        cl.registerConverter(Integer.TYPE, s -> (int) whole(s, Integer.MIN_VALUE, Integer.MAX_VALUE));
        cl.registerConverter(Long.class, s -> whole(s, Long.MIN_VALUE, Long.MAX_VALUE));
        cl.registerConverter(Long.TYPE, s -> whole(s, Long.MIN_VALUE, Long.MAX_VALUE));
        cl.setParameterExceptionHandler((ex, a) -> {
            String msg = numberMessage(ex, ranges);
            err.println("error: " + msg + " (see --help)");
            if (onError != null) onError.accept(msg);
            return errorCode;
        });
        cl.setExecutionExceptionHandler((ex, c, p) -> {
            err.println("error: internal error: " + ex);
            if (onError != null) onError.accept("internal error: " + ex);
            return errorCode;
        });
        try {
            return cl.execute(args);
        } catch (Throwable t) {
            err.println("error: internal error: " + t);
            if (onError != null) onError.accept("internal error: " + t);
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
