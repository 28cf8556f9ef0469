package org.gamecert.verifier.peer;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeSet;

/**
 * Merges table sets as the peer's pipeline merges sub-solves: per position, kinds OR-ed, lower
 * bound max, upper bound min (PV wins over ALL'/PV' since it serves both). Benchmark aid: two
 * exhaustive solves make one larger genuine input. Args: out in1 in2 [in3 …].
 */
public final class PeerTableMerge {
    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        Files.createDirectories(out);
        TreeSet<Integer> tables = new TreeSet<>();
        for (int i = 1; i < args.length; i++) {
            try (var ds = Files.newDirectoryStream(Path.of(args[i]))) {
                for (Path p : ds) {
                    int n = PeerSource.tableNumber(p.getFileName().toString());
                    if (n >= 0) tables.add(n);
                }
            }
        }
        long total = 0;
        for (int n : tables) {
            byte[] acc = new byte[0];
            for (int i = 1; i < args.length; i++) {
                Path p = Path.of(args[i]).resolve(PeerSource.tableFileName(n));
                if (Files.exists(p)) acc = merge(acc, Files.readAllBytes(p));
            }
            Files.write(out.resolve(PeerSource.tableFileName(n)), acc);
            total += acc.length / 13;
        }
        System.out.println(total);
    }

    static byte[] merge(byte[] a, byte[] b) throws IOException {
        java.io.ByteArrayOutputStream o = new java.io.ByteArrayOutputStream(a.length + b.length);
        long[] pa = new long[2], pb = new long[2];
        int i = 0, j = 0;
        byte[] rec = new byte[13];
        while (i < a.length || j < b.length) {
            int c;
            if (i >= a.length) c = 1;
            else if (j >= b.length) c = -1;
            else {
                PeerCodec.decodeKey(a, i, pa);
                PeerCodec.decodeKey(b, j, pb);
                c = Long.compareUnsigned(PeerCodec.orderKey(pa[0], pa[1]), PeerCodec.orderKey(pb[0], pb[1]));
            }
            if (c < 0) {
                o.write(a, i, 13);
                i += 13;
            } else if (c > 0) {
                o.write(b, j, 13);
                j += 13;
            } else {
                int kind = PeerCodec.symbol(a[i + 9]) | PeerCodec.symbol(b[j + 9]);
                if ((kind & PeerCodec.PV) != 0) kind &= ~(PeerCodec.ALLP | PeerCodec.PVP);
                int lb = Math.max(PeerCodec.symbol(a[i + 10]), PeerCodec.symbol(b[j + 10])) - 36;
                int ub = Math.min(PeerCodec.symbol(a[i + 11]), PeerCodec.symbol(b[j + 11])) - 36;
                PeerCodec.encodeRecord(pa[0], pa[1], kind, lb, ub, rec, 0);
                o.write(rec, 0, 13);
                i += 13;
                j += 13;
            }
        }
        return o.toByteArray();
    }
}
