package org.gamecert.verifier.peer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.gamecert.verifier.kernel.rules.OthelloRules;
import org.gamecert.verifier.peer.kernel.PeerKernel;
import org.gamecert.verifier.peer.kernel.Slice;
import org.gamecert.verifier.peer.kernel.TableCheck;
import org.gamecert.verifier.peer.kernel.TableSlices;

/**
 * Verifies the published 6×6 Othello semi-strong tablebase in its own format (issue #5):
 * every record of table n is checked against table n+1 with the sound rules (RULES.md), tables
 * in ascending disc count, in bounded memory. This class and PairChecker are the engine
 * (untrusted: input detection, sources, SHA256SUMS, passes, threads, restart records, the
 * report); the rules and the verdict are the peer kernel's (peer.kernel.PeerKernel, issue 17).
 */
public final class PeerVerifier {
    private final PeerOptions opt;
    private final PeerResult result = new PeerResult();
    private final TreeMap<Integer, TableResult> done = new TreeMap<>();
    private ExecutorService pool;
    private PeerKernel kernel;
    /** A --root that does not parse: an error once the tables are checked (as before the kernel). */
    private IllegalArgumentException badRoot;
    private long rangeRecords;
    private int threads;

    private PeerVerifier(PeerOptions opt) {
        this.opt = opt;
    }

    /** The one entry point: never throws; an unreadable input gives verdict {@code error}. */
    public static PeerResult verify(PeerOptions options) {
        return new PeerVerifier(options).run();
    }

    private PeerResult run() {
        long start = System.nanoTime();
        result.input = String.valueOf(opt.input);
        result.notes.add("TB-canonicality (SPEC R-TB-1) is not checkable for this input: the format stores no move and its "
                + "tie-breaking cannot be reproduced; checked instead that a suitable maximizing child exists.");
        MemoryWatch watch = new MemoryWatch();
        watch.start();
        try {
            rangeRecords = opt.effectiveRangeRecords();
            threads = opt.effectiveThreads();
            if (opt.memoryClamped()) {
                result.notes.add("--max-memory exceeds what this JVM may use (-Xmx " + (Runtime.getRuntime().maxMemory() >> 20)
                        + " MiB): child ranges sized for 85% of the heap instead; run java with a larger -Xmx");
            }
            pool = Executors.newFixedThreadPool(threads, r -> {
                Thread t = new Thread(r, "peer-check");
                t.setDaemon(true);
                return t;
            });
            long[] rootPosition = null;
            try {
                if (opt.root != null) rootPosition = PeerCodec.parsePosition(opt.root);
            } catch (IllegalArgumentException e) {
                badRoot = e;
            }
            kernel = new PeerKernel(rootPosition, opt.root);
            if (opt.tmp == null) opt.tmp = Path.of(System.getProperty("java.io.tmpdir"));
            Files.createDirectories(opt.tmp);
            if (opt.state != null) Files.createDirectories(opt.state);
            PeerInput in = PeerInput.detect(opt.input);
            result.inputKind = in.description();
            Path sums = opt.checkSums ? in.sumsFile() : null;
            if (sums != null) {
                result.sumsChecked = Sha256Sums.check(sums, opt.progress);
                result.sumsNote = "SHA256SUMS: " + result.sumsChecked + " listed files checked";
            }
            switch (in.kind) {
                case DIRECTORY:
                    try (PeerSource s = new DirectorySource(in.path)) {
                        checkAll(s);
                        result.unread.addAll(s.unread());
                    }
                    break;
                case CSV:
                    try (PeerSource s = CsvSource.read(in.path, opt.budgetBytes())) {
                        checkAll(s);
                    }
                    break;
                case TAR:
                    try (PeerSource s = new TarSource(in.path)) {
                        checkAll(s);
                        result.unread.addAll(s.unread());
                    }
                    break;
                default:
                    if (opt.runner != null && opt.state == null) spooled(in);
                    else streamed(in);
            }
            if (concluded) { // (a spool's conclusion, drawn while it was there)
            } else if (result.violation == null) conclude();
            else result.fail(PeerResult.Verdict.REJECTED);
        } catch (PeerInputException e) {
            result.violation = PeerViolation.first(result.violation, new PeerViolation(e.rule, e.layer, -1, null, e.getMessage()));
            result.fail(PeerResult.Verdict.REJECTED);
        } catch (PeerKernel.EngineFault e) {
            result.fail(PeerResult.Verdict.ERROR);
            result.error = e.getMessage();
        } catch (IllegalArgumentException e) {
            result.fail(PeerResult.Verdict.ERROR);
            result.error = e.getMessage();
        } catch (IOException | java.io.UncheckedIOException e) {
            result.fail(PeerResult.Verdict.ERROR);
            result.error = "I/O error: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            result.fail(PeerResult.Verdict.ERROR);
            result.error = "interrupted";
        } catch (RuntimeException | OutOfMemoryError e) {
            result.fail(PeerResult.Verdict.ERROR);
            result.error = "internal error: " + e;
        } finally {
            if (pool != null) pool.shutdownNow();
            watch.stopWatch();
            result.peakHeapBytes = watch.peak;
            result.seconds = (System.nanoTime() - start) / 1e9;
        }
        result.tables.clear();
        result.tables.addAll(done.values());
        return result;
    }

