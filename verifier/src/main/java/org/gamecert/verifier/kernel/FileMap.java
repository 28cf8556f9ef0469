package org.gamecert.verifier.kernel;

import java.io.IOException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import org.gamecert.verifier.kernel.format.BlockRecord;
import org.gamecert.verifier.kernel.format.Bytes;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.format.FormatException;
import org.gamecert.verifier.kernel.format.Header;
import org.gamecert.verifier.kernel.rules.ConnectFourRules;
import org.gamecert.verifier.kernel.rules.Game;
import org.gamecert.verifier.kernel.rules.LoaRules;
import org.gamecert.verifier.kernel.rules.NoGoRules;
import org.gamecert.verifier.kernel.rules.OthelloRules;

/**
 * The reading kernel's pass over a file of modes 1–3 (SPEC §2–§4, §10.4): the header, every BLOCK
 * record in file order and the TRAILER, without decompressing a data frame. It checks the rules
 * that need no payload — R-CON-1 (frames), R-HDR-1, R-HDR-2, R-LAY-1, R-CON-2, and at the end
 * R-HASH-2 and R-HASH-3 from the stored chain values — and makes the map the slices are cut
 * from: the layers, their blocks, the records with their chain values. Each block's own chain
 * value (R-HASH-1) and payload are checked by the slice that holds it (SliceCheck), since h_i
 * depends only on h_(i-1), the record and the block's bytes. Immutable once made; one thread.
 */
