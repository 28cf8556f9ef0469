package org.gamecert.verifier.kernel.format;

/**
 * A BLOCK record (SPEC §5.1) and where its data frame lies in the file. The u32 fields are kept
 * exact, as long: never clamped or narrowed, so that range checks and the hash chain (SPEC §3)
 * see the bytes as written. A user narrows one to int only after the rule that bounds it held.
 */
public final class BlockRecord implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    public final long index;      // 0-based block index
    public final long layer, count, rawLen, compLen; // u32 as read
    private final byte[] chain;   // stored h_i: never handed out (chain() gives a copy)
    public final long frameOffset; // file offset of the data frame

    BlockRecord(long index, byte[] rec, long frameOffset) {
        this.index = index;
        layer = Bytes.u32(rec, 0);
        count = Bytes.u32(rec, 4);
        rawLen = Bytes.u32(rec, 8);
        compLen = Bytes.u32(rec, 12);
        chain = java.util.Arrays.copyOfRange(rec, 16, 48);
        this.frameOffset = frameOffset;
    }

    private BlockRecord(BlockRecord r) {
        index = r.index;
        layer = r.layer;
        count = r.count;
        rawLen = r.rawLen;
        compLen = r.compLen;
        chain = r.chain.clone();
        frameOffset = r.frameOffset;
    }

    /**
     * A serial form is written from a copy: a stream that replaces objects as it writes them
     * would otherwise be handed the record's own chain array (R-HASH-1 checks against it).
     */
    private Object writeReplace() {
        return new BlockRecord(this);
    }

    /**
     * The stored chain value h_i, a copy: the record is shared with engines, and the kernel
     * decides by the value the file holds, whatever an engine writes into an array it was given.
     */
    public byte[] chain() {
        return chain.clone();
    }
}
