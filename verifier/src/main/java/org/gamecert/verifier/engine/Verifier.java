package org.gamecert.verifier.engine;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.gamecert.verifier.kernel.EngineFault;
import org.gamecert.verifier.kernel.FileMap;
import org.gamecert.verifier.kernel.RankedKernel;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.format.Bytes;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.format.FormatException;
import org.gamecert.verifier.kernel.format.Header;

/**
 * The single-machine verifier of one certificate file: modes 1–3 are checked by the sequential
 * kernel driven by SliceEngine (SPEC §11.1), mode 4 by RankedKernel. The kernel alone decides
 * the verdict; this class only picks the engine and turns every failure into a verdict.
 */
public final class Verifier {
    /** Entries a slice of the sequential kernel holds, about (at least one block; tests lower it). */
    static long sliceEntries = 1 << 16;

    private Verifier() {}

    /**
     * SPEC §2 "certificate or not": at least 12 bytes, the HEADER frame's magic, then GSCF. Not a
     * rule of the kernel: a file it refuses ends in an error, never in a verdict.
     */
    public static boolean isCertificate(Container ct) throws IOException {
        if (ct.size < 12) return false;
        byte[] b = ct.read(0, 12);
        return (int) Bytes.u32(b, 0) == HEADER_MAGIC && b[8] == 'G' && b[9] == 'S' && b[10] == 'C'
                && b[11] == 'F';
    }

    /** The magic of the HEADER frame (SPEC §2). */
    static final int HEADER_MAGIC = 0x184D2A50;

    /** Verifies the file; never throws: every failure ends in a verdict. */
    public static Result verify(Path path, Options options) {
        return verify(path, options, new Figures());
    }

    /** As verify(path, options), with the check's time and the engine's memory into figures. */
    public static Result verify(Path path, Options options, Figures figures) {
        Result res = new Result();
        long t0 = System.nanoTime();
        Result outcome;
        try (Container ct = new Container(path)) {
            if (!isCertificate(ct))
                outcome = error(res, "not a certificate (no gamecert HEADER frame at the start of the file)");
            else if (modeFour(ct))
                outcome = ranked(ct, options);
            else
                outcome = new SliceEngine(options.threads, sliceEntries).verify(path, options,
                        figures);
        } catch (EngineFault e) {
            outcome = error(res, e.getMessage());
        } catch (NoSuchFileException e) {
            outcome = error(res, "no such file: " + e.getFile());
        } catch (IOException | java.io.UncheckedIOException e) {
            Throwable cause = e.getCause() instanceof IOException ? e.getCause() : e;
            outcome = error(res, "cannot read the input: " + cause.getMessage());
        } catch (FileMap.TooLarge | SliceEngine.OutOfBudget e) {
            outcome = error(res, e.getMessage());
        } catch (OutOfMemoryError e) {
            outcome = error(res, "out of memory (raise the JVM heap, e.g. GAMECERT_JAVA_OPTS=-Xmx8g,"
                    + " or lower --threads)");
        } catch (Throwable e) {
            outcome = error(res, "internal error: " + e);
        }
        figures.nanos = System.nanoTime() - t0;
        return outcome;
    }

    /** Mode 4: the whole file is held and checked by RankedKernel. */
    private static Result ranked(Container ct, Options o) throws IOException {
        FileMap map;
        try {
            map = FileMap.read(ct);
        } catch (FileMap.HeaderViolation hv) {
            return SliceEngine.rejectedHeader(hv);
        }
        RankedKernel kernel = new RankedKernel(map, o.maxMemory, o.strict, o.all,
                o.maxViolationsPerRule);
        if (o.forComposition || o.composite != null) kernel.forComposition();
        return kernel.run(ct);
    }

    /** Whether the header says mode 4 (RankedKernel); a header that breaks a rule says no. */
    private static boolean modeFour(Container ct) throws IOException {
        try {
            return Header.parse(ct.readHeaderContent()).mode == Header.WEAK_RANKED;
        } catch (FormatException e) {
            return false;
        }
    }

    private static Result error(Result res, String message) {
        res.errorMessage = message;
        return Result.withVerdict(res, Result.Verdict.ERROR);
    }
}
