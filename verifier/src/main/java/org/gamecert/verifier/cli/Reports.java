package org.gamecert.verifier.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import org.gamecert.verifier.engine.CompositeVerifier;
import org.gamecert.verifier.engine.Figures;
import org.gamecert.verifier.kernel.Result;

/**
 * The verifier's reports for other engines (the Spark module): the same text and JSON as
 * scripts/verify prints, and the same exit codes. Rendering only; the verdict is the kernel's.
 */
public final class Reports {
    private Reports() {}

    /** f: the check's time and the engine's memory, as its engine measured them. */
    public static void human(Result r, Figures f, String path, int threads, PrintStream out) {
        Report.human(r, f, path, threads, out);
    }

    public static String json(Result r, Figures f) {
        return Report.json(r, f, null);
    }

    /** The JSON report of a certificate given as input (its path, as scripts/verify prints it). */
    public static String json(Result r, Figures f, String input) {
        return Report.json(r, f, input);
    }

    public static void human(CompositeVerifier.Outcome c, String path, PrintStream out) {
        CompositeReport.human(c, path, out);
    }

    public static String json(CompositeVerifier.Outcome c) {
        return CompositeReport.json(c, null);
    }

    /** The JSON report of a composite given as input. */
    public static String json(CompositeVerifier.Outcome c, String input) {
        return CompositeReport.json(c, input);
    }

    /**
     * What scripts/verify would read path as: certificate, composite, bundle or peer (from its
     * content, as InputKind decides; untrusted, each kind's reader checks everything).
     */
    public static String kindOf(Path path) {
        return InputKind.describe(path).kind().name().toLowerCase(java.util.Locale.ROOT);
    }

    /** What the content looked like (for a note when it is read as another kind). */
    public static String looksLike(Path path) {
        return InputKind.describe(path).what();
    }

    /** 0 verified, 1 rejected, 3 incomplete, 2 otherwise (VerifyMain's codes). */
    public static int exitCode(Result.Verdict v) {
        return VerifyMain.exitCode(v);
    }
}
