package org.gamecert.verifier.kernel.format;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.gamecert.verifier.kernel.Rule;

/**
 * The frame sequence of SPEC §2, read in order with explicit bounds: every size is checked against
 * the file's length and the header's limits before anything is allocated for it.
 */
public final class Container implements Closeable {
    public static final int BLOCK_MAGIC = 0x184D2A51, TRAILER_MAGIC = 0x184D2A52;
    public static final int ZSTD_MAGIC = 0xFD2FB528;
    static final int BLOCK_RECORD_SIZE = 48, TRAILER_MIN = 52, CENSUS_ROW = 20;

    private final FileChannel channel;
    public final long size; // the file's length
    private long pos;
    private long blockIndex;

    public Container(Path path) throws IOException {
        // the JDK's own channel: another file system's provider would run inside kernel reads
        if (path.getFileSystem() != java.nio.file.FileSystems.getDefault())
            throw new IOException(path + " is not on the default file system");
        requireRegularFile(path);
        channel = FileChannel.open(path, StandardOpenOption.READ);
        size = channel.size();
    }

    /** Refuses an existing path that is not a regular file (a FIFO's open may never end). */
    static void requireRegularFile(Path path) throws IOException {
        if (Files.exists(path) && !Files.isRegularFile(path))
            throw new IOException(path + " is not a regular file");
    }

    public long position() {
        return pos;
    }

    /** Reads exactly len bytes at offset (the caller has checked they lie within the file). */
    public byte[] read(long offset, int len) throws IOException {
        byte[] out = new byte[len];
        ByteBuffer buf = ByteBuffer.wrap(out);
        while (buf.hasRemaining()) {
            int n = channel.read(buf, offset + buf.position());
            if (n < 0)
                throw new IOException("unexpected end of file (was it changed while being read?)");
        }
        return out;
    }

    /** The HEADER frame's content (R-CON-1 for the frame). */
    public byte[] readHeaderContent() throws IOException, FormatException {
        long contentSize = Bytes.u32(read(4, 4), 0);
        if (contentSize < 41 || contentSize > 4203)
            throw new FormatException(Rule.CON_1, "HEADER frame content size " + contentSize
                    + " outside 41..4203");
        if (8 + contentSize > size)
            throw new FormatException(Rule.CON_1, "HEADER frame ends past the end of the file");
        pos = 8 + contentSize;
        blockIndex = 0; // the reading starts over: blocks are numbered from 0 (SPEC §3, h_i)
        return read(8, (int) contentSize);
    }

    /**
     * Reads the next BLOCK record (R-CON-1 for the record frame), or returns null when the next
     * frame is the TRAILER (positioned at its frame header).
     */
    public BlockRecord nextBlockRecord() throws IOException, FormatException {
        if (pos + 8 > size)
            throw new FormatException(Rule.CON_1, "the file ends at offset " + size
                    + " without a TRAILER frame");
        byte[] fh = read(pos, 8);
        int magic = (int) Bytes.u32(fh, 0);
        long contentSize = Bytes.u32(fh, 4);
        if (magic == TRAILER_MAGIC) return null;
        if (magic != BLOCK_MAGIC)
            throw new FormatException(Rule.CON_1, String.format(
                    "expected a BLOCK or TRAILER frame at offset %d, found magic 0x%08X", pos,
                    magic));
        if (contentSize != BLOCK_RECORD_SIZE)
            throw new FormatException(Rule.CON_1, "BLOCK record content size " + contentSize
                    + " != 48");
        if (pos + 8 + BLOCK_RECORD_SIZE > size)
            throw new FormatException(Rule.CON_1, "BLOCK record ends past the end of the file");
        byte[] rec = read(pos + 8, BLOCK_RECORD_SIZE);
        pos += 8 + BLOCK_RECORD_SIZE;
        return new BlockRecord(blockIndex++, rec, pos);
    }

    /**
     * Reads the data frame that follows a record whose limits (R-CON-2) have been checked, after
     * checking its magic and extent (R-CON-1).
     */
    public byte[] readDataFrame(BlockRecord r) throws IOException, FormatException {
        if (pos + 4 > size)
            throw new FormatException(Rule.CON_1, "the file ends before the data frame of block "
                    + r.index);
        int magic = (int) Bytes.u32(read(pos, 4), 0);
        if (magic != ZSTD_MAGIC)
            throw new FormatException(Rule.CON_1,
                    String.format("block %d: expected a zstd data frame, found magic 0x%08X",
                    r.index, magic));
        if (r.compLen < 4 || pos + r.compLen > size)
            throw new FormatException(Rule.CON_1, "block " + r.index + ": data frame of comp_len "
                    + r.compLen + " does not fit in the file");
        long at = pos;
        pos += r.compLen;
        return read(at, Math.toIntExact(r.compLen)); // R-CON-2 bounds it below 2^25
    }

    /**
     * The TRAILER frame's extent (R-CON-1): returns the content size; endsFile: the frame must end
     * exactly at the end of the file (false: bytes may follow it, SPEC §15.2: a part's commitment
     * is computed from what precedes them, whatever follows).
     */
    public long trailerContentSize(boolean endsFile) throws IOException, FormatException {
        long contentSize = Bytes.u32(read(pos + 4, 4), 0);
        if (contentSize < TRAILER_MIN || (contentSize - TRAILER_MIN) % CENSUS_ROW != 0)
            throw new FormatException(Rule.CON_1, "TRAILER content size " + contentSize
                    + " is not 52 + 20·rows");
        long end = pos + 8 + contentSize;
        if (end > size)
            throw new FormatException(Rule.CON_1, "TRAILER frame ends past the end of the file");
        if (endsFile && end < size)
            throw new FormatException(Rule.CON_1, (size - end) + " bytes follow the TRAILER frame");
        pos += 8;
        return contentSize;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
