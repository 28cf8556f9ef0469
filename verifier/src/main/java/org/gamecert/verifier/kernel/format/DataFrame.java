package org.gamecert.verifier.kernel.format;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdException;
import org.gamecert.verifier.kernel.Rule;

/** A block's zstd data frame (SPEC §2, R-CON-3): header fields checked, then decompressed. */
public final class DataFrame {
    private static final long MAX_WINDOW = 1L << 24;

    private DataFrame() {}

    /** Checks the frame header (RFC 8878 §3.1.1.1) and decompresses exactly rawLen bytes. */
    public static byte[] decompress(byte[] frame, int rawLen, long block) throws FormatException {
        if (frame.length < 5) throw fail(block, "frame header truncated");
        int fhd = frame[4] & 0xFF;
        int fcsFlag = fhd >>> 6;
        boolean singleSegment = (fhd & 0x20) != 0;
        if ((fhd & 0x08) != 0) throw fail(block, "reserved bit set in the frame header");
        int dictFlag = fhd & 0x03;
        int p = 5;
        long window = -1;
        if (!singleSegment) {
            if (p >= frame.length) throw fail(block, "frame header truncated");
            int wd = frame[p++] & 0xFF;
            int log = 10 + (wd >>> 3);
            long base = 1L << log;
            window = base + (base / 8) * (wd & 7);
        }
        int dictSize = dictFlag == 3 ? 4 : dictFlag;
        long dictId = 0;
        if (p + dictSize > frame.length) throw fail(block, "frame header truncated");
        for (int i = 0; i < dictSize; i++) dictId |= (frame[p + i] & 0xFFL) << (8 * i);
        p += dictSize;
        if (dictId != 0) throw fail(block, "frame uses dictionary " + dictId);
        int fcsSize = fcsFlag == 0 ? (singleSegment ? 1 : 0) : 1 << fcsFlag;
        if (fcsSize == 0) throw fail(block, "Frame_Content_Size is absent");
        if (p + fcsSize > frame.length) throw fail(block, "frame header truncated");
        long fcs = 0;
        for (int i = 0; i < fcsSize; i++) fcs |= (frame[p + i] & 0xFFL) << (8 * i);
        if (fcsSize == 2) fcs += 256;
        if (fcs != rawLen)
            throw fail(block, "Frame_Content_Size " + Long.toUnsignedString(fcs) + " != raw_len "
                    + rawLen);
        if (singleSegment) window = fcs;
        if (window > MAX_WINDOW) throw fail(block, "Window_Size " + window + " > 2^24");
        try {
            long extent = Zstd.findFrameCompressedSize(frame, 0, frame.length);
            if (Zstd.isError(extent))
                throw fail(block, "malformed frame: " + Zstd.getErrorName(extent));
            if (extent != frame.length)
                throw fail(block, "the frame ends after " + extent + " of comp_len " + frame.length
                        + " bytes");
            byte[] out = new byte[rawLen];
            long n = Zstd.decompressByteArray(out, 0, rawLen, frame, 0, frame.length);
            if (Zstd.isError(n)) throw fail(block, "decompression failed: " + Zstd.getErrorName(n));
            if (n != rawLen)
                throw fail(block, "decompressed to " + n + " bytes, raw_len is " + rawLen);
            return out;
        } catch (ZstdException e) { // zstd-jni reports some errors by exception rather than by code
            throw fail(block, "malformed frame: " + e.getMessage());
        }
    }

    private static FormatException fail(long block, String message) {
        return new FormatException(Rule.CON_3, "block " + block + ": " + message);
    }
}