    // ---- table pairs -----------------------------------------------------------------------

    /**
     * Checks slices of tables on another engine: each slice (a key range of table n's records,
     * asked for by the kernel's TableSlices) against table n+1 by checkSlice, in any order and
     * place, each task opening the tables at input; a run per slice, in any order.
     */
    public interface SliceRunner {
        java.util.List<SliceRun> check(PeerOptions options, Path input, java.util.List<Slice> slices) throws IOException;

        /** Tasks the engine runs at once (for the default slice size). */
        default int parallelism() {
            return 1;
        }
    }

    /**
     * Records per slice when options give none: about one slice per task the runner runs at once
     * over all the records (each slice's task loads all of table n+1, so more slices cost more),
     * but the biggest table in two slices at least, and 1 M records at least.
     */
    static long defaultSliceRecords(long biggest, long total, int parallelism) {
        long perTask = (total + parallelism - 1) / parallelism;
        return Math.max(1L << 20, Math.min((biggest + 1) / 2, perTask));
    }

    /**
     * One slice of table n against n+1 with a peer kernel of its own (a task of another engine),
     * the tables read at input (a directory, .csv or .tar, or a SliceSpool's directory). Never
     * throws: a failure is the run's error.
     */
    public static SliceRun checkSlice(PeerOptions opt, Path input, Slice slice) {
        return checkSlice(opt, input, slice, 0, 0);
    }

    /** checkSlice, reading shift records away from the slice's base and extra more (tests of a faulty engine). */
    static SliceRun checkSlice(PeerOptions opt, Path input, Slice slice, long shift, long extra) {
        SliceRun run = new SliceRun(slice);
        ExecutorService pool = null;
        try {
            long[] rootPosition = null;
            try {
                if (opt.root != null) rootPosition = PeerCodec.parsePosition(opt.root);
            } catch (IllegalArgumentException e) {
                rootPosition = null; // the driver reports a bad root
            }
            PeerKernel k = new PeerKernel(rootPosition, opt.root);
            int threads = opt.effectiveThreads();
            pool = Executors.newFixedThreadPool(threads, r -> {
                Thread t = new Thread(r, "peer-check");
                t.setDaemon(true);
                return t;
            });
            Path tmp = opt.tmp != null ? opt.tmp : Path.of(System.getProperty("java.io.tmpdir"));
            Files.createDirectories(tmp);
            try (PeerSource s = taskSource(opt, input)) {
                int n = slice.table();
                byte[] previous = null;
                long from = slice.base() + shift;
                if (from > 0) { // the record before the slice, for PEER-ORDER-1 at its first record
                    previous = new byte[PeerCodec.RECORD_BYTES];
                    try (InputStream in = s.openAt(n, from - 1)) {
                        if (PairChecker.readFully(in, previous, 0, previous.length) != previous.length)
                            throw new IOException("table " + n + " ends before " + slice);
                    }
                }
                TableCheck check = k.beginSlice(slice, previous);
                long limit = slice.last() ? -1 : slice.count() + extra;
                PairChecker pc = new PairChecker(check, s, s, opt.effectiveRangeRecords(), pool, threads, tmp, null);
                TableResult r = pc.reading(from, limit).run();
                run.result = check.sliceResult();
                run.childRecords = r.childRecords;
                run.passes = r.passes;
                run.seconds = r.seconds;
            }
        } catch (PeerInputException | PeerKernel.EngineFault | IOException | java.io.UncheckedIOException
                | IllegalArgumentException e) {
            run.error = e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            run.error = "interrupted";
        } catch (RuntimeException | OutOfMemoryError e) {
            run.error = "internal error: " + e;
        } finally {
            if (pool != null) pool.shutdownNow();
        }
        return run;
    }

