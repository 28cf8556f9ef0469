package org.gamecert.verifier.cli;

/**
 * The keys every JSON report of scripts/verify starts with, whatever the input: {@code input} (the
 * path given), {@code kind} (certificate, composite, bundle or peer; null when none was read),
 * {@code verdict} (verified, rejected, incomplete, error) and {@code exit_code}. The rest of the
 * object is the kind's own.
 */
public final class JsonHead {
    private JsonHead() {}

    /** The four keys, without braces: {@code "input":...,"kind":...,"verdict":...,"exit_code":N}. */
    public static String of(String input, String kind, String verdict, int exitCode) {
        Json j = new Json();
        j.put("input", input).put("kind", kind).put("verdict", verdict).put("exit_code", exitCode);
        return j.toString();
    }

    /** A whole object for an input that could not be checked or a usage error: the four keys and "error". */
    public static String error(String input, String message) {
        return "{" + of(input, null, "error", 2) + "," + new Json().put("error", message) + "}";
    }
}
