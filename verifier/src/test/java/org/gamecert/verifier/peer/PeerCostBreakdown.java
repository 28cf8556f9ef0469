package org.gamecert.verifier.peer;

import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import org.gamecert.verifier.kernel.rules.OthelloRules;

/**
 * Where the per-record time of the check goes (benchmark aid, not a test): thread CPU time for
 * decoding, move generation with pass detection (OthelloRules), and canonical form + order key,
 * over the first records of a table. Args: tableFile [records].
 */
public final class PeerCostBreakdown {
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int max = args.length > 1 ? Integer.parseInt(args[1]) : 2_000_000;
        byte[] all;
        try (InputStream in = Files.newInputStream(file)) {
            all = in.readNBytes(max * 13);
        }
        int n = all.length / 13;
        long[] m = new long[n], o = new long[n];
        long[] pos = new long[2], can = new long[2];
        OthelloRules rules = new OthelloRules(6);
        ThreadMXBean tb = ManagementFactory.getThreadMXBean();
        for (int rep = 0; rep < 3; rep++) {
            long t0 = tb.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) {
                PeerCodec.decodeKey(all, i * 13, pos);
                m[i] = pos[0];
                o[i] = pos[1];
            }
            long t1 = tb.getCurrentThreadCpuTime();
            long sink = 0, children = 0;
            for (int i = 0; i < n; i++) {
                long moves = rules.legalMoves(m[i], o[i]);
                while (moves != 0) {
                    int sq = Long.numberOfTrailingZeros(moves);
                    moves &= moves - 1;
                    long f = rules.flips(m[i], o[i], sq);
                    long m2 = m[i] | f | (1L << sq), o2 = o[i] & ~f;
                    sink += rules.legalMoves(o2, m2) != 0 ? m2 : rules.legalMoves(m2, o2);
                    children++;
                }
            }
            long t2 = tb.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) {
                long moves = rules.legalMoves(m[i], o[i]);
                while (moves != 0) {
                    int sq = Long.numberOfTrailingZeros(moves);
                    moves &= moves - 1;
                    long f = rules.flips(m[i], o[i], sq);
                    PeerCodec.canonical(o[i] & ~f, m[i] | f | (1L << sq), can);
                    sink += PeerCodec.orderKey(can[0], can[1]);
                }
            }
            long t3 = tb.getCurrentThreadCpuTime();
            double per = 1e9 / n;
            System.out.printf("%,d records, %.1f children each: decode %.0f ns, moves+flips+pass test %.0f ns, canonical+order key %.0f ns (incl. moves+flips) per record  [%d]%n",
                    n, (double) children / n, (t1 - t0) / 1e0 / n, (t2 - t1) / 1e0 / n, (t3 - t2) / 1e0 / n, sink & 1);
        }
    }
}