    /** The tables as a task reads them: a spool the driver wrote, or the input itself. */
    private static PeerSource taskSource(PeerOptions opt, Path input) throws IOException, PeerInputException {
        if (Files.isDirectory(input) && SliceSpool.isSpool(input)) return SliceSpool.open(input);
        PeerInput in = PeerInput.detect(input);
        switch (in.kind) {
            case DIRECTORY: return new DirectorySource(in.path);
            case CSV: return CsvSource.read(in.path, opt.budgetBytes());
            case TAR: return new TarSource(in.path);
            default: throw new IOException("a streamed archive is not read by slice: " + in.description() + " (spool it first)");
        }
    }

    /**
     * The tables checked in slices by opt.runner: the kernel asks for each table's slices
     * (TableSlices.slice, perSlice records each), the runner checks them where it likes, and the
     * kernel takes each table's slices back in ascending table order (TableSlices.take, end: they
     * must tile the table), up to the first table with a violation, as checkAll stops there.
     * Table n+1 must be the one table n's slices loaded (PeerKernel.conclude).
     */
    private void runSlices(PeerSource s, Path input, long perSlice) throws IOException {
        int[] tables = s.tables();
        Set<Integer> given = new HashSet<>();
        for (int t : tables) given.add(t);
        TreeMap<Integer, TableSlices> byTable = new TreeMap<>();
        java.util.List<Slice> all = new java.util.ArrayList<>();
        for (int n : tables) {
            TableSlices ts = kernel.slicedTable(n, given.contains(n + 1));
            long size = s.byteSize(n);
            if (size < 0) throw new IOException("the size of table " + n + " is not known: it cannot be sliced");
            long records = size / PeerCodec.RECORD_BYTES;
            for (long base = 0; ; base += perSlice) {
                long count = Math.min(perSlice, records - base);
                Slice sl = ts.slice(count, base + count == records);
                all.add(sl);
                if (sl.last()) break;
            }
            byTable.put(n, ts);
        }
        java.util.List<SliceRun> runs = opt.runner.check(opt, input, all);
        java.util.Map<Slice, SliceRun> bySlice = new java.util.HashMap<>();
        for (SliceRun r : runs) {
            if (r == null) continue;
            if (r.error != null) throw new IOException(r.slice + ": " + r.error);
            bySlice.putIfAbsent(r.slice, r);
        }
        for (var e : byTable.entrySet()) {
            int n = e.getKey();
            TableSlices ts = e.getValue();
            TableResult r = new TableResult(n);
            for (Slice sl : ts.asked()) {
                SliceRun run = bySlice.get(sl);
                if (run == null) continue; // the kernel names the slice missing (TableSlices.end)
                ts.take(sl, run.result);
                r.childRecords = Math.max(r.childRecords, run.childRecords);
                r.passes = Math.max(r.passes, run.passes);
                r.seconds += run.seconds;
                r.slices++;
            }
            ts.end();
            TableCheck t = ts.table();
            r.records = t.records();
            r.region = t.region();
            r.auxiliary = t.auxiliary();
            r.frontierRecords = t.frontierRecords();
            r.frontierChildren = t.frontierChildren();
            r.violation = PairChecker.violation(t.finding());
            done.put(n, r);
            if (opt.progress != null) {
                opt.progress.println(String.format("table %d: %,d records in %d slice(s), %d pass(es) each, %.1f task-s%s", n, r.records,
                        r.slices, r.passes, r.seconds, r.violation != null ? ", VIOLATION " + r.violation.rule
                                : r.frontierRecords > 0 ? ", " + r.frontierRecords + " records open (frontier)" : ", ok"));
            }
            if (r.violation != null) {
                result.violation = PeerViolation.first(result.violation, r.violation);
                return;
            }
        }
    }

