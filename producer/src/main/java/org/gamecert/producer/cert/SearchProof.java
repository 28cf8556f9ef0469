package org.gamecert.producer.cert;

import org.gamecert.producer.game.Game;
import org.gamecert.producer.game.Othello;
import org.gamecert.producer.search.OthelloSolver;
import org.gamecert.producer.search.ProofLog;
import org.gamecert.producer.search.TranspositionTable;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A weak Othello certificate with 6-empty leaves (SPEC §9.1) that is the search's own proof
 * ({@code --proof search}): the root's value is searched once, by a solver that keeps its proof
 * ({@link ProofLog}), and the entries are read from that proof instead of being searched again
 * ({@link Extractor}'s way, which chooses every cut by its own rules and proves it). Measured on
 * FFO #40–#49, that extraction costs 0.2–1.5 times the plain search on top of it; this one reads.
 *
 * <p>From the root down, layer by layer: the root needs "V ≥ v" and "V ≤ v", each with the record
 * of the test that proved it. A need's entry takes its record's move (a lower bound: the cut) and
 * pushes on the children what that record's children proved: the cut child's record for a lower
 * bound, every child's for an upper bound. At 8 empties a failed-low record holds its 7-empty
 * children's cuts (no 7-empty node has a record: the verifier searches their 6-empty children
 * itself). Of the needs on one position in a layer the strongest bound of each side is kept, with
 * its record. Every bound comes from a record that proved at least as much, so the file verifies.
 *
 * <p>The certificate is a function of the root: the search runs on one thread with a table of its
 * own of {@link #tableMb} MiB for its root, whatever {@code --threads} and {@code --tt-mb} say, and everything
 * after it is processed in key order. It is larger than the extraction's (FFO #40–#49: see
 * README), which shares proofs between needs where the search did not.
 *
 * <p>Memory ({@link #spill}): the log keeps at most a budget of its pages in memory, the older ones
 * in a file, and once the search is done at most what the layers' needs leave of a budget for
 * both; a layer is read in chunks of positions in key order, each chunk's records first, in
 * increasing handle order (a forward pass over the file), then its positions in key order as
 * before, so the needs pushed, and the certificate, do not depend on the budget or the chunks.
 * Beyond their share of the budget a layer's needs go to the log's directory as sorted runs, merged
 * into one file in key order that the layer reads a chunk at a time (as {@link Extractor}'s do).
 * With {@link #checkpoints} the whole log is written to the file once the search is done, and
 * each layer's merged needs with a checkpoint before it is read; {@link #run} resumes from there.
 */
public final class SearchProof {
    /**
     * The search's table: a function of the root's empty cells alone, so that the certificate does
     * not depend on --tt-mb. Up to {@link #SMALL_TABLE_MAX_EMPTIES} empties the smaller one: on
     * FFO #40-#48 (20-25 empties) the plain search with 64 MiB searched 0.01-3 % more nodes than
     * with 256 MiB but took less CPU on each (the larger table's zeroing and cache misses cost more
     * than the nodes it saves), and a weak solve of #40-#44 0.91x the CPU and 77-370 MB less
     * memory (docs/benchmarks.md, "The search proof's table by the root's empties"). Beyond, the
     * searches of billions of nodes keep the larger table (and FFO #49-#59's certificates their
     * bytes).
     */
    public static final int SMALL_TABLE_MB = 64, LARGE_TABLE_MB = 256, SMALL_TABLE_MAX_EMPTIES = 25;

    /** The search's table in MiB for a root with {@code empties} empty cells. */
    public static int tableMb(int empties) {
        return empties <= SMALL_TABLE_MAX_EMPTIES ? SMALL_TABLE_MB : LARGE_TABLE_MB;
    }
    /**
     * The blocks' zstd level: zstd's default, not the extraction's 9. This proof is the fast one;
     * level 9 took 3.5 s of FFO #48's 12 s beyond its search, level 3 1.5 s, for 4.8 % more bytes.
     */
    public static final int ZSTD_LEVEL = 3;
    /** What determines the certificate besides the game, root and mode. */
    public static final String RULES = "search proof 3: MTD(f) from 0, one thread, a table of " + SMALL_TABLE_MB
            + " MiB up to " + SMALL_TABLE_MAX_EMPTIES + " empty cells at the root, " + LARGE_TABLE_MB + " MiB beyond; in each layer the strongest bound of each side with its record; unknown 7-empty cuts: the lowest square that reaches;"
            + " zstd level " + ZSTD_LEVEL;
    /** The leaves: positions with at most this many empty cells have no entry (the search's records start at 8). */
    public static final int LEAF_EMPTIES = 6;

    private final Othello game;
    private final PrintStream progress;
    private final long t0 = System.nanoTime();
    private ProofLog log;
    private OthelloSolver leafSolver;
    /** Spilling (null: the log stays in memory): the log's file, the memory its pages may hold, the memory a chunk's records may. */
    private Path logFile;
    private long logBytes = Long.MAX_VALUE, chunkBytes = 64L << 20;
    /** The memory the log's pages and the layers' needs share once the search is done (see {@link #spill}). */
    private long totalBytes = Long.MAX_VALUE;
    /**
     * The search's figures (on a resume, the previous run's, from the checkpoint); the reading's
     * nodes in all (on a resume, with the previous runs'); the log's size, its longs spilled
     * during the search, the reads of its file.
     */
    public long searchNodes, leafNodes, logLongs, logSpilledLongs, logFileReads, logFileBytes;
    public double searchSeconds;
    /** This run's reading (after the search, or from the checkpoint it resumed at): its seconds and 7-empty search nodes. */
    public double readSecondsThisRun;
    public long leafNodesThisRun;
    /** On a resume: the previous runs' reading before the checkpoint, in seconds (-1: the checkpoint does not say). */
    public double readSecondsBefore = -1;
    /** Bytes of the log's pages moved out of memory for the layers' needs (see {@link #spill}), and the most the layers' needs took. */
    public long logReleasedBytes, peakLayerBytes;
    /** The most the log's pages in memory and the layers' needs took together, as counted before each chunk of a layer. */
    public long peakLogAndLayerBytes;

    /** {@code progress}: one line per finished layer, or null. */
    public SearchProof(Othello game, PrintStream progress) {
        this.game = game;
        this.progress = progress;
    }

    /**
     * Keeps the search's proof log within {@code logBytes} of memory, writing the rest to
     * {@code file} ({@link ProofLog#ProofLog(Path, long)}), and reads the records a layer needs in
     * chunks of at most about {@code chunkBytes}. Neither changes the certificate.
     */
    public SearchProof spill(Path file, long logBytes, long chunkBytes) {
        this.logFile = file;
        this.logBytes = logBytes;
        this.chunkBytes = chunkBytes;
        return this;
    }

    /**
     * As {@link #spill(Path, long, long)}, and once the search is done the log's pages in memory
     * and the needs of the layers read from it share {@code totalBytes}: before each chunk of a
     * layer (and before each merge of the next layer's needs) the log keeps at most what the
     * needs leave of it, its oldest pages going to the file. A layer's needs beyond {@link
     * #needChunkLimit} go to sorted runs in the log's directory, merged back in key order
     * ({@link Needs}). Neither changes the certificate.
     */
    public SearchProof spill(Path file, long logBytes, long chunkBytes, long totalBytes) {
        spill(file, logBytes, chunkBytes);
        this.totalBytes = totalBytes;
        return this;
    }

    /**
     * The search under way, for progress lines (never the certificate): its nodes, the log's
     * size, and the root's MTD(f) tests and moves so far ({@link ProofLog#rootProgress}).
     */
    public static final class Progress {
        public double seconds;
        public long nodes, logBytes, logHeldBytes, logSpilledBytes;
        /** Tests finished, root moves finished in the test under way ("V >= b?"), the root's moves, and the root's value in [lo, hi]. */
        public int tests, movesDone, moves, lo, hi, b;
    }

    private volatile OthelloSolver searching;
    private volatile ProofLog searchingLog;

    /** Where the search is, read from another thread; null when no search is under way (before it, after it, on a resume). */
    public Progress searchProgress() {
        OthelloSolver s = searching;
        ProofLog l = searchingLog;
        if (s == null || l == null) return null;
        Progress p = new Progress();
        p.seconds = (System.nanoTime() - t0) / 1e9;
        p.nodes = s.nodes();
        p.logBytes = 8 * l.size();
        p.logHeldBytes = l.heldBytes();
        p.logSpilledBytes = l.spilledFileBytes();
        int[] r = l.rootProgress();
        if (r != null) { p.tests = r[0]; p.movesDone = r[1]; p.moves = r[2]; p.lo = r[3]; p.hi = r[4]; p.b = r[5]; }
        return p;
    }

    /**
     * Whether this proof can be made for a root: Othello, at least 8 empty cells (the search's
     * records start there), a move for the side to move (the root's record is then of the root
     * itself, whose position the reading knows: the log does not hold it).
     */
    public static boolean applies(Game game, long m, long o) {
        return game instanceof Othello && game.cells - Long.bitCount(m | o) >= LEAF_EMPTIES + 2 && game.moves(m, o) != 0;
    }

    /**
     * Checkpoints in {@code dir} (--state), which must be the directory of the log's file and of
     * {@code layers}' files: the whole log once the search is done, then before each layer its
     * needs, with the finished layers; {@link #run} resumes from the last one found there if it was
     * made with the same {@code params}. The certificate is the same bytes either way.
     */
    public SearchProof checkpoints(Path dir, String params, LayerStore layers) {
        this.stateDir = dir;
        this.params = params;
        this.layerStore = layers;
        return this;
    }

    private Path stateDir;
    private String params;
    private LayerStore layerStore;
    /** Set when run() resumed from a checkpoint: the layer it resumed at. */
    public int resumedAt = -1;
    static final String CHECKPOINT = LayerStore.CHECKPOINT, MAGIC_PREFIX = "gamecert-search-proof-checkpoint ", MAGIC = MAGIC_PREFIX + "4";

    /** Searches the root, then hands each layer of the certificate to the store. */
    public Extractor.State run(long rootMover, long rootOpponent, Extractor.Store store) throws IOException {
        Saved saved = stateDir == null ? null : load();
        // a checkpoint with no needs left: every layer was written, and the log (deleted before the file is written) not needed
        boolean allLayersWritten = saved != null && saved.needCount == 0;
        if (allLayersWritten && logFile != null) java.nio.file.Files.deleteIfExists(logFile);
        log = allLayersWritten || logFile == null ? new ProofLog()
                : saved != null ? ProofLog.open(logFile, saved.logLongs) : new ProofLog(logFile, logBytes);
        boolean done = false;
        try {
            Extractor.State s = run(rootMover, rootOpponent, store, log, saved);
            done = true;
            return s;
        } finally {
            if (!done && logFile != null) deleteRuns(logFile.toAbsolutePath().getParent());
            logFileReads = log.fileReads();
            logFileBytes = log.spilledFileBytes();
            logReleasedBytes = log.releasedBytes();
            log.close(done || stateDir == null); // the log goes before the file is written; kept for a resume
            log = null;
        }
    }

    /** Removes the needs' runs and merged files a failed run left (a resume starts from the checkpoint's own file). */
    private static void deleteRuns(Path dir) {
        try (var files = java.nio.file.Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator)
                if (p.getFileName().toString().startsWith("run-search-proof-needs-")) java.nio.file.Files.deleteIfExists(p);
        } catch (IOException e) {
            // best effort: the directory's own cleanup still sees them
        }
    }

    /** A checkpoint: the log's size, the search's figures, the state before layer {@code layer}, that layer's needs. */
    private static final class Saved {
        long logLongs, searchNodes, leafNodes, entries;
        double searchSeconds, readSeconds = -1;
        int layer, rootValue;
        long[] aux, needs;
        int needCount;
    }

    private Extractor.State run(long rootMover, long rootOpponent, Extractor.Store store, ProofLog log, Saved saved) throws IOException {
        int v;
        Extractor.State s = new Extractor.State();
        s.mode = Extractor.Mode.WEAK;
        s.rootLayer = game.discs(rootMover, rootOpponent);
        int rows = game.cells - s.rootLayer + 1;
        s.region = new long[rows];
        s.aux = new long[rows];
        s.proofTerminals = new long[rows];
        long[] canon = new long[2];
        int rootFrame = game.canonical(rootMover, rootOpponent, canon);
        s.rootCanonMover = canon[0];
        s.rootCanonOpponent = canon[1];
        Spare spare = new Spare();
        Needs cur;
        if (saved == null) {
            long rootMoves = game.moves(rootMover, rootOpponent);
            if (rootMoves == 0) throw new IllegalArgumentException("a root whose side to move must pass (see applies)");
            OthelloSolver solver = new OthelloSolver(game,
                    new TranspositionTable(tableMb(game.cells - game.discs(rootMover, rootOpponent))), log);
            log.watchRoot(rootMover, rootOpponent, game.cells - Long.bitCount(rootMover | rootOpponent), Long.bitCount(rootMoves),
                    game.uMin, game.uMax);
            searchingLog = log;
            searching = solver;
            try {
                v = solver.value(rootMover, rootOpponent); // the root as given: a plain search's tree
            } finally {
                searching = null;
                searchingLog = null;
            }
            searchNodes = solver.nodes();
            searchSeconds = (System.nanoTime() - t0) / 1e9;
            logLongs = log.size();
            logSpilledLongs = log.spilledLongs();
            if (progress != null)
                progress.printf(Locale.ROOT, "[%6.1fs] the root's value %d: %d nodes; its proof log %d MiB%s%n", searchSeconds, v,
                        searchNodes, logLongs * 8 >> 20, log.spilledLongs() == 0 ? ""
                                : String.format(Locale.ROOT, ", of which %d MiB in %s (%d MiB compressed)", log.spilledLongs() * 8 >> 20,
                                        logFile, log.spilledFileBytes() >> 20));
            cur = new Needs(2, spare);
            if (v > game.uMin) cur.lower(canon[0], canon[1], v, solver.proofOfLower(), rootFrame);
            if (v < game.uMax) cur.upper(canon[0], canon[1], v, solver.proofOfUpper(), rootFrame);
            solver = null; // its table: not kept through the reading by this frame's slot
            cur.merge();
            s.layer = s.rootLayer;
            if (stateDir != null) log.persist(); // the first checkpoint names it
        } else {
            v = saved.rootValue;
            searchNodes = saved.searchNodes;
            searchSeconds = saved.searchSeconds;
            leafNodes = saved.leafNodes;
            logLongs = saved.logLongs;
            readSecondsBefore = saved.readSeconds;
            s.layer = saved.layer;
            s.entries = saved.entries;
            System.arraycopy(saved.aux, 0, s.aux, 0, Math.min(rows, saved.aux.length));
            cur = new Needs(0, spare);
            cur.chunks = null;
            cur.tail = null;
            cur.s = saved.needs;
            cur.size = saved.needCount;
            resumedAt = saved.layer;
            if (progress != null)
                progress.printf(Locale.ROOT, "resuming from the checkpoint in %s: layer %d, %d finished layers%n", stateDir, saved.layer,
                        layerStore.layers().size());
        }
        s.rootValue = v;
        leafSolver = new OthelloSolver(game, new TranspositionTable(1));
        long read0 = System.nanoTime(), leaf0 = leafNodes;
        this.spare = spare;
        for (int d = s.layer; cur.size > 0; d++) {
            readSecondsThisRun = (System.nanoTime() - read0) / 1e9;
            if (stateDir != null && !(saved != null && d == saved.layer)) checkpoint(s, d, cur);
            long l0 = System.nanoTime(), n0 = leafNodes;
            // a position pushes about eight needs where it has an upper bound (FFO #45: 22 M needs from 2.8 M positions at 8 empties)
            Needs next = logFile == null || totalBytes == Long.MAX_VALUE ? new Needs(8L * cur.size, spare)
                    : new Needs(8L * cur.size, spare, logFile.toAbsolutePath().getParent(), "run-search-proof-needs-" + (d + 1),
                    needChunkLimit());
            int count = layer(d, cur, next, store);
            cur.done();
            // the merge's positions: at most one a need, four longs each
            fitLog(null, next, 32 * next.count());
            next.merge();
            runsSpilled += next.runs();
            needChunkBytes = Math.max(needChunkBytes, 8L * Needs.CHUNK * spare.chunksMade);
            s.aux[d - s.rootLayer] = count;
            s.entries += count;
            store.layerEnd(d);
            if (progress != null)
                progress.printf(Locale.ROOT, "[%6.1fs] layer %d done: %d positions in %.1f s, %d nodes searched; entries so far %d%n",
                        (System.nanoTime() - t0) / 1e9, d, count, (System.nanoTime() - l0) / 1e9, leafNodes - n0, s.entries);
            cur = next;
            s.layer = d + 1;
        }
        readSecondsThisRun = (System.nanoTime() - read0) / 1e9;
        leafNodesThisRun = leafNodes - leaf0;
        // every layer written: a last checkpoint, with no needs, so that a run killed once the log is gone (it goes before
        // the certificate is written, for the disk) resumes at the writing rather than finding no log
        if (stateDir != null && !(saved != null && s.layer == saved.layer)) checkpoint(s, s.layer, cur);
        return s;
    }

    private Spare spare;

    /**
     * The memory a layer's needs may take in chunks before they go to a sorted run: a quarter of
     * the needs' half of {@link #totalBytes} (the merge of a run takes about as much again for its
     * positions, and the layer being read its own), at least one chunk.
     */
    long needChunkLimit() {
        return Math.max(8L * Needs.CHUNK, totalBytes / 2 / 4);
    }

    /** Sorted runs of needs written to the spill directory (all layers), and the most memory the needs' chunks took. */
    public int runsSpilled;
    public long needChunkBytes;

    /**
     * Before a chunk of a layer, or a merge: the needs' memory now ({@code cur} and {@code next}
     * as far as they are made, the spare memory they share, the chunk's records) and
     * {@code extra} bytes about to be taken; the log keeps at most what that leaves of
     * {@link #totalBytes}, and of its own share.
     */
    private void fitLog(Needs cur, Needs next, long extra) {
        long layers = 8 * (spare.chunksMade * (long) Needs.CHUNK + length(spare.positions)
                + (cur == null ? 0 : length(cur.s)) + (next == null ? 0 : length(next.s)) + rec.length + keys.length)
                + 4L * recOff.length + extra;
        peakLayerBytes = Math.max(peakLayerBytes, layers);
        if (totalBytes != Long.MAX_VALUE && logFile != null) log.holdAtMost(Math.min(logBytes, totalBytes - layers));
        peakLogAndLayerBytes = Math.max(peakLogAndLayerBytes, layers + log.heldBytes());
    }

    private static long length(long[] a) { return a == null ? 0 : a.length; }

    /** Runs between writing a layer's needs file and its checkpoint: tests kill the run there. */
    Runnable betweenNeedsAndCheckpoint = () -> {};

    /** Before layer d: its needs (merged, in the order of the merge), then the checkpoint naming them and the finished layers. */
    private void checkpoint(Extractor.State s, int d, Needs cur) throws IOException {
        String needsName = "needs-search-proof-" + d + ".bin";
        long[] a = cur.s;
        int longs = 4 * cur.size;
        Path merged = cur.file;
        LayerStore.writeAtomically(stateDir.resolve(needsName), out -> {
            if (merged != null) { java.nio.file.Files.copy(merged, out); return; } // the same records, in key order
            java.io.DataOutputStream o = new java.io.DataOutputStream(out);
            for (int i = 0; i < longs; i++) o.writeLong(a[i]);
            o.flush();
        });
        betweenNeedsAndCheckpoint.run();
        StringBuilder c = new StringBuilder(MAGIC).append('\n');
        c.append("params ").append(params).append('\n');
        c.append("log ").append(logFile.getFileName()).append(' ').append(logLongs).append('\n');
        c.append("root_value ").append(s.rootValue).append('\n');
        c.append("search ").append(searchNodes).append(' ').append(searchSeconds).append('\n');
        c.append("leaf_nodes ").append(leafNodes).append('\n');
        // the reading's seconds before this checkpoint, all runs so far (a resumed run's summary), unless a checkpoint
        // resumed from did not say
        if (resumedAt < 0 || readSecondsBefore >= 0)
            c.append("read_seconds ").append(Math.max(0, readSecondsBefore) + readSecondsThisRun).append('\n');
        c.append("layer ").append(d).append('\n');
        c.append("entries ").append(s.entries).append('\n');
        StringBuilder aux = new StringBuilder();
        for (int i = 0; i < s.aux.length; i++) aux.append(i == 0 ? "" : ",").append(s.aux[i]);
        c.append("aux ").append(aux).append('\n');
        c.append("needs ").append(needsName).append(' ').append(cur.size).append('\n');
        for (CertificateWriter.LayerFile f : layerStore.layers())
            c.append("layer_file ").append(f.layer).append(' ').append(f.entries).append(' ').append(f.blocks).append(' ')
                    .append(f.bytes).append(' ').append(f.path.getFileName()).append('\n');
        byte[] text = c.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        LayerStore.writeAtomically(stateDir.resolve(CHECKPOINT), out -> out.write(text));
        try (var files = java.nio.file.Files.list(stateDir)) { // only now does no checkpoint name the older needs
            for (Path p : (Iterable<Path>) files::iterator) {
                String f = p.getFileName().toString();
                if (f.startsWith("needs-search-proof-") && !f.equals(needsName)) java.nio.file.Files.deleteIfExists(p);
            }
        }
    }

    /** The checkpoint in the state directory, its layers restored into the store; null if none. */
    private Saved load() throws IOException {
        Path cp = stateDir.resolve(CHECKPOINT);
        if (!java.nio.file.Files.exists(cp)) return null;
        java.util.List<String> lines = java.nio.file.Files.readAllLines(cp, java.nio.charset.StandardCharsets.UTF_8);
        // an earlier version's checkpoint is one, refused below as made for other parameters
        if (lines.isEmpty() || !(lines.get(0).startsWith(MAGIC_PREFIX) || lines.get(0).equals(LayerStore.MAGIC)))
            throw new IOException(cp + " is not a solve checkpoint");
        java.util.Map<String, String> kv = new java.util.HashMap<>();
        java.util.List<String> layerLines = new java.util.ArrayList<>();
        for (String l : lines.subList(1, lines.size())) {
            int sp = l.indexOf(' ');
            if (sp < 0) throw new IOException(cp + ": bad line '" + l + "'");
            if (l.startsWith("layer_file ")) layerLines.add(l.substring(sp + 1));
            else kv.put(l.substring(0, sp), l.substring(sp + 1));
        }
        if (!lines.get(0).equals(MAGIC) || !params.equals(kv.get("params")))
            throw new IOException("the checkpoint in " + stateDir + " was made for other parameters (game, root, mode, proof or "
                    + "producer version); resume with the same ones, or use another --state directory");
        try {
            Saved s = new Saved();
            String[] lg = kv.get("log").split(" ");
            if (!lg[0].equals(logFile.getFileName().toString())) throw new IOException("the checkpoint names another log: " + lg[0]);
            s.logLongs = Long.parseLong(lg[1]);
            s.rootValue = Integer.parseInt(kv.get("root_value"));
            String[] se = kv.get("search").split(" ");
            s.searchNodes = Long.parseLong(se[0]);
            s.searchSeconds = Double.parseDouble(se[1]);
            s.leafNodes = Long.parseLong(kv.get("leaf_nodes"));
            if (kv.containsKey("read_seconds")) s.readSeconds = Double.parseDouble(kv.get("read_seconds"));
            s.layer = Integer.parseInt(kv.get("layer"));
            s.entries = Long.parseLong(kv.get("entries"));
            String[] ax = kv.get("aux").split(",");
            s.aux = new long[ax.length];
            for (int i = 0; i < ax.length; i++) s.aux[i] = Long.parseLong(ax[i]);
            String[] nf = kv.get("needs").split(" ");
            s.needCount = Integer.parseInt(nf[1]);
            Path needs = stateDir.resolve(nf[0]);
            if (!java.nio.file.Files.isRegularFile(needs) || java.nio.file.Files.size(needs) != 32L * s.needCount)
                throw new IOException("the checkpoint's needs file " + needs + " is missing or of the wrong size");
            s.needs = new long[Math.max(16, 4 * s.needCount)];
            try (java.io.DataInputStream in = new java.io.DataInputStream(new java.io.BufferedInputStream(
                    java.nio.file.Files.newInputStream(needs), 1 << 20))) {
                for (int i = 0; i < 4 * s.needCount; i++) s.needs[i] = in.readLong();
            }
            java.util.List<CertificateWriter.LayerFile> layers = layerStore.layers();
            layers.clear();
            for (String l : layerLines) {
                String[] f = l.split(" ");
                Path p = stateDir.resolve(f[4]);
                long bytes = Long.parseLong(f[3]);
                if (!java.nio.file.Files.isRegularFile(p) || java.nio.file.Files.size(p) != bytes)
                    throw new IOException("the checkpoint's layer file " + p + " is missing or of the wrong size");
                layers.add(new CertificateWriter.LayerFile(Integer.parseInt(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]), bytes, p));
            }
            return s;
        } catch (RuntimeException e) {
            throw new IOException(cp + " is damaged: " + e);
        }
    }

    /**
     * The entries of one layer's needs, in key order, handed to the store a chunk at a time; their
     * children's needs go to {@code next}; returns the layer's entries. A part a chunk, not one
     * array of the whole layer: FFO #45's 7-empty layer alone took 157 MB of fresh memory in one.
     */
    private int layer(int d, Needs needs, Needs next, Extractor.Store store) throws IOException {
        needs.sort();
        needs.rewind();
        int empties = game.cells - d;
        long[] canon = new long[2];
        Game.Child child = new Game.Child();
        // The layer in chunks of positions, in key order; a chunk's records are read first, in
        // the order of their handles (the log's file forward), then its positions in key order.
        int chunk = (int) Math.max(1024, Math.min(MAX_CHUNK, chunkBytes / (2 * 8 * RECORD_LONGS + 2 * 8 + 4)));
        for (int k0 = 0; k0 < needs.size; k0 += chunk) {
            int k1 = (int) Math.min(needs.size, (long) k0 + chunk);
            // the chunk's entries (20 bytes a position) and its records at most
            fitLog(needs, next, 20L * (k1 - k0) + 8L * RECORD_LONGS * 2 * (k1 - k0));
            needs.load(k0, k1);
            fetch(needs, k0, k1, empties);
            LayerEntries part = new LayerEntries(d, k1 - k0);
            for (int k = k0; k < k1; k++) entry(needs, k, k0, empties, part, next, canon, child);
            store.entries(part);
        }
        return needs.size;
    }

    /** Records a chunk may hold: 3 + at most 33 children (Othello's most moves) + a leaf-cut word, rounded up. */
    private static final int RECORD_LONGS = 40;
    /** Positions a chunk holds at most: its references carry a position's index in 20 bits. */
    private static final int MAX_CHUNK = 1 << 19;
    /** A chunk's records, copied from the log, and for position k (from k0) record 2(k - k0) (lower) and +1 (upper)'s offset in it (-1: none). */
    private long[] rec = new long[1024], keys = new long[64];
    private int[] recOff = new int[64];

    /**
     * Reads the records of positions [k0, k1) in increasing handle order into {@link #rec}, each
     * as {position's mover, opponent, header, child words, leaf-cut word}: the log does not hold
     * the position, which is the need's key taken back to the record's frame by the need's
     * symmetry (the record is of the position its parent's record, or the root, named).
     */
    private void fetch(Needs needs, int k0, int k1, int empties) {
        int n = 2 * (k1 - k0), refs = 0;
        if (recOff.length < n) { recOff = new int[n]; keys = new long[n]; }
        java.util.Arrays.fill(recOff, 0, n, -1);
        for (int k = k0; k < k1; k++) {
            int i = needs.at(k), j = 2 * (k - k0);
            if (needs.lower(i) != Needs.NO_LOWER && empties != LEAF_EMPTIES + 1 && needs.lowerRef(i) >= 0)
                keys[refs++] = needs.lowerRef(i) << 20 | j;
            if (needs.upper(i) != Needs.NO_UPPER && empties > LEAF_EMPTIES + 1 && needs.upperRef(i) >= 0)
                keys[refs++] = needs.upperRef(i) << 20 | (j + 1);
        }
        java.util.Arrays.sort(keys, 0, refs);
        // One pass over the log: a spilled log is read a compressed frame at a time, so a pass over the headers first (to
        // size the records' room exactly) cost as many reads again. The room grows by half, kept from chunk to chunk, at
        // most to the records' bound the chunk's memory was counted with (fitLog).
        long bound = (long) RECORD_LONGS * refs;
        int len = 0;
        long last = -1;
        int lastOff = -1;
        for (int r = 0; r < refs; r++) {
            long h = keys[r] >>> 20;
            if (h != last) {
                int j = (int) (keys[r] & 0xFFFFF), i = needs.at(k0 + j / 2);
                int back = game.inverse((j & 1) == 0 ? needs.lowerFrame(i) : needs.upperFrame(i));
                long header = log.get(h);
                int c = recordLongs(header) - 3;
                if (len + 3 + c > rec.length)
                    rec = java.util.Arrays.copyOf(rec, (int) Math.min(Integer.MAX_VALUE - 8,
                            Math.max(len + 3 + c, Math.min(bound, rec.length + (long) rec.length / 2))));
                rec[len] = game.transform(back, needs.s[i]);
                rec[len + 1] = game.transform(back, needs.s[i + 1]);
                rec[len + 2] = header;
                for (int q = 0; q < c; q++) rec[len + 3 + q] = log.get(h + 1 + q);
                lastOff = len;
                last = h;
                len += 3 + c;
            }
            recOff[(int) (keys[r] & 0xFFFFF)] = lastOff;
        }
    }

    /** The longs a record takes in {@link #rec}: the position, its header, its child words and leaf-cut word. */
    private static int recordLongs(long header) {
        int c = ProofLog.children(header) + (ProofLog.hasLeafCuts(header) ? 1 : 0);
        if (3 + c > RECORD_LONGS) throw new IllegalStateException("internal error: a record of " + c + " children");
        return 3 + c;
    }

    /** Position k's entry, at k - k0 in its chunk's part (k0: the chunk's first); its children's needs go to {@code next}. */
    private void entry(Needs needs, int k, int k0, int empties, LayerEntries part, Needs next, long[] canon, Game.Child child) {
        int i = needs.at(k), at = k - k0;
        long m = needs.s[i], o = needs.s[i + 1];
        part.mover[at] = m;
        part.opponent[at] = o;
        int kinds = 0;
        if (needs.lower(i) != Needs.NO_LOWER) {
            int b = needs.lower(i);
            kinds |= Kinds.C;
            part.value1[at] = (byte) b;
            part.move[at] = (byte) (empties == LEAF_EMPTIES + 1 ? leafParentCut(m, o, b, (int) needs.lowerRef(i), child)
                    : cut(recOff[2 * at], b, next, canon, child));
        }
        if (needs.upper(i) != Needs.NO_UPPER) {
            int b = needs.upper(i);
            kinds |= Kinds.A;
            part.value2[at] = (byte) b;
            if (empties > LEAF_EMPTIES + 1) allBelow(recOff[2 * at + 1], b, next, canon, child);
        }
        part.kinds[at] = (byte) kinds;
    }

    /**
     * A lower bound b from its record, which failed high with at least b: its cut, in the entry's
     * (canonical) frame; pushes the cut child's need.
     */
    private int cut(int h, int b, Needs next, long[] canon, Game.Child child) {
        if (h < 0) throw new IllegalStateException("internal error: no record for a lower bound " + b);
        long[] rec = this.rec;
        long header = rec[h + 2];
        long rm = rec[h], ro = rec[h + 1];
        if (ProofLog.kind(header) != ProofLog.HIGH || ProofLog.value(header) < b)
            throw new IllegalStateException("internal error: the record does not prove the lower bound " + b);
        int g = game.canonical(rm, ro, canon);
        int move = ProofLog.move(header);
        // the position was rebuilt from the need's key and frame (the log does not hold it)
        if ((game.moves(rm, ro) >>> move & 1) == 0)
            throw new IllegalStateException("internal error: a recorded cut is not a move of the position read for it");
        long word = rec[h + 3];
        game.child(rm, ro, move, child);
        if (child.sign == 0) {
            if (child.terminalValue < b) throw new IllegalStateException("internal error: a recorded terminal cut falls short");
        } else if (child.sign < 0) pushAtMost(next, child.mover, child.opponent, -b, ProofLog.childHandle(word), canon);
        else pushAtLeast(next, child.mover, child.opponent, b, ProofLog.childHandle(word), -1, canon);
        return game.transformMove(g, move);
    }

    /** An upper bound b from its record, which failed low with at most b: every child's need. */
    private void allBelow(int h, int b, Needs next, long[] canon, Game.Child child) {
        if (h < 0) throw new IllegalStateException("internal error: no record for an upper bound " + b);
        long[] rec = this.rec;
        long header = rec[h + 2];
        if (ProofLog.kind(header) != ProofLog.LOW || ProofLog.value(header) > b)
            throw new IllegalStateException("internal error: the record does not prove the upper bound " + b);
        long rm = rec[h], ro = rec[h + 1];
        int n = ProofLog.children(header);
        long leafCuts = ProofLog.hasLeafCuts(header) ? rec[h + 3 + n] : 0;
        long moves = game.moves(rm, ro);
        if (Long.bitCount(moves) != n) throw new IllegalStateException("internal error: a failed-low record misses children");
        for (int q = 0; q < n; q++) {
            long word = rec[h + 3 + q];
            int move = ProofLog.childMove(word);
            game.child(rm, ro, move, child);
            if (child.sign == 0) {
                if (child.terminalValue > b) throw new IllegalStateException("internal error: a terminal move exceeds a recorded upper bound");
                continue;
            }
            if (child.sign > 0) { pushAtMost(next, child.mover, child.opponent, b, ProofLog.childHandle(word), canon); continue; }
            // The child's cut as the search met it (the record's frame), or -1.
            int cut = -1;
            if (leafCuts != 0) {
                int field = (int) (leafCuts >>> (7 * Long.bitCount(moves & ((1L << move) - 1))) & 0x7F);
                cut = field - 1;
            }
            pushAtLeast(next, child.mover, child.opponent, -b, ProofLog.childHandle(word), cut, canon);
        }
    }

    /**
     * The cut of a 7-empty C entry: the one its parent's record gave (already in this frame), else
     * the lowest square whose 6-empty child reaches b, by searching the leaves in square order.
     * Unknown only after a pass: an 8-empty record that failed high by a move leaving the opponent
     * no move names no cut for the 7-empty position after the pass.
     */
    private int leafParentCut(long m, long o, int b, int known, Game.Child child) {
        if (known >= 0) return known;
        for (long mv = game.moves(m, o); mv != 0; mv &= mv - 1) {
            int sq = Long.numberOfTrailingZeros(mv);
            game.child(m, o, sq, child);
            boolean reaches;
            if (child.sign == 0) reaches = child.terminalValue >= b;
            else {
                long n0 = leafSolver.nodes();
                int w = child.sign < 0 ? -leafSolver.search(child.mover, child.opponent, -b, -b + 1)
                        : leafSolver.search(child.mover, child.opponent, b - 1, b);
                leafNodes += leafSolver.nodes() - n0;
                reaches = w >= b;
            }
            if (reaches) return sq;
        }
        throw new IllegalStateException("internal error: no move reaches a recorded lower bound " + b);
    }

    /** Needs V(child) ≤ b, proved by record h (none below 8 empties). */
    private void pushAtMost(Needs next, long m, long o, int b, long h, long[] canon) {
        if (game.cells - Long.bitCount(m | o) <= LEAF_EMPTIES || b >= game.uMax) return;
        int g = game.canonical(m, o, canon);
        next.upper(canon[0], canon[1], b, h, g);
    }

    /** Needs V(child) ≥ b, proved by record h, or at 7 empties by the cut {@code cut} in (m, o)'s frame (-1: unknown). */
    private void pushAtLeast(Needs next, long m, long o, int b, long h, int cut, long[] canon) {
        int empties = game.cells - Long.bitCount(m | o);
        if (empties <= LEAF_EMPTIES || b <= game.uMin) return;
        int g = game.canonical(m, o, canon);
        long ref = empties == LEAF_EMPTIES + 1 ? (cut < 0 ? -1 : game.transformMove(g, cut)) : h;
        next.lower(canon[0], canon[1], b, ref, g);
    }

    /**
     * One layer's needs by canonical position: the strongest lower bound with its reference (a
     * record, or at 7 empties a cut square) and the strongest upper bound with its record; the
     * first of equal bounds stays (the layer above is processed in key order).
     *
     * <p>Two phases, because one big hash table costs a cache miss per need (FFO #45: 22 M needs on
     * 7.8 M positions at 7 empties, most of the reading's time). The needs are first appended to
     * buckets by their position's hash; {@link #merge} then merges each bucket's needs in a table
     * that fits the cache, in the order they came. The merged positions are the same whatever the
     * number of buckets (a position's needs all go to one bucket, in order), which only sizes the
     * work to the cache. {@link #sort} then puts the positions in key order where they lie, so that
     * the layer reads them in order too. Measured on FFO #45 (one run each): the reading took 13.6 s
     * with one hash table and a sort of indices, 6.3 s this way.
     */
    static final class Needs {
        static final int NO_LOWER = Integer.MIN_VALUE, NO_UPPER = Integer.MAX_VALUE;
        /** No reference (40 bits, as a handle: ProofLog.NONE). */
        private static final long NO_REF = ProofLog.NONE, LOW32 = 0xFFFF_FFFFL;
        /** About this many needs a bucket at most (as expected): its merge table then has 4-byte slots in at most 1 MiB. */
        private static final int BUCKET_NEEDS = 1 << 15;
        /**
         * A need: mover, opponent, and (an upper bound: bit 40; the bound + 128 in bits 32-39; its
         * reference, 40 bits, the low 32 in bits 0-31 and the high 8 in bits 44-51; in bits 41-43
         * its frame, the symmetry that takes the referenced record's position to the key).
         */
        private static final int NEED = 3, FRAME = 41, REF_HIGH = 44;
        private static final long UPPER = 1L << 40;
        /**
         * In a merged position's bounds word: the lower bound's frame, the upper bound's, and the
         * high 8 bits of the lower bound's reference and of the upper bound's (the low 32 are in
         * the references' word).
         */
        private static final int LOWER_FRAME = 16, UPPER_FRAME = 19, LOWER_REF_HIGH = 24, UPPER_REF_HIGH = 32;
        /** A merged position's bounds word: the lower bound with its frame and reference's high bits; the upper's. */
        private static final long LOWER_BITS = 0xFF00L | 7L << LOWER_FRAME | 0xFFL << LOWER_REF_HIGH,
                UPPER_BITS = 0xFFL | 7L << UPPER_FRAME | 0xFFL << UPPER_REF_HIGH;

        /**
         * Needs are appended in chunks of this many longs, which the layers pass on to each other
         * ({@link Spare}): fresh memory costs a page fault per 4 KiB, and growing arrays a copy.
         */
        static final int CHUNK = NEED * 1024;

        private final int bucketBits;
        private final Spare spare;
        /** Per bucket: its chunks in order, how many, its last chunk and how many longs that holds. */
        private long[][][] chunks;
        private int[] chunkCount, filled;
        private long[][] tail;
        /**
         * After {@link #merge}: per position, four longs from a base index: mover, opponent, bounds
         * (lower + 128 in bits 8-15, upper + 128 in bits 0-7, 0: none; their frames in bits 16-18
         * and 19-21; their references' high 8 bits in 24-31 and 32-39), references (the low 32
         * bits of the lower's in the low 32 bits, of the upper's in the high 32).
         */
        long[] s;
        int size;

        /**
         * {@code expected}: about how many needs will come; only the work's size depends on it.
         * {@code spare}: memory to take from and give back.
         */
        Needs(long expected, Spare spare) {
            this(expected, spare, null, null, Long.MAX_VALUE);
        }

        /**
         * As {@link #Needs(long, Spare)}, and beyond {@code limitBytes} of chunks the needs so far
         * are merged, sorted and written to {@code dir} as a run ({@code prefix}-N.bin); {@link
         * #merge} then merges the runs into one file in key order, which the layer reads a chunk at
         * a time ({@link #load}). A position's needs from different runs combine in the runs' order
         * as {@link #mergeNeed} combines them in arrival order, so the result is the same.
         */
        Needs(long expected, Spare spare, Path dir, String prefix, long limitBytes) {
            int bits = 0;
            // the buckets' first chunks in at most an eighth of the limit: only the work's size depends on the buckets
            while (bits < 12 && (expected >> bits) > BUCKET_NEEDS && (8L * CHUNK << (bits + 1)) <= limitBytes / 8) bits++;
            bucketBits = bits;
            this.spare = spare;
            this.dir = dir;
            this.prefix = prefix;
            this.limitChunks = Math.max(1, limitBytes / (8L * CHUNK));
            reset();
        }

        private void reset() {
            chunks = new long[1 << bucketBits][][];
            chunkCount = new int[1 << bucketBits];
            filled = new int[1 << bucketBits];
            java.util.Arrays.fill(filled, CHUNK); // no chunk yet: the first need takes one
            tail = new long[1 << bucketBits][];
            heldChunks = 0;
        }

        /** Spilling: the directory (null: never), the runs' name prefix, the chunks held before a run, those held now, the runs. */
        private final Path dir;
        private final String prefix;
        private final long limitChunks;
        private long heldChunks;
        private final java.util.List<Path> runFiles = new java.util.ArrayList<>();
        /** After {@link #merge} of spilled runs: the merged needs' file (4 longs a position, key order), and s's first position. */
        Path file;
        private int first;
        private java.nio.channels.FileChannel in;
        private java.nio.ByteBuffer buf;

        /** Runs merged at once at most (open files, and a 64 KiB buffer each). */
        static final int FAN_IN = 64;

        /** Sorted runs written for this layer. */
        int runs() { return runFiles.size(); }

        private static long hash(long km, long ko) {
            return km * 0x9E3779B97F4A7C15L ^ Long.rotateLeft(ko * 0xC2B2AE3D27D4EB4FL, 29);
        }

        /**
         * ref: a record's handle (below 2^40), a cut square, -1 or {@link ProofLog#NONE}; frame:
         * the symmetry (0-7) that takes the record's position to (km, ko).
         */
        void lower(long km, long ko, int v, long ref, int frame) {
            add(km, ko, (long) frame << FRAME | (long) (v + 128) << 32 | refBits(ref(ref)));
        }

        void upper(long km, long ko, int v, long ref, int frame) {
            add(km, ko, UPPER | (long) frame << FRAME | (long) (v + 128) << 32 | refBits(ref(ref)));
        }

        /** A reference in 40 bits: none (-1, or a child without a record) is NO_REF. */
        private static long ref(long ref) { return ref < 0 || ref >= NO_REF ? NO_REF : ref; }

        /** A 40-bit reference as a need word holds it. */
        private static long refBits(long ref) { return (ref & LOW32) | (ref >>> 32) << REF_HIGH; }

        /** A merged position's lower bound's reference from its bounds and references words (NO_REF: none). */
        private static long lowerRefOf(long bounds, long refs) { return (refs & LOW32) | (bounds >>> LOWER_REF_HIGH & 0xFF) << 32; }

        private static long upperRefOf(long bounds, long refs) { return refs >>> 32 | (bounds >>> UPPER_REF_HIGH & 0xFF) << 32; }

        private void add(long km, long ko, long need) {
            int b = bucketBits == 0 ? 0 : (int) (hash(km, ko) >>> (64 - bucketBits));
            int n = filled[b];
            if (n == CHUNK) n = newChunk(b);
            long[] a = tail[b];
            a[n] = km;
            a[n + 1] = ko;
            a[n + 2] = need;
            filled[b] = n + NEED;
        }

        private int newChunk(int b) {
            if (dir != null && heldChunks >= limitChunks) spillRun();
            heldChunks++;
            long[] a = spare.chunk();
            int c = chunkCount[b];
            if (chunks[b] == null) chunks[b] = new long[4][];
            else if (c == chunks[b].length) chunks[b] = java.util.Arrays.copyOf(chunks[b], 2 * c);
            chunks[b][c] = a;
            chunkCount[b] = c + 1;
            tail[b] = a;
            return 0;
        }

        /** The needs appended so far (before {@link #merge}). */
        long count() {
            long n = 0;
            if (chunks != null) for (int b = 0; b < chunks.length; b++) n += needs(b);
            return n;
        }

        /** The needs in bucket b. */
        private int needs(int b) { return chunkCount[b] == 0 ? 0 : ((chunkCount[b] - 1) * CHUNK + filled[b]) / NEED; }

        /**
         * Merges each bucket's needs by position, into {@link #s}; the chunks go back to the spare
         * memory. If runs were spilled, the rest goes to a run too and the runs are merged into
         * {@link #file}, {@link #size} its positions, which the layer reads in chunks ({@link #load}).
         */
        void merge() {
            if (runFiles.isEmpty()) { mergeChunks(); return; }
            try {
                if (count() > 0) spillRun();
                chunks = null;
                tail = null;
                // at most FAN_IN runs open at once: consecutive ones merged first, which keeps their order
                java.util.List<Path> runs = new java.util.ArrayList<>(runFiles);
                for (int pass = 0; runs.size() > FAN_IN; pass++) {
                    java.util.List<Path> merged = new java.util.ArrayList<>();
                    for (int i = 0; i < runs.size(); i += FAN_IN) {
                        java.util.List<Path> group = runs.subList(i, Math.min(runs.size(), i + FAN_IN));
                        Path m = dir.resolve(prefix + "-pass" + pass + "-" + merged.size() + ".bin");
                        mergeRuns(group, m);
                        for (Path r : group) java.nio.file.Files.deleteIfExists(r);
                        merged.add(m);
                    }
                    runs = merged;
                }
                file = dir.resolve(prefix + "-merged.bin");
                long n = mergeRuns(runs, file);
                if (n > (Integer.MAX_VALUE - 8) / 4) throw new OutOfMemoryError("a layer of the proof has more than 2^29 positions");
                size = (int) n;
                for (Path r : runs) java.nio.file.Files.deleteIfExists(r);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        /** The needs so far merged, sorted and written as the next run; the chunks go back to the spare memory. */
        private void spillRun() {
            mergeChunks();
            sort(s, 0, size - 1);
            Path run = dir.resolve(prefix + "-" + runFiles.size() + ".bin");
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(run, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.TRUNCATE_EXISTING, java.nio.file.StandardOpenOption.WRITE)) {
                java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1 << 16);
                for (int i = 0; i < 4 * size; ) {
                    b.clear();
                    int n = Math.min(4 * size - i, b.capacity() / 8);
                    b.asLongBuffer().put(s, i, n);
                    b.limit(8 * n);
                    while (b.hasRemaining()) ch.write(b);
                    i += n;
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            runFiles.add(run);
            spare.givePositions(s);
            s = null;
            size = 0;
            reset();
        }

        /**
         * Merges sorted runs (4 longs a position, key order) into {@code out}, a position's records
         * from several runs combined in the runs' order as {@link #mergeNeed} combines needs;
         * returns the positions written.
         */
        static long mergeRuns(java.util.List<Path> runs, Path out) throws IOException {
            int k = runs.size();
            java.io.DataInputStream[] ins = new java.io.DataInputStream[k];
            long[][] head = new long[k][4];
            int[] heap = new int[k];
            int live = 0;
            long written = 0;
            try (java.io.DataOutputStream o = new java.io.DataOutputStream(new java.io.BufferedOutputStream(
                    java.nio.file.Files.newOutputStream(out), 1 << 20))) {
                for (int r = 0; r < k; r++) {
                    ins[r] = new java.io.DataInputStream(new java.io.BufferedInputStream(
                            java.nio.file.Files.newInputStream(runs.get(r)), 1 << 16));
                    if (read(ins[r], head[r])) heap[live++] = r;
                }
                for (int i = live / 2 - 1; i >= 0; i--) siftDown(heap, live, i, head);
                long[] acc = new long[4];
                boolean have = false;
                while (live > 0) {
                    int r = heap[0];
                    long[] h = head[r];
                    if (have && (h[0] != acc[0] || h[1] != acc[1])) { write(o, acc); written++; have = false; }
                    if (!have) { System.arraycopy(h, 0, acc, 0, 4); have = true; }
                    else combine(acc, h);
                    if (!read(ins[r], h)) heap[0] = heap[--live];
                    if (live > 0) siftDown(heap, live, 0, head);
                }
                if (have) { write(o, acc); written++; }
            } finally {
                for (java.io.DataInputStream i : ins) if (i != null) i.close();
            }
            return written;
        }

        private static boolean read(java.io.DataInputStream in, long[] h) throws IOException {
            try {
                h[0] = in.readLong();
            } catch (java.io.EOFException e) {
                return false;
            }
            h[1] = in.readLong();
            h[2] = in.readLong();
            h[3] = in.readLong();
            return true;
        }

        private static void write(java.io.DataOutputStream o, long[] a) throws IOException {
            for (int i = 0; i < 4; i++) o.writeLong(a[i]);
        }

        /** A later run's record of the same position into acc: each bound as {@link #mergeNeed} merges a need's. */
        static void combine(long[] acc, long[] r) {
            int rl = (int) (r[2] >>> 8 & 0xFF), ru = (int) (r[2] & 0xFF);
            if (rl != 0) {
                int al = (int) (acc[2] >>> 8 & 0xFF);
                if (al == 0 || rl > al || (rl == al && lowerRefOf(acc[2], acc[3]) == NO_REF && lowerRefOf(r[2], r[3]) != NO_REF)) {
                    acc[2] = (acc[2] & ~LOWER_BITS) | (r[2] & LOWER_BITS); // the bound, its frame and its reference
                    acc[3] = (acc[3] & ~LOW32) | (r[3] & LOW32);
                }
            }
            if (ru != 0) {
                int au = (int) (acc[2] & 0xFF);
                if (au == 0 || ru < au) {
                    acc[2] = (acc[2] & ~UPPER_BITS) | (r[2] & UPPER_BITS);
                    acc[3] = (acc[3] & LOW32) | (r[3] & ~LOW32);
                }
            }
        }

        /** Whether run a's head comes before run b's: key order, then the earlier run. */
        private static boolean before(long[][] head, int a, int b) {
            long[] x = head[a], y = head[b];
            long ox = (x[0] | x[1]) ^ Long.MIN_VALUE, oy = (y[0] | y[1]) ^ Long.MIN_VALUE;
            if (ox != oy) return ox < oy;
            long mx = x[0] ^ Long.MIN_VALUE, my = y[0] ^ Long.MIN_VALUE;
            if (mx != my) return mx < my;
            return a < b;
        }

        private static void siftDown(int[] heap, int n, int i, long[][] head) {
            while (true) {
                int l = 2 * i + 1, r = l + 1, m = i;
                if (l < n && before(head, heap[l], heap[m])) m = l;
                if (r < n && before(head, heap[r], heap[m])) m = r;
                if (m == i) return;
                int t = heap[i]; heap[i] = heap[m]; heap[m] = t;
                i = m;
            }
        }

        /** The base index in s of position k (of those {@link #load}ed). */
        int at(int k) { return 4 * (k - first); }

        /** Before the layer's first {@link #load}. */
        void rewind() { first = 0; }

        /** Positions [k0, k1), in order after the previous ones: from the merged file into s (in memory: already there). */
        void load(int k0, int k1) {
            if (file == null) return;
            try {
                if (in == null) {
                    in = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.READ);
                    buf = java.nio.ByteBuffer.allocate(1 << 16);
                }
                int longs = 4 * (k1 - k0);
                if (s == null || s.length < longs) { spare.givePositions(s); s = spare.positions(longs); }
                first = k0;
                for (int i = 0; i < longs; ) {
                    buf.clear();
                    buf.limit(Math.min(buf.capacity(), 8 * (longs - i)));
                    while (buf.hasRemaining()) if (in.read(buf) < 0) throw new java.io.EOFException(file + " ends early");
                    buf.flip();
                    int n = buf.remaining() / 8;
                    buf.asLongBuffer().get(s, i, n);
                    i += n;
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        private void mergeChunks() {
            long count = 0;
            int most = 0;
            for (int b = 0; b < chunks.length; b++) { count += needs(b); most = Math.max(most, needs(b)); }
            size = 0;
            // room for a position a need, which the positions never exceed: on FFO #43 they were 0.90-0.95 of the
            // needs, where room for half of them grew three times a layer (copies the collector then had to take)
            s = spare.positions((int) Math.min(Integer.MAX_VALUE - 8, 4 * Math.max(16, count)));
            int[] table = new int[Integer.highestOneBit(Math.max(8, most)) * 4]; // at most half full
            for (int b = 0; b < chunks.length; b++) {
                int n = needs(b);
                if (n == 0) continue;
                int mask = Integer.highestOneBit(Math.max(8, n)) * 4 - 1;
                java.util.Arrays.fill(table, 0, mask + 1, 0);
                for (int c = 0; c < chunkCount[b]; c++) {
                    long[] a = chunks[b][c];
                    int end = c == chunkCount[b] - 1 ? filled[b] : CHUNK;
                    for (int j = 0; j < end; j += NEED) mergeNeed(a[j], a[j + 1], a[j + 2], table, mask);
                    spare.give(a);
                }
                chunks[b] = null;
            }
            chunks = null;
            tail = null;
        }

        /** Merges one need into the position's slot (found through the bucket's table, or made). */
        private void mergeNeed(long km, long ko, long need, int[] table, int mask) {
            long h = hash(km, ko);
            int i = (int) (h ^ h >>> 32) & mask, base;
            while (true) {
                int u = table[i];
                if (u == 0) { base = newPosition(km, ko); table[i] = base / 4 + 1; break; }
                base = (u - 1) * 4;
                if (s[base] == km && s[base + 1] == ko) break;
                i = (i + 1) & mask;
            }
            int v = (int) (need >>> 32 & 0xFF) - 128;
            long ref = (need & LOW32) | (need >>> REF_HIGH & 0xFF) << 32, frame = need >>> FRAME & 7;
            if ((need & UPPER) != 0) {
                if (v < upper(base)) {
                    s[base + 2] = (s[base + 2] & ~UPPER_BITS) | (v + 128) | frame << UPPER_FRAME | (ref >>> 32) << UPPER_REF_HIGH;
                    s[base + 3] = (s[base + 3] & LOW32) | ref << 32;
                }
            } else {
                int l = lower(base);
                if (v > l || (v == l && lowerRef(base) < 0 && ref != NO_REF)) {
                    s[base + 2] = (s[base + 2] & ~LOWER_BITS) | (long) (v + 128) << 8 | frame << LOWER_FRAME
                            | (ref >>> 32) << LOWER_REF_HIGH;
                    s[base + 3] = (s[base + 3] & ~LOW32) | (ref & LOW32);
                }
            }
        }

        /** After the layer: its positions' array goes to the spare memory for a later layer; its merged file is removed. */
        void done() {
            spare.givePositions(s);
            s = null;
            if (file != null) {
                try {
                    if (in != null) in.close();
                    in = null;
                    java.nio.file.Files.deleteIfExists(file);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        }

        /** A new position with no bound yet: its base index in s. */
        private int newPosition(long km, long ko) {
            int base = 4 * size;
            if (base + 4 > s.length) {
                if (s.length >= Integer.MAX_VALUE - 8) throw new OutOfMemoryError("a layer of the proof has more than 2^29 positions");
                s = java.util.Arrays.copyOf(s, (int) Math.min(Integer.MAX_VALUE - 8, s.length + (long) s.length / 2 / 4 * 4));
            }
            s[base] = km;
            s[base + 1] = ko;
            s[base + 2] = (NO_REF >>> 32) << LOWER_REF_HIGH | (NO_REF >>> 32) << UPPER_REF_HIGH; // no bound, no reference
            s[base + 3] = -1L;
            size++;
            return base;
        }

        int lower(int b) { int x = (int) (s[b + 2] >>> 8 & 0xFF); return x == 0 ? NO_LOWER : x - 128; }
        int upper(int b) { int x = (int) (s[b + 2] & 0xFF); return x == 0 ? NO_UPPER : x - 128; }
        long lowerRef(int b) { long r = lowerRefOf(s[b + 2], s[b + 3]); return r == NO_REF ? -1 : r; }
        long upperRef(int b) { long r = upperRefOf(s[b + 2], s[b + 3]); return r == NO_REF ? -1 : r; }
        /** The symmetry that takes the lower (upper) bound's record's position to the key. */
        int lowerFrame(int b) { return (int) (s[b + 2] >>> LOWER_FRAME & 7); }
        int upperFrame(int b) { return (int) (s[b + 2] >>> UPPER_FRAME & 7); }

        /**
         * Puts the positions in key order (SPEC §7.3: occupancy, then the mover's discs, unsigned),
         * moving them in s, so that the layer then reads s in order ({@link #sort(long[], int, int)}).
         */
        void sort() {
            if (file != null) return; // the merge of the runs wrote them in key order
            sort(s, 0, size - 1);
        }

        /**
         * Sorts records [lo, hi] (record numbers) by (occupancy, mover) unsigned; no two keys are
         * equal. An in-place most-significant-digit radix sort ("American flag sort"): a range's
         * records are split by the eight bits of the key (occupancy, then mover) that begin at
         * the highest one they do not all share, counted in one pass and moved to their parts by
         * swaps in another; each part, which then shares those bits too, is split the same way;
         * parts of at most {@link #SMALL_PART} records are sorted by insertion. A layer's
         * occupancies share most of their high bits, so fixed bytes would split nothing at first.
         * FFO #45: a quicksort on the records (comparing whole keys at each of 23 levels, 7.9 M
         * positions) took 2.05 s of the reading's 10 (docs/benchmarks.md).
         */
        static void sort(long[] s, int lo, int hi) {
            if (hi > lo) radix(s, lo, hi + 1, 0, new int[DEPTHS][RADIX + 1], new int[DEPTHS][RADIX]);
        }

        /** Each level splits on 8 bits below the ones its range shares: at most 16 levels on a 128-bit key. */
        private static final int RADIX = 256, DEPTHS = 17, SMALL_PART = 24;

        /** Sorts records [from, to); ends[depth] and nexts[depth] are this level's room. */
        private static void radix(long[] s, int from, int to, int depth, int[][] ends, int[][] nexts) {
            if (to - from <= SMALL_PART) { insertion(s, from, to); return; }
            long andOcc = -1, orOcc = 0, andMover = -1, orMover = 0;
            for (int i = from; i < to; i++) {
                long m = s[4 * i], o = m | s[4 * i + 1];
                andOcc &= o; orOcc |= o; andMover &= m; orMover |= m;
            }
            boolean byOcc = andOcc != orOcc;
            long differ = byOcc ? andOcc ^ orOcc : andMover ^ orMover;
            if (differ == 0) return; // one key (never: keys are distinct)
            int shift = Math.max(0, 63 - Long.numberOfLeadingZeros(differ) - 7);
            int[] end = ends[depth], next = nexts[depth];
            java.util.Arrays.fill(end, 0);
            for (int i = from; i < to; i++) end[part(s, i, byOcc, shift) + 1]++;
            end[0] = from;
            for (int b = 1; b <= RADIX; b++) end[b] += end[b - 1]; // part b: [end[b], end[b + 1])
            System.arraycopy(end, 0, next, 0, RADIX); // part b's next place to fill
            for (int b = 0; b < RADIX; b++) {
                int stop = end[b + 1];
                for (int i = next[b]; i < stop; i = next[b]) {
                    int p = part(s, i, byOcc, shift);
                    if (p == b) next[b]++;
                    else swap(s, i, next[p]++);
                }
            }
            for (int b = 0; b < RADIX; b++) if (end[b + 1] - end[b] > 1) radix(s, end[b], end[b + 1], depth + 1, ends, nexts);
        }

        /** Record i's part: the eight bits of its occupancy (or mover) from bit {@code shift} up. */
        private static int part(long[] s, int i, boolean byOcc, int shift) {
            long m = s[4 * i];
            return (int) ((byOcc ? m | s[4 * i + 1] : m) >>> shift) & 0xFF;
        }

        /** Insertion sort of records [from, to) by the whole key. */
        private static void insertion(long[] s, int from, int to) {
            for (int i = from + 1; i < to; i++) {
                for (int j = i; j > from; j--) {
                    long m = s[4 * (j - 1)];
                    if (!less(s, j, (m | s[4 * (j - 1) + 1]) ^ Long.MIN_VALUE, m ^ Long.MIN_VALUE)) break;
                    swap(s, j, j - 1);
                }
            }
        }

        /** Whether record i's key is below (occ, mov), both given with the sign bit flipped (signed order = unsigned order). */
        private static boolean less(long[] s, int i, long occ, long mov) {
            long m = s[4 * i], o = (m | s[4 * i + 1]) ^ Long.MIN_VALUE;
            return o < occ || (o == occ && (m ^ Long.MIN_VALUE) < mov);
        }


        private static void swap(long[] s, int i, int j) {
            for (int k = 0; k < 4; k++) { long t = s[4 * i + k]; s[4 * i + k] = s[4 * j + k]; s[4 * j + k] = t; }
        }
    }

    /**
     * Memory the layers hand on: the chunks of needs a merge has read, and the positions' array of
     * a layer done with (its contents need no clearing: a merge writes all four longs of each
     * position it adds). Only its reuse depends on it, never the certificate.
     */
    static final class Spare {
        private final java.util.ArrayDeque<long[]> chunks = new java.util.ArrayDeque<>();
        private long[] positions;
        /** Chunks made so far: all are kept (in a layer's needs, or here for the next), so their memory. */
        long chunksMade;

        long[] chunk() {
            long[] a = chunks.poll();
            if (a != null) return a;
            chunksMade++;
            return new long[Needs.CHUNK];
        }

        void give(long[] chunk) { chunks.push(chunk); }

        /** An array of at least {@code length} longs, of whatever contents. */
        long[] positions(int length) {
            long[] a = positions;
            if (a != null && a.length >= length) { positions = null; return a; }
            return new long[length];
        }

        void givePositions(long[] a) { if (a != null && (positions == null || a.length > positions.length)) positions = a; }
    }
}
