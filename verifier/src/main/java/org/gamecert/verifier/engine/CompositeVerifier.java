package org.gamecert.verifier.engine;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.gamecert.verifier.kernel.Composition;
import org.gamecert.verifier.kernel.PartConclusion;
import org.gamecert.verifier.kernel.RegionKeys;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.Violation;
import org.gamecert.verifier.kernel.format.BlockRecord;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.format.DataFrame;
import org.gamecert.verifier.kernel.format.FormatException;
import org.gamecert.verifier.kernel.format.Manifest;

/**
 * Checks a composite (SPEC §15): reads its manifest (kernel code: Manifest), opens each part as
 * {@code <64 hex digits of its commitment>.gsc} beside it, checks the parts with the
 * single-machine engine — several at once up to --threads, each on one thread then — and hands
 * the kernel's conclusions to the kernel's Composition, which alone decides the verdict. Then it
 * sums the parts' census rows and, when their regions are small enough, counts their union
 * (§15.4, informative). Nothing here can make a composite VERIFIED: a part that is missing,
 * unreadable, or not the content its name gives is not given, so the composite is at best
 * incomplete.
 */
public final class CompositeVerifier {
    /** The manifest's name in a composite's directory. */
    public static final String MANIFEST = "composite.gscm";
    /**
     * The union census is counted when the parts' region keys fit in this many in all: room the
     * parts checked at once take from one shared allowance as their key arrays double.
     */
    public static final int UNION_CAP = 1 << 26;
    /** The allowance a composite's check shares among its parts (UNION_CAP; tests lower it). */
    static long unionCap = UNION_CAP;

    private CompositeVerifier() {}

    /** One part: what the manifest names, what was found at its name, how it was checked. */
    public static final class PartReport {
        public final int index;
        /** The manifest's commitment id for the part. */
        public final String commitment;
        public final Path file;
        /** verified, incomplete (every rule held; open entries), rejected, not given. */
        public String status = "not given";
        /** Why the part is not given, or null. */
        public String note;
        /** The part's own check (its figures and header; untrusted for the verdict), or null. */
        public Result result;
        /** How long its check took (0 until checked). */
        public long nanos;

        PartReport(int index, String commitment, Path file) {
            this.index = index;
            this.commitment = commitment;
            this.file = file;
        }
    }

    /** The outcome: an error (no manifest), or the kernel's composition and the report's data. */
    public static final class Outcome {
        public Path manifestPath;
        public Manifest manifest;
        /** The kernel's verdict; null when the verdict is error. */
        public Composition.Outcome composition;
        public String error;
        public final List<PartReport> parts = new ArrayList<>();
        /** Summed over the parts checked: {discs, region, aux, term} per disc count (§15.4). */
        public long[][] census = new long[0][];
        /** Distinct positions of the parts' regions per census row, or null: not counted. */
        public long[] union;
        /** Why the union was not counted, or null. */
        public String unionNote;
        public long nanos;

        public Result.Verdict verdict() {
            return composition == null ? Result.Verdict.ERROR : composition.verdict;
        }
    }

    /**
     * Verifies the composite at input: a directory holding composite.gscm, or a manifest file.
     * progress (may be null) gets a line per part as it ends. Never throws.
     */
    public static Outcome verify(Path input, Options options, PrintStream progress) {
        return verify(input, options, progress, null);
    }

    /**
     * As {@link #verify(Path, Options, PrintStream)}, with the part files found by partFile
     * (the 64 lowercase hex digits of a part's commitment to the file that should hold it, or
     * null: not given) instead of beside the manifest; null partFile: beside the manifest. A
     * release bundle uses it for parts spooled out of an archive or given with --parts. A part
     * file is still only that part when its content has the commitment the manifest names.
     */
    public static Outcome verify(Path input, Options options, PrintStream progress, java.util.function.Function<String, Path> partFile) {
        return verify(input, options, progress, partFile, null);
    }

