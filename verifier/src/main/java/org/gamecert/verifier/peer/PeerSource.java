package org.gamecert.verifier.peer;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A set of peer tables that can each be read, from the start, as often as needed. */
public interface PeerSource extends Closeable {
    Pattern TABLE_NAME = Pattern.compile("(?:.*/)?optimal_reopening_ab_table_all_(\\d+)\\.txt");

    /** What the input was recognised as, for the report. */
    String description();

    /** Disc counts of the tables given, ascending. */
    int[] tables();

    /** Size of table n in bytes, or −1 when not known in advance. */
    long byteSize(int n);

    /** Table n's bytes (13-byte records), from the start. */
    InputStream open(int n) throws IOException;

    /** Table n's bytes from its record of that index (a slice's first record, or the one before). */
    default InputStream openAt(int n, long record) throws IOException {
        InputStream in = open(n);
        try {
            in.skipNBytes(record * PeerCodec.RECORD_BYTES);
        } catch (IOException e) {
            in.close();
            throw e;
        }
        return in;
    }

    /**
     * Files or archive entries in the input that are neither a table nor SHA256SUMS: never read, so
     * never checked. The report names them (a table under an unexpected name would be one).
     */
    default java.util.List<String> unread() { return java.util.List.of(); }

    @Override
    default void close() throws IOException {}

    /** Disc count named by a table file name, or −1 when the name is not a table's. */
    static int tableNumber(String name) {
        Matcher m = TABLE_NAME.matcher(name);
        if (!m.matches()) return -1;
        String d = m.group(1);
        if (d.length() > 3) return Integer.MAX_VALUE;
        return Integer.parseInt(d);
    }

    static String tableFileName(int n) {
        return "optimal_reopening_ab_table_all_" + n + ".txt";
    }
}