    /**
     * A streamed archive for another engine: read once into a SliceSpool in --tmp (a path every
     * executor reads), its slices checked by runSlices; the roots scanned and the kernel's
     * conclusion drawn while the spool is there; then it is deleted.
     */
    private void spooled(PeerInput in) throws IOException, PeerInputException {
        long per = opt.sliceRecords > 0 ? opt.sliceRecords : 1L << 22;
        Path dir = Files.createTempDirectory(opt.tmp, "peer-spool-");
        try {
            java.util.List<Path> parts = in.kind == PeerInput.Kind.TAR_ZST ? java.util.List.of(in.path) : in.parts;
            SliceSpool s = SliceSpool.write(parts, dir, per, opt.progress);
            result.tempBytesPeak = Math.max(result.tempBytesPeak, s.bytes());
            result.unread.addAll(s.unread());
            runSlices(s, dir, s.sliceRecords());
            if (result.violation == null) {
                scanSource = s;
                conclude();
                concluded = true;
            }
        } finally {
            scanSource = null;
            try (var files = Files.list(dir)) {
                for (Path f : (Iterable<Path>) files::iterator) Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        }
    }

    /** Set while a spool is the place to scan the roots (spooled). */
    private PeerSource scanSource;
    private boolean concluded;

    private void checkAll(PeerSource s) throws IOException, InterruptedException {
        int[] tables = s.tables();
        Set<Integer> given = new HashSet<>();
        for (int t : tables) given.add(t);
        if (opt.runner != null && opt.state == null) {
            long biggest = 0, total = 0;
            for (int t : tables) {
                long records = s.byteSize(t) / PeerCodec.RECORD_BYTES;
                biggest = Math.max(biggest, records);
                total += records;
            }
            long per = opt.sliceRecords > 0 ? opt.sliceRecords : defaultSliceRecords(biggest, total, opt.runner.parallelism());
            runSlices(s, opt.input, per);
            return;
        }
        for (int n : tables) {
            if (!checkTable(s, n, given.contains(n + 1))) return;
        }
    }

    /** Checks table n against n+1 (or its frontier); false once a violation was found. */
    private boolean checkTable(PeerSource s, int n, boolean childGiven) throws IOException, InterruptedException {
        String fp = fingerprint(s, n, childGiven);
        TableResult prior = loadState(n, fp);
        if (prior != null) {
            done.put(n, prior);
            kernel.prior(n, prior.records, prior.region, prior.auxiliary, prior.frontierRecords,
                    prior.frontierChildren, prior.contentSum);
            result.skippedTables.add(n);
            if (opt.progress != null) opt.progress.println("table " + n + ": verified before (state " + opt.state + "), skipped");
            return true;
        }
        TableCheck check = kernel.beginTable(n, childGiven);
        PairChecker pc = new PairChecker(check, s, s, rangeRecords, pool, threads, opt.tmp, opt.progress);
        TableResult r = pc.run();
        done.put(n, r);
        if (opt.progress != null) {
            opt.progress.println(String.format("table %d: %,d records, %d pass(es), %.1f s%s", n, r.records, r.passes, r.seconds,
                    r.violation != null ? ", VIOLATION " + r.violation.rule : r.frontierRecords > 0 ? ", " + r.frontierRecords + " records open (frontier)" : ", ok"));
        }
        if (r.violation != null) {
            result.violation = PeerViolation.first(result.violation, r.violation);
            return false;
        }
        saveState(n, fp, r, check.contentSum());
        return true;
    }

    private void streamed(PeerInput in) throws IOException, InterruptedException, PeerInputException {
        Set<Integer> checked = new HashSet<>();
        try (SpoolSource s = new SpoolSource(in.description(), opt.tmp)) {
            boolean[] stop = {false};
            int[] lowestSeen = {Integer.MAX_VALUE};
            s.stream(in.kind == PeerInput.Kind.TAR_ZST ? SpoolSource.single(in.path) : in.parts, n -> {
                // Roots are read while the table passes by: a streamed archive is read only once.
                if (n < lowestSeen[0]) {
                    lowestSeen[0] = n;
                    long[] target = rootTarget(n);
                    int discs = target == null ? n : Long.bitCount(target[0] | target[1]);
                    if (opt.root == null || discs == n) streamedScan = scanTable(s, discs, target);
                } else if (opt.root != null) {
                    long[] target = rootTarget(n);
                    if (Long.bitCount(target[0] | target[1]) == n) streamedScan = scanTable(s, n, target);
                }
                // Pairs whose parent and child are both here now: (n−1, n) and (n, n+1).
                for (int p : new int[] {n - 1, n}) {
                    if (p < 4 || checked.contains(p) || !s.has(p)) continue;
                    boolean childHere = s.has(p + 1) || p + 1 >= PeerCodec.CELLS;
                    if (!childHere) continue;
                    checked.add(p);
                    if (!checkTable(s, p, s.has(p + 1))) {
                        stop[0] = true;
                        return false;
                    }
                }
                // A spool is dropped once it served as parent and as child (of table p−1, which may still
                // come: the archive's order is whatever tar saw). Ascending archives keep about two.
                for (int p : s.tables()) {
                    if (s.has(p) && checked.contains(p) && checked.contains(p - 1)) s.release(p);
                }
                return true;
            });
            if (!stop[0]) {
                for (int p : s.tables()) {
                    if (checked.contains(p)) continue;
                    checked.add(p);
                    if (!checkTable(s, p, s.has(p + 1))) break;
                }
            }
            result.tempBytesPeak = Math.max(result.tempBytesPeak, s.spoolBytesPeak());
            result.unread.addAll(s.unread()); // (a stream stopped at a violation names what it saw so far)
        }
    }

    // ---- roots -----------------------------------------------------------------------------

    /** The records found for the root(s) in one table (for the report; the kernel decides). */
    private static final class RootScan {
        final int discs;
        final java.util.List<PeerResult.Root> roots = new java.util.ArrayList<>();
        long count;
        long[] first; // {mover, opp, kind, lb, ub} of the first root found
        long unsettled; // roots whose kinds do not establish their value (PEER-ROOT-4)
        long[] firstUnsettled; // the first of those, as first

        RootScan(int discs) {
            this.discs = discs;
        }
    }

    private RootScan streamedScan;

    /** The root asked for (--root, else the initial position when table 4 is given), or null: the lowest table's records. */
    private long[] rootTarget(int lowest) {
        if (opt.root != null) return canon(PeerCodec.parsePosition(opt.root));
        return lowest == 4 ? canon(initial()) : null;
    }

    /**
     * The roots are scanned for the report, and the kernel concludes: the roots' rules
     * (PEER-ROOT-1..4, decided from what it saw itself) and the verdict.
     */
    private void conclude() throws IOException, PeerInputException {
        if (badRoot != null) throw badRoot;
        RootScan scan = new RootScan(-1);
        if (!done.isEmpty()) {
            int lowest = done.firstKey();
            long[] target = rootTarget(lowest);
            int discs = target == null ? lowest : Long.bitCount(target[0] | target[1]);
            if (target != null) {
                long[] raw = opt.root != null ? PeerCodec.parsePosition(opt.root) : initial();
                if (!new OthelloRules(6).isLegalPosition(raw[0], raw[1])) throw new IllegalArgumentException("root is not a legal 6×6 position: " + opt.root);
            }
            if (streamedScan != null) {
                scan = streamedScan;
            } else if (scanSource != null) {
                scan = done.containsKey(discs) ? scanTable(scanSource, discs, target) : new RootScan(discs);
            } else if (!done.containsKey(discs)) {
                scan = new RootScan(discs);
            } else {
                PeerInput in = PeerInput.detect(opt.input);
                try (PeerSource s = in.kind == PeerInput.Kind.DIRECTORY ? new DirectorySource(in.path)
                        : in.kind == PeerInput.Kind.CSV ? CsvSource.read(in.path, opt.budgetBytes()) : new TarSource(in.path)) {
                    scan = scanTable(s, discs, target);
                }
            }
            result.roots.addAll(scan.roots);
            result.rootCount = scan.count;
            if (target != null && scan.count == 0)
                result.roots.add(new PeerResult.Root(PeerCodec.obf(target[0], target[1]), discs, 0, 0, 0, false));
        }
        PeerKernel.Conclusion c = kernel.conclude(scan.count, scan.first, scan.unsettled, scan.firstUnsettled);
        result.violation = PeerViolation.first(result.violation, PairChecker.violation(c.finding()));
        result.rootValue = c.rootValue();
        result.rootOpen = c.rootOpen();
        result.conclude(c);
    }

    static long[] initial() {
        // SPEC §7.1, N = 6: White on (2,2), (3,3); Black, to move, on (2,3), (3,2).
        return new long[] {(1L << 15) | (1L << 20), (1L << 14) | (1L << 21)};
    }

    private static long[] canon(long[] p) {
        long[] c = new long[2];
        PeerCodec.canonical(p[0], p[1], c);
        return c;
    }

    private static RootScan scanTable(PeerSource s, int discs, long[] target) throws IOException {
        RootScan scan = new RootScan(discs);
        long[] pos = new long[2];
        byte[] rec = new byte[PeerCodec.RECORD_BYTES];
        try (InputStream in = s.open(discs)) {
            while (PairChecker.readFully(in, rec, 0, rec.length) == rec.length) {
                if (!PeerCodec.decodeKey(rec, 0, pos)) continue;
                if (target != null && (pos[0] != target[0] || pos[1] != target[1])) continue;
                int kind = PeerCodec.symbol(rec[9]);
                scan.count++;
                int lb = PeerCodec.symbol(rec[10]) - PeerCodec.MAX_VALUE, ub = PeerCodec.symbol(rec[11]) - PeerCodec.MAX_VALUE;
                if (scan.first == null) scan.first = new long[] {pos[0], pos[1], kind, lb, ub};
                if (PeerKernel.provenLower(kind, lb) != PeerKernel.provenUpper(kind, ub)) {
                    scan.unsettled++;
                    if (scan.firstUnsettled == null) scan.firstUnsettled = new long[] {pos[0], pos[1], kind, lb, ub};
                }
                if (scan.roots.size() < 20) {
                    scan.roots.add(new PeerResult.Root(PeerCodec.obf(pos[0], pos[1]), discs, kind,
                            PeerCodec.symbol(rec[10]) - PeerCodec.MAX_VALUE, PeerCodec.symbol(rec[11]) - PeerCodec.MAX_VALUE, true));
                }
                if (target != null) break;
            }
        }
        return scan;
    }

    // ---- restart state ---------------------------------------------------------------------

    /** Bumped whenever what a checkpoint vouches for, or how it is checked, changes. */
    static final String STATE_FORMAT = "peer-state 3";
    private final java.util.Map<Integer, String> tableHashes = new java.util.HashMap<>();

    /**
     * What a checkpoint of table n vouches for: the content of tables n and n+1 (their SHA-256, not
     * their path or size: a table replaced by another of the same size must be checked again), the
     * checker's version (with the commit it was built from: a checker built from other sources
     * checks again) and the state format. Null without --state (nothing to compare, no hashing).
     */
    private String fingerprint(PeerSource s, int n, boolean childGiven) throws IOException {
        if (opt.state == null) return null;
        String version = org.gamecert.verifier.cli.BuildInfo.verifier().describe();
        return STATE_FORMAT + "|verifier " + version + "|table " + n + " sha256:" + tableHash(s, n)
                + "|table " + (n + 1) + (childGiven ? " sha256:" + tableHash(s, n + 1) : " not given");
    }

    private String tableHash(PeerSource s, int n) throws IOException {
        String h = tableHashes.get(n);
        if (h != null) return h;
        // the JDK's own SHA-256, not a provider's code in this JVM registered (GC-2026-20)
        java.security.MessageDigest md = org.gamecert.verifier.kernel.TrustedJdk.sha256();
        byte[] buf = new byte[1 << 16];
        try (InputStream in = s.open(n)) {
            for (int r; (r = in.read(buf)) > 0; ) md.update(buf, 0, r);
        }
        StringBuilder hex = new StringBuilder();
        for (byte b : md.digest()) hex.append(String.format("%02x", b & 0xFF));
        tableHashes.put(n, h = hex.toString());
        return h;
    }

    private TableResult loadState(int n, String fp) throws IOException {
        if (opt.state == null) return null;
        Path f = opt.state.resolve("table-" + n + ".properties");
        if (!Files.isRegularFile(f)) return null;
        Properties p = new Properties();
        try (var r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        if (!fp.equals(p.getProperty("fingerprint"))) return null;
        TableResult t = new TableResult(n);
        t.records = Long.parseLong(p.getProperty("records"));
        t.region = Long.parseLong(p.getProperty("region"));
        t.auxiliary = Long.parseLong(p.getProperty("auxiliary"));
        t.frontierRecords = Long.parseLong(p.getProperty("frontier_records"));
        t.frontierChildren = Long.parseLong(p.getProperty("frontier_children"));
        t.contentSum = Long.parseLong(p.getProperty("content_sum"));
        t.passes = 0;
        return t;
    }

    private void saveState(int n, String fp, TableResult r, long contentSum) throws IOException {
        if (opt.state == null) return;
        Properties p = new Properties();
        p.setProperty("fingerprint", fp);
        p.setProperty("records", Long.toString(r.records));
        p.setProperty("region", Long.toString(r.region));
        p.setProperty("auxiliary", Long.toString(r.auxiliary));
        p.setProperty("frontier_records", Long.toString(r.frontierRecords));
        p.setProperty("frontier_children", Long.toString(r.frontierChildren));
        p.setProperty("content_sum", Long.toString(contentSum));
        Path f = opt.state.resolve("table-" + n + ".properties");
        Path t = opt.state.resolve("table-" + n + ".properties.tmp");
        try (var w = Files.newBufferedWriter(t, StandardCharsets.UTF_8)) {
            p.store(w, "peer 6x6 table " + n + " verified");
        }
        Files.move(t, f, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** Samples the heap in use, for the report's peak figure. */
    private static final class MemoryWatch extends Thread {
        volatile boolean running = true;
        volatile long peak;

        MemoryWatch() {
            setDaemon(true);
            setName("peer-heap-watch");
        }

        @Override
        public void run() {
            Runtime rt = Runtime.getRuntime();
            while (running) {
                peak = Math.max(peak, rt.totalMemory() - rt.freeMemory());
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        void stopWatch() {
            running = false;
            interrupt();
        }
    }
}