    /**
     * Checks the parts present, setting each one's result (another engine, e.g. Spark tasks):
     * each part file with the kernel, on its own (a conclusion kept for part p.index of a
     * manifest serves that very Manifest object only, not a copy in another JVM). The results are
     * taken for composition as CompositeVerifier.run takes them: a conclusion counts only with the
     * commitment the manifest names. A checker asks the kernel for its conclusions (the options
     * it is given name the composite; Options.forComposition where they cannot travel): without
     * one, a part is not given.
     */
    public interface PartChecker {
        void check(List<PartReport> present, Manifest manifest, Path manifestPath, Options each, PrintStream progress) throws Exception;
    }

    /** As {@link #verify(Path, Options, PrintStream, java.util.function.Function)}, the parts checked by checker (null: threads here). */
    public static Outcome verify(Path input, Options options, PrintStream progress, java.util.function.Function<String, Path> partFile,
            PartChecker checker) {
        long t0 = System.nanoTime();
        Outcome out = new Outcome();
        try {
            run(input, options, progress, out, partFile, checker);
        } catch (NoSuchFileException e) {
            out.error = "no such file: " + e.getFile();
        } catch (IOException e) {
            out.error = "cannot read the manifest: " + e.getMessage();
        } catch (Manifest.NotAManifest e) {
            out.error = e.getMessage();
        } catch (org.gamecert.verifier.kernel.EngineFault e) {
            out.error = e.getMessage();
        } catch (OutOfMemoryError e) {
            out.error = "out of memory (raise the JVM heap, e.g. GAMECERT_JAVA_OPTS=-Xmx8g, or lower --threads)";
        } catch (Throwable e) {
            out.error = "internal error: " + e;
        }
        if (out.error != null) out.composition = null;
        out.nanos = System.nanoTime() - t0;
        return out;
    }

    private static void run(Path input, Options options, PrintStream progress, Outcome out,
            java.util.function.Function<String, Path> partFile, PartChecker checker) throws Exception {
        Path path = Files.isDirectory(input) ? input.resolve(MANIFEST) : input;
        out.manifestPath = path;
        if (Files.exists(path) && !Files.isRegularFile(path)) { // a FIFO would block the read
            out.error = "the manifest " + path + " is not a regular file";
            return;
        }
        Manifest m;
        try {
            m = Manifest.read(path);
        } catch (FormatException e) {
            out.composition = Composition.manifestRejected(e.rule(), e.getMessage());
            return;
        }
        out.manifest = m;
        Path dir = path.toAbsolutePath().getParent();
        int n = m.partCount();
        for (int i = 0; i < n; i++) {
            Path f = partFile == null ? dir.resolve(m.partHex(i) + ".gsc") : partFile.apply(m.partHex(i));
            out.parts.add(new PartReport(i, "sha256:" + m.partHex(i), f));
        }
        checkParts(out, m, path, options, progress, checker);
        PartConclusion[] concluded = new PartConclusion[n];
        Violation[] rejected = new Violation[n];
        for (PartReport p : out.parts) {
            Result r = p.result;
            if (r == null) continue;
            if (r.conclusion != null) {
                if (r.conclusion.commitmentId().equals(p.commitment)) {
                    concluded[p.index] = r.conclusion;
                    p.status = r.verdict == Result.Verdict.VERIFIED ? "verified" : "incomplete";
                } else {
                    p.note = "its content is another certificate (commitment " + r.conclusion.commitmentId() + ")";
                }
            } else if (r.verdict == Result.Verdict.REJECTED) {
                String computed = commitmentOf(p.file);
                if (p.commitment.equals(computed)) {
                    rejected[p.index] = r.firstViolation();
                    p.status = "rejected";
                } else {
                    p.note = "rejected, and its content is not the part (" + (computed == null ? "its commitment cannot be computed"
                            : "commitment " + computed) + ")";
                }
            } else if (r.verdict == Result.Verdict.VERIFIED) { // an engine that did not ask
                p.note = "verified without the kernel's conclusion for a composite"
                        + " (its check was not set up for one: Options.forComposition)";
            } else {
                p.note = "could not be checked: " + r.errorMessage;
            }
        }
        out.composition = Composition.decide(m, concluded, rejected, checker != null);
        sumCensus(out, concluded);
        countUnion(out, concluded);
    }

