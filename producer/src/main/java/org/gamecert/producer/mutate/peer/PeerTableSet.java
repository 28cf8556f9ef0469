package org.gamecert.producer.mutate.peer;

import org.gamecert.producer.export.PeerTables;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A directory of peer 6×6 tables ({@code optimal_reopening_ab_table_all_{n}.txt}) held in memory,
 * with record accessors (13-byte records: 9 key characters, kind, lower, upper, newline).
 */
public final class PeerTableSet {
    static final Pattern NAME = Pattern.compile("optimal_reopening_ab_table_all_(\\d+)\\.txt");
    public static final int RECORD = PeerTables.RECORD;
    /** Alphabet symbol → index, -1 outside the alphabet. */
    private static final int[] INDEX = new int[256];
    static {
        java.util.Arrays.fill(INDEX, -1);
        for (int i = 0; i < PeerTables.ALPHABET.length; i++) INDEX[PeerTables.ALPHABET[i] & 0xFF] = i;
    }

    /** Disc count → table bytes. */
    public final TreeMap<Integer, byte[]> tables = new TreeMap<>();

    public static PeerTableSet load(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) throw new IOException("not a directory of peer tables: " + dir);
        PeerTableSet s = new PeerTableSet();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                Matcher m = NAME.matcher(p.getFileName().toString());
                if (m.matches()) s.tables.put(Integer.parseInt(m.group(1)), Files.readAllBytes(p));
            }
        }
        if (s.tables.isEmpty()) throw new IOException("no optimal_reopening_ab_table_all_{n}.txt in " + dir);
        return s;
    }

    public PeerTableSet copy() {
        PeerTableSet s = new PeerTableSet();
        for (Map.Entry<Integer, byte[]> e : tables.entrySet()) s.tables.put(e.getKey(), e.getValue().clone());
        return s;
    }

    /** Writes the tables into dir (created if needed); stale table files already there are removed. */
    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) if (NAME.matcher(p.getFileName().toString()).matches()) Files.delete(p);
        }
        for (Map.Entry<Integer, byte[]> e : tables.entrySet())
            Files.write(dir.resolve(PeerTables.fileName(e.getKey())), e.getValue());
    }

    public static int records(byte[] t) { return t.length / RECORD; }

    /** Alphabet index of the byte, -1 if it is not an alphabet symbol. */
    public static int symbol(byte b) { return INDEX[b & 0xFF]; }

    public static byte alphabet(int i) { return PeerTables.ALPHABET[i]; }

    public static int kind(byte[] t, int r) { return symbol(t[r * RECORD + 9]); }
    public static int lower(byte[] t, int r) { return symbol(t[r * RECORD + 10]) - 36; }
    public static int upper(byte[] t, int r) { return symbol(t[r * RECORD + 11]) - 36; }
    public static void setKind(byte[] t, int r, int kind) { t[r * RECORD + 9] = alphabet(kind); }
    public static void setLower(byte[] t, int r, int v) { t[r * RECORD + 10] = alphabet(v + 36); }
    public static void setUpper(byte[] t, int r, int v) { t[r * RECORD + 11] = alphabet(v + 36); }

    /** The record's position as compact 6×6 bitboards {mover, opponent} (bit r·6+c). */
    public static long[] position(byte[] t, int r) {
        long m = 0, o = 0;
        for (int ch = 0; ch < 9; ch++) {
            int v = symbol(t[r * RECORD + ch]);
            for (int k = 0; k < 4; k++) {
                int d = v % 3;
                v /= 3;
                int sq = 4 * ch + k;
                if (d == 1) m |= 1L << sq;
                else if (d == 2) o |= 1L << sq;
            }
        }
        return new long[]{m, o};
    }

    /** The record's sort integer ({@code encode_bb}). */
    public static long orderKey(byte[] t, int r) {
        long[] p = position(t, r);
        return PeerTables.encodeBb(p[0], p[1]);
    }

    /** Rewrites the record's nine key characters for the given (mover, opponent). */
    public static void setPosition(byte[] t, int r, long mover, long opp) {
        PeerTables.writeKey(mover, opp, t, r * RECORD);
    }

    /** A copy of the table with record r removed. */
    public static byte[] without(byte[] t, int r) {
        byte[] out = new byte[t.length - RECORD];
        System.arraycopy(t, 0, out, 0, r * RECORD);
        System.arraycopy(t, (r + 1) * RECORD, out, r * RECORD, t.length - (r + 1) * RECORD);
        return out;
    }

    /** Re-sorts the records by {@code encode_bb}, unsigned; false when two records share a key. */
    public static boolean resort(byte[] t) {
        int n = records(t);
        Integer[] idx = new Integer[n]; // a mutation step on small tables, not a hot loop
        long[] key = new long[n];
        for (int i = 0; i < n; i++) { idx[i] = i; key[i] = orderKey(t, i); }
        java.util.Arrays.sort(idx, (a, b) -> Long.compareUnsigned(key[a], key[b]));
        for (int i = 1; i < n; i++) if (key[idx[i]] == key[idx[i - 1]]) return false;
        byte[] copy = t.clone();
        for (int i = 0; i < n; i++) System.arraycopy(copy, idx[i] * RECORD, t, i * RECORD, RECORD);
        return true;
    }
}
