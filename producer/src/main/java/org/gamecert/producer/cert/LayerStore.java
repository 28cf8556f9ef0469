package org.gamecert.producer.cert;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finished layers on disk in their final encoding, and (with checkpoints on) the extraction's
 * state before each layer, so that a run killed at any moment continues from the last layer
 * boundary and ends with the same certificate.
 *
 * <p>Files in the directory: {@code layer-D.blocks} (a finished layer, {@link CertificateWriter.LayerFileWriter}),
 * {@code needs-D.bin} (the sorted needs of layer D, {@link NeedFiles}), {@code run-D-K.bin} (sorted
 * runs of needs that outgrew memory, merged into a needs file at the end of the layer before) and
 * {@code checkpoint.txt}, which names everything else. Every file is written under a temporary name, forced to disk and renamed, the checkpoint
 * last; so the checkpoint always describes whole files, and a file it does not name is left over
 * from a run killed after it and is overwritten.
 */
public final class LayerStore implements Extractor.Store {
    static final String CHECKPOINT = "checkpoint.txt", MAGIC = "gamecert-solve-checkpoint 1";

    private final Path dir;
    private final String params;
    private final boolean checkpoints;
    private final int threads;
    /** The zstd level of the layer files (SPEC §13: fixed for the kind of proof). */
    private int zstdLevel = CertificateWriter.ZSTD_LEVEL;
    private final List<CertificateWriter.LayerFile> layers = new ArrayList<>();
    private long peakDiskBytes, needsBytes;
    /** Runs between writing a layer's needs file and its checkpoint: tests kill the run there. */
    Runnable betweenNeedsAndCheckpoint = () -> {};

    /**
     * @param params a digest of everything that determines the certificate (game, root, mode,
     *               producer version): a checkpoint made with other parameters is refused
     */
    public LayerStore(Path dir, String params, boolean checkpoints, int threads) {
        this.dir = dir;
        this.params = params;
        this.checkpoints = checkpoints;
        this.threads = threads;
    }

    /** Compresses the layers at {@code level} instead of {@link CertificateWriter#ZSTD_LEVEL}. */
    public LayerStore zstdLevel(int level) {
        zstdLevel = level;
        return this;
    }

    /** The finished layers so far, root layer first. */
    public List<CertificateWriter.LayerFile> layers() { return layers; }

    /** The most this store has held on disk at once (layer files and the needs file). */
    public long peakDiskBytes() { return peakDiskBytes; }

    private CertificateWriter.LayerFileWriter current;

    @Override public void entries(LayerEntries part) throws IOException {
        if (current == null) current = new CertificateWriter.LayerFileWriter(dir.resolve("layer-" + part.layer + ".blocks"), part.layer, threads, zstdLevel);
        current.append(part);
    }

    @Override public void layerEnd(int layer) throws IOException {
        if (current == null) return; // a layer of terminal positions only: no entry, no file
        try (CertificateWriter.LayerFileWriter w = current) {
            current = null;
            CertificateWriter.LayerFile f = w.finish();
            if (f != null) layers.add(f);
        }
        noteDisk();
    }

    /** Abandons the layer being written (after a failure); its partial file is removed. */
    public void abandon() throws IOException {
        if (current != null) current.close();
        current = null;
    }

    private void noteDisk() {
        long sum = needsBytes;
        for (CertificateWriter.LayerFile f : layers) sum += f.bytes;
        peakDiskBytes = Math.max(peakDiskBytes, sum);
    }

    @Override public void beforeLayer(Extractor.State s) throws IOException {
        String needsName = "needs-" + s.layer + ".bin";
        Path needs = dir.resolve(needsName);
        if (checkpoints && s.needs instanceof NeedFiles.InMemory) NeedFiles.write(((NeedFiles.InMemory) s.needs).needs, needs);
        else if (s.needs instanceof NeedFiles.InFile && !((NeedFiles.InFile) s.needs).path.equals(needs))
            throw new IllegalStateException("needs file " + ((NeedFiles.InFile) s.needs).path + " is not " + needs);
        needsBytes = Files.exists(needs) ? Files.size(needs) : 0;
        noteDisk();
        if (!checkpoints) {
            removeNeedsOtherThan(needsName);
            return;
        }
        betweenNeedsAndCheckpoint.run();
        StringBuilder c = new StringBuilder(MAGIC).append('\n');
        c.append("params ").append(params).append('\n');
        c.append("mode ").append(s.mode.name()).append('\n');
        c.append("layer ").append(s.layer).append('\n');
        c.append("root_layer ").append(s.rootLayer).append('\n');
        c.append("root_value ").append(s.rootValue).append('\n');
        c.append("root_move_canonical ").append(s.rootMoveCanonical).append('\n');
        c.append("root_canonical ").append(Long.toHexString(s.rootCanonMover)).append(' ')
                .append(Long.toHexString(s.rootCanonOpponent)).append('\n');
        c.append("entries ").append(s.entries).append('\n');
        c.append("region ").append(join(s.region)).append('\n');
        c.append("aux ").append(join(s.aux)).append('\n');
        c.append("proof_terminals ").append(join(s.proofTerminals)).append('\n');
        c.append("needs ").append(needsName).append(' ').append(s.needs.size()).append('\n');
        for (CertificateWriter.LayerFile f : layers)
            c.append("layer_file ").append(f.layer).append(' ').append(f.entries).append(' ').append(f.blocks).append(' ')
                    .append(f.bytes).append(' ').append(f.path.getFileName()).append('\n');
        byte[] text = c.toString().getBytes(StandardCharsets.UTF_8);
        writeAtomically(dir.resolve(CHECKPOINT), out -> out.write(text));
        // Only now does no checkpoint name the older needs files (a kill before this line resumes
        // from the previous checkpoint, which still needs them).
        removeNeedsOtherThan(needsName);
    }

