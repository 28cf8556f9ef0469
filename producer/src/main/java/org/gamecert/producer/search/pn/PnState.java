package org.gamecert.producer.search.pn;

import org.gamecert.producer.game.Loa;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

/**
 * The checkpoint of a {@link LoaPn} run ({@code --state DIR}): written between two slices, when the
 * table and the counters are the whole state of the search, so a run resumed from it continues as
 * the uninterrupted run would and writes the same certificate. One file, {@code loa-pn.ckpt}:
 * magic, the SHA-256 of what determines the certificate (header without the value, search rules:
 * another game, root or search is refused), which of the two searches run (the side to move
 * wins? it loses?), the nodes of a search gone, each search, a CRC-32. Written to a temporary file,
 * forced to disk and renamed into place, so a kill at any moment leaves the previous checkpoint or
 * the new one.
 */
public final class PnState {
    static final String FILE = "loa-pn.ckpt";
    private static final byte[] MAGIC = "GCLOAPN1".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final Path dir;
    private final byte[] digest;

    /** What a checkpoint gives back: the two searches (null: disproven, or not asked for) and the nodes of those gone. */
    public static final class Saved {
        public final LoaPn win, loss;
        public final long nodesGone;
        Saved(LoaPn win, LoaPn loss, long nodesGone) { this.win = win; this.loss = loss; this.nodesGone = nodesGone; }
    }

    /** Refused: a checkpoint made for another game, root or search. */
    public static final class Mismatch extends RuntimeException {
        Mismatch(String m) { super(m); }
    }

    public PnState(Path dir, byte[] determining) throws IOException {
        this.dir = Files.createDirectories(dir);
        try { digest = MessageDigest.getInstance("SHA-256").digest(determining); }
        catch (NoSuchAlgorithmException e) { throw new IllegalStateException(e); }
    }

    /** Both searches (null: none), between two slices of each. */
    public void save(LoaPn win, LoaPn loss, long nodesGone) throws IOException {
        Path tmp = dir.resolve(FILE + ".tmp");
        try (FileOutputStream fos = new FileOutputStream(tmp.toFile())) {
            CRC32 crc = new CRC32();
            DataOutputStream out = new DataOutputStream(new CheckedOutputStream(new BufferedOutputStream(fos, 1 << 20), crc));
            out.write(MAGIC);
            out.write(digest);
            out.writeInt((win != null ? 1 : 0) | (loss != null ? 2 : 0));
            out.writeLong(nodesGone);
            if (win != null) win.write(out);
            if (loss != null) loss.write(out);
            out.flush();
            new DataOutputStream(fos).writeLong(crc.getValue());
            fos.getChannel().force(true);
        }
        Files.move(tmp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The checkpoint, or null when there is none. */
    public Saved load(Loa loa) throws IOException {
        return load(loa, LoaPn.SLICE);
    }

    /** The checkpoint of a search with slices of {@code slice} MID calls, or null when there is none. */
    public Saved load(Loa loa, long slice) throws IOException {
        Path f = dir.resolve(FILE);
        if (!Files.exists(f)) return null;
        long size = Files.size(f);
        if (size < MAGIC.length + 32 + 12 + 8) throw new IOException("checkpoint " + f + " is truncated");
        CRC32 crc = new CRC32();
        try (InputStream raw = Files.newInputStream(f)) {
            DataInputStream in = new DataInputStream(new CheckedInputStream(new BoundedInput(new BufferedInputStream(raw, 1 << 20), size - 8), crc));
            byte[] magic = in.readNBytes(MAGIC.length), d = in.readNBytes(32);
            if (!Arrays.equals(magic, MAGIC)) throw new IOException("checkpoint " + f + " is not a LOA proof-number checkpoint");
            if (!Arrays.equals(d, digest))
                throw new Mismatch("the checkpoint in " + dir + " is of another game, root or search: use another --state directory");
            int which = in.readInt();
            long gone = in.readLong();
            if ((which & ~3) != 0) throw new IOException("checkpoint " + f + " is damaged");
            LoaPn win = (which & 1) != 0 ? LoaPn.read(loa, in, slice) : null;
            LoaPn loss = (which & 2) != 0 ? LoaPn.read(loa, in, slice) : null;
            long stored;
            try (DataInputStream tail = new DataInputStream(Files.newInputStream(f))) {
                tail.skipNBytes(size - 8);
                stored = tail.readLong();
            }
            if (stored != crc.getValue()) throw new IOException("checkpoint " + f + " is damaged (CRC)");
            return new Saved(win, loss, gone);
        }
    }

    /** Removes the checkpoint (the certificate is written). */
    public void clear() throws IOException {
        Files.deleteIfExists(dir.resolve(FILE));
        Files.deleteIfExists(dir.resolve(FILE + ".tmp"));
        try (var s = Files.list(dir)) {
            if (s.findAny().isEmpty()) Files.delete(dir);
        }
    }

    /** Reads at most limit bytes (the CRC trailer is not part of the checked data). */
    private static final class BoundedInput extends java.io.FilterInputStream {
        private long left;
        BoundedInput(InputStream in, long limit) { super(in); left = limit; }
        @Override public int read() throws IOException {
            if (left <= 0) return -1;
            int b = super.read();
            if (b >= 0) left--;
            return b;
        }
        @Override public int read(byte[] b, int off, int len) throws IOException {
            if (left <= 0) return -1;
            int r = super.read(b, off, (int) Math.min(len, left));
            if (r > 0) left -= r;
            return r;
        }
    }
}