public final class FileMap implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    // What the reading found (set by the constructor's reading, never after)
    private byte[] headerContent, h0;
    /** The records read, in file order (up to the first reading violation). */
    private final ArrayList<BlockRecord> records = new ArrayList<>();
    /**
     * SHA-256 of each block's data frame as the file stores it, by block: R-CON-3 is a rule of
     * that frame, and the chain value binds only its payload, so a slice takes no other frame.
     */
    private final ArrayList<byte[]> frameDigests = new ArrayList<>();
    /**
     * Layers in file order (nLayers of them): disc count, blocks [first, end), entries. Made
     * from the records (indexLayers), here and in another JVM: a serial form carries none.
     */
    private transient int[] discs, first, end;
    private transient long[] size;
    private transient int nLayers;
    /** The first violation the reading found (it stops there), or null. */
    private Violation readingViolation;
    /** The trailer (null when reading stopped before it) and its first violation, or null. */
    private long[][] trailerCensus;
    private long trailerRows;
    private Violation trailerViolation;
    private byte[] commitment;
    /**
     * The 128-bit key of the child facts' multiset hash (FactHash, SipHash's k0 and k1), drawn for
     * this check. The keys are read within this package only: no engine sees them.
     */
    final long factKey0, factKey1;
    /**
     * The key of the terminal keys' partitions (TerminalCount), apart from factKey: an engine
     * learns partitions (it routes keys by them), so it must learn nothing of factKey from them.
     */
    final long partitionKey;
    /**
     * Made for a check across JVMs (readForCluster): only then may the map, with its keys, be
     * serialized, and the Combiner take reports as given; the binding then detects faults, not
     * an engine that reads the keys (SPEC §11.1). A map read for one JVM never hands its keys out.
     */
    final boolean cluster;
    /**
     * The symmetries a canonical key ranges over (SPEC §7.4; 1, none, when the header's symmetry
     * is 0), and the root's canonical key (rootMover: the key's mover, not the header's
     * root_mover, which is the root in its own orientation). Computed once, here.
     */
    final int group;
    final long rootOcc, rootMover;
    /** SHA-256 of h_0 and the records; recomputed when a copy is read in another JVM. */
    private transient byte[] fingerprint;

    private FileMap(Container ct, boolean cluster) throws IOException, HeaderViolation {
        this.cluster = cluster;
        factKey0 = TrustedJdk.randomLong();
        factKey1 = TrustedJdk.randomLong();
        partitionKey = TrustedJdk.randomLong();
        readFile(ct);
        indexLayers();
        fingerprint = computeFingerprint();
        Header h = header();
        Game game = gameOf(h);
        group = h.symmetry == 0 ? 1 : game.symmetryCount;
        long[] images = new long[9]; // Game.canonical's: [8] is the key's mover
        rootOcc = game.canonical(h.rootMover, h.rootOpponent, group, images);
        rootMover = images[8];
    }

    private void readObject(java.io.ObjectInputStream in)
            throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        if (!cluster) // only a map read for a cluster is ever written (writeObject)
            throw new java.io.InvalidObjectException("a file map read for one JVM");
        indexLayers(); // from the records that arrived, as the fingerprint is
        fingerprint = computeFingerprint(); // of what arrived, whatever a sender claimed
    }

    private void writeObject(java.io.ObjectOutputStream out) throws IOException {
        if (!cluster) // its keys never leave a check made in one JVM
            throw new java.io.NotSerializableException("a file map read for one JVM");
        out.defaultWriteObject();
    }

    /**
     * Refuses a map a serial form left half read: readObject sets the fingerprint last, and a
     * stream may name the object again after readObject threw. Every kernel object made on a map
     * calls it first.
     */
    void requireWhole() {
        if (fingerprint == null) throw new EngineFault("a file map read back only in part");
    }

    /**
     * Reads the file's frames. When the header itself breaks a rule there is nothing to cut:
     * that violation is thrown as a HeaderViolation.
     */
    public static FileMap read(Container ct) throws IOException, HeaderViolation {
        return new FileMap(ct, false);
    }

    /**
     * For a check across JVMs: the map and the reports can travel, keys included, and what the
     * binding guarantees is then detection of faults (SPEC §11.1); the Result says so
     * (acrossJvms), and a part's conclusion carries no seal of this JVM.
     */
    public static FileMap readForCluster(Container ct) throws IOException, HeaderViolation {
        return new FileMap(ct, true);
    }

    /**
     * Entries declared per byte of the file, at most (SPEC §9.2, informative). Honest certificates
     * hold under one entry per byte (1.5 bytes an entry on 7×6 Connect Four, 1 to 10 on the
     * corpus); a block of 2^20 regular entries compresses to a few hundred bytes, so without this
     * bound a file of kilobytes could make the verifier hold gigabytes before a rule about the
     * whole file (the trailer's, the root's) fires. 64 leaves a margin of two orders of magnitude.
     */
    public static final long ENTRIES_PER_FILE_BYTE = 64;

    /**
     * The file declares more entries than it can hold, or (mode 4, RankedKernel) more than fit
     * in the memory given: an error, never a verdict (SPEC §2).
     */
    public static final class TooLarge extends RuntimeException {
        TooLarge(String message) {
            super(message, null, false, false);
        }
    }

    /** The header broke R-CON-1, R-HDR-1 or R-HDR-2: the check ends there (SPEC §9). */
    public static final class HeaderViolation extends Exception {
        public final Violation violation;

        HeaderViolation(Violation v) {
            super(v.toString(), null, false, false);
            violation = v;
        }
    }

    // ------------------------------------------------------------ what slices and engines read

    /** The header as read (a fresh copy each call: no one can change the kernel's). */
    public Header header() {
        try {
            return Header.parse(headerContent.clone());
        } catch (FormatException e) {
            throw new IllegalStateException("a header that parsed once", e);
        }
    }

    public int blocks() {
        return records.size();
    }

    public BlockRecord record(int b) {
        return records.get(b);
    }

    /**
     * Whether frame (the caller's copy) is block b's data frame as the file stores it: another
     * frame, even of the same payload, could hold where the stored one breaks R-CON-3.
     */
    boolean storedFrame(int b, byte[] frame) {
        return MessageDigest.isEqual(frameDigests.get(b), Chain.sha256().digest(frame));
    }

    /** The chain value before block b (h_(b-1), or h_0), the kernel's copy. */
    byte[] chainBefore(int b) {
        return b == 0 ? h0.clone() : records.get(b - 1).chain();
    }

    public int layers() {
        return nLayers;
    }

    public int discs(int li) {
        return discs[li];
    }

    public int firstBlock(int li) {
        return first[li];
    }

    public int endBlock(int li) {
        return end[li];
    }

    public long size(int li) {
        return size[li];
    }

    /** The layer holding the children of layer li's entries (disc count + 1), or -1. */
    public int below(int li) {
        return li > 0 && discs[li - 1] == discs[li] + 1 ? li - 1 : -1;
    }

    public Violation readingViolation() {
        return readingViolation;
    }

    /**
     * x comes before y in the order of checks (SPEC §9): by block, then entry; the reading
     * violation comes where its block was due, after every entry of the blocks before it.
     */
    boolean earlier(Violation x, Violation y) {
        return Violation.before(x.block() < 0 && x == readingViolation ? atBlock(x) : x,
                y.block() < 0 && y == readingViolation ? atBlock(y) : y);
    }

    private Violation atBlock(Violation v) {
        return new Violation(v.rule(), blocks(), v.layer(), -1, false, 0, 0, v.message());
    }

    Violation trailerViolation() {
        return trailerViolation;
    }

    long trailerRows() {
        return trailerRows;
    }

    long[] trailerRow(int r) {
        return trailerCensus[r].clone();
    }

    byte[] commitment() {
        return commitment == null ? null : commitment.clone();
    }

    public long entries() {
        long n = 0;
        for (long s : size) n += s;
        return n;
    }

    /** SHA-256 over h_0 and every record (their chain values included): what a slice adopted. */
    byte[] fingerprint() {
        return fingerprint.clone();
    }

    private byte[] computeFingerprint() {
        MessageDigest md = Chain.sha256();
        md.update(h0);
        byte[] b = new byte[48];
        for (BlockRecord r : records) {
            Bytes.putU64(b, 0, r.index);
            Bytes.putU64(b, 8, r.layer);
            Bytes.putU64(b, 16, r.count);
            Bytes.putU64(b, 24, r.rawLen);
            Bytes.putU64(b, 32, r.compLen);
            Bytes.putU64(b, 40, r.frameOffset);
            md.update(b);
            md.update(r.chain());
        }
        return md.digest();
    }

    /** The rules of the file's game (immutable). */
    public Game game() {
        return gameOf(header());
    }

    /** The rules of the header's game (SPEC §7). */
    static Game gameOf(Header h) {
        return h.family == Header.OTHELLO ? new OthelloRules(h.width)
                : h.family == Header.NOGO ? new NoGoRules(h.width)
                : h.family == Header.LOA ? new LoaRules(h.width)
                : new ConnectFourRules(h.width, h.height);
    }

    // ------------------------------------------------------------ the reading itself

    private void readFile(Container ct) throws IOException, HeaderViolation {
        Header h;
        try {
            headerContent = ct.readHeaderContent();
            h = Header.parse(headerContent);
        } catch (FormatException e) {
            throw new HeaderViolation(Violation.general(e.rule(), e.getMessage()));
        }
        h0 = Chain.sha(new byte[] {0}, headerContent);
        rootRules(h);
        long lastLayer = -1, declared = 0;
        BlockRecord rec = null;
        try {
            while (true) {
                rec = null;
                rec = ct.nextBlockRecord();
                if (rec == null) break;
                boolean ranked = h.mode == Header.WEAK_RANKED; // ranks lowest first (§9.2)
                if (lastLayer >= 0 && (ranked ? rec.layer < lastLayer : rec.layer > lastLayer))
                    throw new FormatException(Rule.LAY_1, "block " + rec.index + " has layer "
                            + rec.layer + " after a block of layer " + lastLayer
                            + (ranked ? " (ranks come lowest first, SPEC §9.2)" : ""));
                lastLayer = rec.layer;
                if (rec.count < 1 || rec.count > h.maxBlockEntries)
                    throw new FormatException(Rule.CON_2, "block " + rec.index + ": count "
                            + rec.count + " outside 1.." + h.maxBlockEntries);
                if (rec.rawLen > h.maxBlockBytes)
                    throw new FormatException(Rule.CON_2, "block " + rec.index + ": raw_len "
                            + rec.rawLen + " > max_block_bytes " + h.maxBlockBytes);
                if (rec.compLen > rec.rawLen + (rec.rawLen >> 8) + 128)
                    throw new FormatException(Rule.CON_2, "block " + rec.index + ": comp_len "
                            + rec.compLen + " > raw_len + raw_len/256 + 128");
                if (ranked && rec.layer > Integer.MAX_VALUE) // ranks are kept as int
                    throw new FormatException(Rule.LAY_1, "rank " + rec.layer
                            + " is not below 2^31");
                // Before anything is decompressed: the work a file can cause stays in
                // proportion to its size (SPEC §2, "Work against size").
                if (declared + rec.count > ENTRIES_PER_FILE_BYTE * ct.size)
                    throw new TooLarge("block " + rec.index + " would bring the entries"
                            + " declared to " + (declared + rec.count) + ", more than "
                            + ENTRIES_PER_FILE_BYTE + " per byte of the "
                            + ct.size + "-byte file: refused as a decompression bomb");
                declared += rec.count;
                frameDigests.add(Chain.sha256().digest(ct.readDataFrame(rec))); // R-CON-1
                records.add(rec);
            }
        } catch (FormatException e) {
            // a record that could not be framed names no block (it is where block
            // records.size() was due); its layer, limits or data frame name the block
            readingViolation = new Violation(e.rule(), rec == null ? -1 : rec.index,
                    rec == null ? -1 : rec.layer, -1, false, 0, 0, e.getMessage());
            return;
        }
        trailer(ct);
    }

    /** The layers: runs of consecutive records of one disc count (R-LAY-1 keeps them apart). */
    private void indexLayers() {
        discs = new int[67];
        first = new int[67];
        end = new int[67];
        size = new long[67];
        nLayers = 0;
        for (int b = 0; b < records.size(); b++) {
            BlockRecord rec = records.get(b);
            int layer = (int) Math.min(rec.layer, 65); // above 64: R-LAY-2 at its first entry
            if (nLayers == 0 || discs[nLayers - 1] != layer) {
                discs[nLayers] = layer;
                first[nLayers] = b;
                end[nLayers] = b;
                nLayers++;
            }
            end[nLayers - 1]++;
            size[nLayers - 1] += rec.count;
        }
    }

    /** R-HDR-2 (SPEC §4): the root is a legal, storable position that is not a leaf. */
    private static void rootRules(Header h) throws HeaderViolation {
        Game game = gameOf(h);
        long rm = h.rootMover, ro = h.rootOpponent;
        String why = (rm & ro) != 0 ? "root_mover and root_opponent overlap"
                : !game.isLegalPosition(rm, ro) ? "the root is not a legal position (R-POS-1)"
                : game.isTerminal(rm, ro) ? "the root is terminal"
                : game.legalMoveCodes(rm, ro) == 0 ? "the root's mover must pass"
                : h.leafEmpties > 0 && game.cells - Long.bitCount(rm | ro) <= h.leafEmpties
                        ? "the root has at most leaf_empties = " + h.leafEmpties
                                + " empty cells"
                : null;
        if (why != null)
            throw new HeaderViolation(new Violation(Rule.HDR_2, -1, -1, -1, (rm & ro) == 0, rm,
                    ro, why));
    }

    /** R-CON-1 (the frame), R-HASH-2, R-HASH-3 (SPEC §10.4, §3). */
    private void trailer(Container ct) throws IOException {
        long frameSize;
        try {
            frameSize = ct.trailerContentSize(true);
        } catch (FormatException e) {
            trailerViolation = Violation.general(e.rule(), e.getMessage());
            return;
        }
        long start = ct.position();
        byte[] head = ct.read(start, 20);
        long blockCount = Bytes.u64(head, 0), entryCount = Bytes.u64(head, 8);
        long rows = Bytes.u32(head, 16);
        if (rows != (frameSize - 52) / 20) {
            trailerViolation = Violation.general(Rule.CON_1, "TRAILER rows " + rows
                    + " but its size holds " + (frameSize - 52) / 20);
            return;
        }
        MessageDigest md = Chain.sha256();
        md.update((byte) 2);
        md.update(records.isEmpty() ? h0 : records.get(records.size() - 1).chain());
        md.update(head);
        long[][] census = rows <= 65 ? new long[(int) rows][3] : null;
        long off = start + 20, stop = start + frameSize - 32;
        int row = 0;
        while (off < stop) {
            int len = (int) Math.min(20 * 4096, stop - off);
            byte[] chunk = ct.read(off, len);
            md.update(chunk);
            if (census != null)
                for (int q = 0; q + 20 <= len; q += 20, row++) {
                    census[row][0] = Bytes.u32(chunk, q);
                    census[row][1] = Bytes.u64(chunk, q + 4);
                    census[row][2] = Bytes.u64(chunk, q + 12);
                }
            off += len;
        }
        byte[] stored = ct.read(stop, 32);
        commitment = md.digest();
        trailerCensus = census;
        trailerRows = rows;
        long entries = 0;
        for (BlockRecord r : records) entries += r.count;
        if (blockCount != records.size() || entryCount != entries)
            trailerViolation = Violation.general(Rule.HASH_2, "trailer counts "
                    + Long.toUnsignedString(blockCount) + " blocks, "
                    + Long.toUnsignedString(entryCount) + " entries; read " + records.size()
                    + " blocks, " + entries + " entries");
        else if (!Arrays.equals(stored, commitment))
            trailerViolation = Violation.general(Rule.HASH_3, "stored commitment "
                    + Chain.hex(stored) + " != computed " + Chain.hex(commitment));
    }
}
