package org.gamecert.verifier.core.format;

/** A BLOCK record (SPEC §5.1) and where its data frame lies in the file. */
public final class BlockRecord {
    public final long index;      // 0-based block index
    public final int layer, count, rawLen, compLen; // as read (u32 fields above 2^31 are rejected by R-CON-2)
    public final long layerU32, countU32, rawLenU32, compLenU32;
    public final byte[] chain;    // stored h_i
    public final long frameOffset; // file offset of the data frame

    BlockRecord(long index, byte[] rec, long frameOffset) {
        this.index = index;
        layerU32 = Bytes.u32(rec, 0);
        countU32 = Bytes.u32(rec, 4);
        rawLenU32 = Bytes.u32(rec, 8);
        compLenU32 = Bytes.u32(rec, 12);
        layer = (int) Math.min(layerU32, Integer.MAX_VALUE);
        count = (int) Math.min(countU32, Integer.MAX_VALUE);
        rawLen = (int) Math.min(rawLenU32, Integer.MAX_VALUE);
        compLen = (int) Math.min(compLenU32, Integer.MAX_VALUE);
        chain = java.util.Arrays.copyOfRange(rec, 16, 48);
        this.frameOffset = frameOffset;
    }
}