    /** Removes the needs files of finished layers. */
    private void removeNeedsOtherThan(String keep) throws IOException {
        try (var files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String f = p.getFileName().toString();
                if (f.startsWith("needs-") && !f.equals(keep)) Files.deleteIfExists(p);
            }
        }
    }

    /**
     * The state saved in {@code dir}, with the finished layers it names restored into this store;
     * null when there is no checkpoint. A checkpoint of other parameters, or one whose files are
     * missing or of the wrong size, is an error (the message says which).
     */
    public Extractor.State load() throws IOException {
        Path cp = dir.resolve(CHECKPOINT);
        if (!Files.exists(cp)) return null;
        List<String> lines = Files.readAllLines(cp, StandardCharsets.UTF_8);
        // a search proof's checkpoint, of this version or an earlier one
        if (!lines.isEmpty() && lines.get(0).startsWith(SearchProof.MAGIC_PREFIX))
            throw new IOException("the checkpoint in " + dir + " was made for other parameters (--proof search); resume with the "
                    + "same ones, or use another --state directory");
        if (lines.isEmpty() || !lines.get(0).equals(MAGIC)) throw new IOException(cp + " is not a solve checkpoint");
        Map<String, String> kv = new LinkedHashMap<>();
        List<String> layerLines = new ArrayList<>();
        for (String l : lines.subList(1, lines.size())) {
            int sp = l.indexOf(' ');
            if (sp < 0) throw new IOException(cp + ": bad line '" + l + "'");
            if (l.startsWith("layer_file ")) layerLines.add(l.substring(sp + 1));
            else kv.put(l.substring(0, sp), l.substring(sp + 1));
        }
        if (!params.equals(kv.get("params")))
            throw new IOException("the checkpoint in " + dir + " was made for other parameters (game, root, mode or producer "
                    + "version); resume with the same ones, or use another --state directory");
        try {
            Extractor.State s = new Extractor.State();
            s.mode = Extractor.Mode.valueOf(kv.get("mode"));
            s.layer = Integer.parseInt(kv.get("layer"));
            s.rootLayer = Integer.parseInt(kv.get("root_layer"));
            s.rootValue = Integer.parseInt(kv.get("root_value"));
            s.rootMoveCanonical = Integer.parseInt(kv.get("root_move_canonical"));
            String[] rc = kv.get("root_canonical").split(" ");
            s.rootCanonMover = Long.parseUnsignedLong(rc[0], 16);
            s.rootCanonOpponent = Long.parseUnsignedLong(rc[1], 16);
            s.entries = Long.parseLong(kv.get("entries"));
            s.region = longs(kv.get("region"));
            s.aux = longs(kv.get("aux"));
            s.proofTerminals = longs(kv.get("proof_terminals"));
            String[] nf = kv.get("needs").split(" ");
            long n = Long.parseLong(nf[1]);
            Path needs = dir.resolve(nf[0]);
            if (!Files.isRegularFile(needs) || Files.size(needs) != (long) NeedFiles.RECORD * n)
                throw new IOException("the checkpoint's needs file " + needs + " is missing or of the wrong size");
            s.needs = new NeedFiles.InFile(needs, n);
            needsBytes = Files.size(needs);
            layers.clear();
            for (String l : layerLines) {
                String[] f = l.split(" ");
                Path p = dir.resolve(f[4]);
                long bytes = Long.parseLong(f[3]);
                if (!Files.isRegularFile(p) || Files.size(p) != bytes)
                    throw new IOException("the checkpoint's layer file " + p + " is missing or of the wrong size");
                layers.add(new CertificateWriter.LayerFile(Integer.parseInt(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]), bytes, p));
            }
            noteDisk();
            return s;
        } catch (RuntimeException e) {
            throw new IOException(cp + " is damaged: " + e);
        }
    }

    /** Removes every file this store writes (after the certificate is written). */
    public void clean() throws IOException {
        try (var files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String f = p.getFileName().toString();
                if (f.equals(CHECKPOINT) || f.startsWith(CHECKPOINT + ".") || f.startsWith("layer-") || f.startsWith("needs-")
                        || f.startsWith("run-") || f.equals("proof-log.bin"))
                    Files.deleteIfExists(p);
            }
        }
    }

    interface Writer { void write(OutputStream out) throws IOException; }

    static void writeAtomically(Path file, Writer w) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
             OutputStream os = new java.io.BufferedOutputStream(Channels.newOutputStream(ch), 1 << 20)) {
            w.write(os);
            os.flush();
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static String join(long[] a) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < a.length; i++) b.append(i == 0 ? "" : ",").append(a[i]);
        return b.toString();
    }

    private static long[] longs(String s) {
        String[] f = s.split(",");
        long[] a = new long[f.length];
        for (int i = 0; i < f.length; i++) a[i] = Long.parseLong(f[i]);
        return a;
    }
}