    /**
     * Room for the union's region keys, shared by all the parts: at most UNION_CAP keys granted
     * in all. Once it refuses, it refuses every part (the union will not be counted).
     */
    static final class UnionAllowance implements Options.Allowance {
        private final long cap;
        private final AtomicLong granted = new AtomicLong();
        private volatile boolean refused;

        UnionAllowance(long cap) {
            this.cap = cap;
        }

        @Override
        public boolean grant(int n) {
            if (refused) return false;
            if (granted.addAndGet(n) <= cap) return true;
            refused = true;
            return false;
        }

        boolean refused() {
            return refused;
        }
    }

    /**
     * Checks every part file present, up to --threads at once (each on one thread then), each as
     * part i of m: the kernel keeps of its open entries only those m's links name (and the first
     * that none names), so that what the parts hold for composition is bounded by the links.
     */
    private static void checkParts(Outcome out, Manifest m, Path manifestPath, Options options, PrintStream progress,
            PartChecker checker) throws Exception {
        List<PartReport> present = new ArrayList<>();
        for (PartReport p : out.parts) {
            if (p.file != null && Files.isRegularFile(p.file)) present.add(p);
            else p.note = p.file == null ? "no file " + p.commitment.substring(7) + ".gsc given" : "no file " + p.file.getFileName() + " beside the manifest";
        }
        int workers = Math.max(1, Math.min(options.threads, present.size()));
        Options each = options.copy();
        each.threads = present.size() > 1 ? 1 : options.threads;
        each.maxMemory = options.maxMemory / workers; // the parts checked at once share the budget
        each.progress = null;
        UnionAllowance union = new UnionAllowance(unionCap);
        each.regionKeys = union;
        each.composite = m;
        if (checker != null) {
            each.regionKeys = null; // the checker gives each part its own allowance
            checker.check(present, m, manifestPath, each, progress);
            for (PartReport p : present)
                if (p.result == null) p.note = "could not be checked: no result from the engine";
            return;
        }
        if (progress != null)
            progress.printf("composite: %d parts (%d present), checked %d at a time%n", out.parts.size(), present.size(), workers);
        int[] done = {0};
        ExecutorService pool = Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "composite-part");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> tasks = new ArrayList<>();
            for (PartReport p : present)
                tasks.add(pool.submit(() -> {
                    Options mine = each.copy();
                    mine.compositePart = p.index;
                    Figures f = new Figures();
                    p.result = Verifier.verify(p.file, mine, f);
                    p.nanos = f.nanos;
                    if (progress != null) {
                        synchronized (done) {
                            done[0]++;
                            progress.printf("part %d (%d of %d checked): %s %s, %.2f s%n", p.index, done[0], present.size(),
                                    p.file.getFileName(), describe(p.result), p.nanos / 1e9);
                        }
                    }
                }));
            for (Future<?> f : tasks) f.get();
        } finally {
            pool.shutdownNow();
        }
        // a union refused is not counted: the keys' memory goes back once the parts are decided
        // (countUnion), not before (a conclusion whose keys were released is not the kernel's)
    }

    private static String describe(Result r) {
        if (r.verdict == Result.Verdict.INCOMPLETE && r.conclusion != null)
            return "every rule held, " + r.conclusion.openCount() + " open entries";
        if (r.verdict == Result.Verdict.REJECTED && r.firstViolation() != null) return "rejected, " + r.firstViolation().rule();
        if (r.verdict == Result.Verdict.ERROR) return "error: " + r.errorMessage;
        return r.verdict.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The parts' census rows summed per disc count, each part once (SPEC §15.4). */
    private static void sumCensus(Outcome out, PartConclusion[] parts) {
        long[][] byDiscs = new long[65][4];
        int from = 65, to = -1;
        for (PartConclusion c : parts) {
            if (c == null) continue;
            for (int r = 0; r < c.censusRows(); r++) {
                int d = (int) c.census(r, 0);
                from = Math.min(from, d);
                to = Math.max(to, d);
                for (int col = 1; col < 4; col++) byDiscs[d][col] += c.census(r, col);
            }
        }
        out.census = new long[Math.max(0, to - from + 1)][];
        for (int d = from; d <= to; d++) {
            byDiscs[d][0] = d;
            out.census[d - from] = byDiscs[d];
        }
    }

    /**
     * The number of distinct positions of the parts' regions per census row (SPEC §15.4), when
     * every part given kept its region's keys (they fit in UNION_CAP, the shared allowance).
     */
    private static void countUnion(Outcome out, PartConclusion[] parts) {
        List<RegionKeys> keys = new ArrayList<>();
        for (PartConclusion c : parts) {
            if (c == null) continue;
            if (c.baseMode == 4) continue; // SPEC §15.4: a mode-4 certificate's region is empty
            RegionKeys k = c.regionKeys();
            if (k == null) { // only a part's slices keep their region's keys
                out.unionNote = "not counted: a certificate named whole, not as a part, keeps no"
                        + " region keys";
                return;
            }
            if (!k.complete()) {
                out.unionNote = "not counted: the parts' regions are too big to keep their keys (room for " + UNION_CAP
                        + " keys in all, taken as each part's key arrays double)";
                for (PartConclusion other : parts)
                    if (other != null && other.regionKeys() != null) other.regionKeys().release();
                return;
            }
            keys.add(k);
        }
        long[] perDiscs;
        try {
            perDiscs = RegionUnion.distinctPerDiscCount(keys);
        } catch (OutOfMemoryError e) { // informative: the verdict stands without it
            for (RegionKeys k : keys) k.release();
            out.unionNote = "not counted: out of memory while counting the parts' distinct positions";
            return;
        }
        out.union = new long[out.census.length];
        for (int r = 0; r < out.census.length; r++) out.union[r] = perDiscs[(int) out.census[r][0]];
        for (RegionKeys k : keys) k.release();
    }

    /**
     * The commitment of a certificate file as SPEC §3 computes it, or null when it cannot be
     * computed (not a certificate, frames that cannot be read, a block over the limits of SPEC §2,
     * a data frame that does not decompress). Untrusted: it only tells a
     * rejected part (R-COMP-1) from a file that is not the part at all (not given).
     */
    static String commitmentOf(Path file) {
        try (Container ct = new Container(file)) {
            if (!Verifier.isCertificate(ct)) return null;
            byte[] chain = sha((byte) 0, ct.readHeaderContent());
            BlockRecord rec;
            while ((rec = ct.nextBlockRecord()) != null) {
                if (rec.rawLen > 1 << 24 || rec.compLen > rec.rawLen + (rec.rawLen >> 8) + 128) return null;
                byte[] raw = DataFrame.decompress(ct.readDataFrame(rec), (int) rec.rawLen, rec.index);
                chain = org.gamecert.verifier.kernel.Chain.chain(chain, rec, raw);
            }
            // Bytes after the trailer break R-CON-1 but are outside the commitment (§3), so it is
            // computed (§15.2's closed list: the file is then the part, given and rejected).
            long size = ct.trailerContentSize(false), at = ct.position(), end = at + size - 32;
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update((byte) 2);
            md.update(chain);
            for (long off = at; off < end; off += 1 << 16) md.update(ct.read(off, (int) Math.min(1 << 16, end - off)));
            return "sha256:" + HexFormat.of().formatHex(md.digest());
        } catch (IOException | FormatException | NoSuchAlgorithmException | RuntimeException e) {
            return null;
        }
    }

    private static byte[] sha(byte prefix, byte[] data) {
        return sha(new byte[] {prefix}, data);
    }

    private static byte[] sha(byte[] prefix, byte[] data) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(prefix);
            md.update(data);
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
