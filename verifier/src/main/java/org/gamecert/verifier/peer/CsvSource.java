package org.gamecert.verifier.peer;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The peer's intermediate CSV form ({@code obf,disccount,nodekindcode,lowerbound,upperbound}).
 * Rows are unsorted there; they are turned into 13-byte records sorted by {@code encode_bb}, so
 * the same checks apply (a repeated position then shows as an order violation).
 */
public final class CsvSource {
    private CsvSource() {}

    static final String HEADER = "obf,disccount,nodekindcode,lowerbound,upperbound";

    /**
     * Reads the CSV whole into memory: about twice its size (a 13-byte record, its sort key and
     * object overhead per row of ~80 characters). Refused up front when that would not fit in
     * {@code maxMemory}, rather than ending in out-of-memory part way.
     */
    public static MemorySource read(Path csv, long maxMemory) throws IOException, PeerInputException {
        long need = 2 * Files.size(csv);
        if (need > maxMemory)
            throw new IllegalArgumentException(String.format("a CSV input is held in memory, about twice its size: %s needs about %d KiB, "
                    + "more than the memory budget (%d KiB, --max-memory); raise it (and the JVM heap) or give the tables instead",
                    csv.getFileName(), need >> 10, maxMemory >> 10));
        return read(csv);
    }

    public static MemorySource read(Path csv) throws IOException, PeerInputException {
        Map<Integer, LongList> keys = new HashMap<>();
        Map<Integer, java.util.List<byte[]>> recs = new HashMap<>();
        try (BufferedReader r = Files.newBufferedReader(csv, StandardCharsets.US_ASCII)) {
            String line = r.readLine();
            if (line == null || !line.trim().equals(HEADER)) throw new PeerInputException(PeerRules.CSV_1, -1, "line 1: expected the header '" + HEADER + "'");
            int lineNo = 1;
            while ((line = r.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) continue;
                String[] f = line.split(",", -1);
                if (f.length != 5) throw new PeerInputException(PeerRules.CSV_1, -1, "line " + lineNo + ": expected 5 fields, got " + f.length);
                long[] pos;
                int discs, kind, lb, ub;
                try {
                    String obf = f[0].trim();
                    if (!obf.endsWith(" X;") || obf.length() != 67) throw new IllegalArgumentException("obf must be 64 squares then ' X;'");
                    pos = PeerCodec.parsePosition(obf);
                    discs = Integer.parseInt(f[1].trim());
                    kind = Integer.parseInt(f[2].trim());
                    lb = Integer.parseInt(f[3].trim());
                    ub = Integer.parseInt(f[4].trim());
                } catch (IllegalArgumentException e) {
                    throw new PeerInputException(PeerRules.CSV_1, -1, "line " + lineNo + ": " + e.getMessage());
                }
                if (discs < 4 || discs > 35) throw new PeerInputException(PeerRules.TABLE_1, discs, "line " + lineNo + ": disc count " + discs + " outside 4..35");
                if (kind < 1 || kind > 31) throw new PeerInputException(PeerRules.REC_3, discs, "line " + lineNo + ": kind " + kind + " outside 1..31");
                if (lb < -36 || lb > 36 || ub < -36 || ub > 36) throw new PeerInputException(PeerRules.REC_3, discs, "line " + lineNo + ": bound outside −36..36");
                // The record goes to the table its disccount names; a wrong count is then PEER-LAY-1.
                byte[] rec = new byte[PeerCodec.RECORD_BYTES];
                PeerCodec.encodeRecord(pos[0], pos[1], kind, lb, ub, rec, 0);
                keys.computeIfAbsent(discs, k -> new LongList()).add(PeerCodec.orderKey(pos[0], pos[1]));
                recs.computeIfAbsent(discs, k -> new java.util.ArrayList<>()).add(rec);
            }
        }
        TreeMap<Integer, byte[]> tables = new TreeMap<>();
        for (Map.Entry<Integer, LongList> e : keys.entrySet()) {
            LongList k = e.getValue();
            java.util.List<byte[]> rs = recs.get(e.getKey());
            Integer[] idx = new Integer[k.size];
            for (int i = 0; i < idx.length; i++) idx[i] = i;
            java.util.Arrays.sort(idx, (a, b) -> Long.compareUnsigned(k.a[a], k.a[b]));
            byte[] out = new byte[idx.length * PeerCodec.RECORD_BYTES];
            for (int i = 0; i < idx.length; i++) System.arraycopy(rs.get(idx[i]), 0, out, i * PeerCodec.RECORD_BYTES, PeerCodec.RECORD_BYTES);
            tables.put(e.getKey(), out);
        }
        return new MemorySource(tables, "CSV (intermediate per-subproblem table)");
    }

    private static final class LongList {
        long[] a = new long[64];
        int size;

        void add(long v) {
            if (size == a.length) a = java.util.Arrays.copyOf(a, size * 2);
            a[size++] = v;
        }
    }
}
