package org.gamecert.spark.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.gamecert.spark.verify.SparkSliced.Answers;
import org.gamecert.spark.verify.SparkSliced.Records;
import org.gamecert.spark.verify.SparkSliced.Requests;
import org.gamecert.spark.verify.SparkSliced.Terminals;
import org.gamecert.verifier.kernel.TerminalCount;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/**
 * SparkSliced's blocks, without Spark: a slice's requests and terminal keys each land in exactly
 * one block, of the partition they belong to; the join of a partition's blocks answers every
 * request whose key the records hold, with its record (a key held twice: the smaller index),
 * and no other.
 */
class SparkJoinBlocksTest {
    static final int PARTS = 7;
    /** A check's join salt (any: the answers do not depend on it). */
    static final long SALT = 0x5EED_1234_ABCD_0042L;

    @Test
    void everyRequestIsAnsweredByItsKeysRecordWithTheSmallestIndexAndAbsentKeysAreNot() {
        Random rnd = new Random(42);
        int n = 5000;
        long[] occ = new long[n], mover = new long[n];
        for (int j = 0; j < n; j++) {
            occ[j] = rnd.nextInt(3000); // keys repeat among the requests, as children do
            mover[j] = occ[j] & rnd.nextInt(4);
        }
        // the records: keys with an even occ, each twice (indices i and i + 10000, in both
        // orders), split in two slices' blocks
        List<long[]> recs = new ArrayList<>();
        for (long o = 0; o < 3000; o += 2)
            for (long v = 0; v < 4; v++) {
                if ((o & v) != v) continue;
                long i = recs.size();
                recs.add(new long[] {o, v, o % 4 == 0 ? i : i + 10000});
                recs.add(new long[] {o, v, o % 4 == 0 ? i + 10000 : i});
            }
        List<List<Records>> recordsIn = new ArrayList<>();
        List<List<Requests>> requestsIn = new ArrayList<>();
        for (int q = 0; q < PARTS; q++) {
            recordsIn.add(new ArrayList<>());
            requestsIn.add(new ArrayList<>());
        }
        for (int half = 0; half < 2; half++) {
            long[][] r = new long[3][recs.size() / 2];
            for (int i = 0; i < r[0].length; i++)
                for (int c = 0; c < 3; c++) r[c][i] = recs.get(2 * i + half)[c];
            for (int q = 0; q < PARTS; q++) {
                List<Long> at = new ArrayList<>();
                for (int i = 0; i < r[0].length; i++)
                    if (SparkSliced.joinPartition(r[0][i], r[1][i], PARTS, SALT) == q) at.add((long) i);
                Records b = new Records(at.size());
                for (int k = 0; k < at.size(); k++) {
                    int i = (int) (long) at.get(k);
                    b.occ[k] = r[0][i];
                    b.mover[k] = r[1][i];
                    b.index[k] = r[2][i];
                    b.kind[k] = (byte) r[2][i];
                    b.lo[k] = (byte) (r[2][i] >> 8);
                    b.hi[k] = (byte) (r[2][i] >> 16);
                }
                recordsIn.get(q).add(b);
            }
        }
        int[] seen = new int[n];
        for (Tuple2<Integer, Requests> t : SparkSliced.requestBlocks(9, new long[][] {occ, mover},
                PARTS, SALT)) {
            Requests r = t._2();
            assertEquals(9, r.slice);
            assertTrue(r.j.length > 0, "an empty block of requests");
            for (int k = 0; k < r.j.length; k++) {
                seen[r.j[k]]++;
                assertEquals(occ[r.j[k]], r.occ[k]);
                assertEquals(mover[r.j[k]], r.mover[k]);
                assertEquals((int) t._1(), SparkSliced.joinPartition(r.occ[k], r.mover[k], PARTS, SALT));
            }
            requestsIn.get(t._1()).add(r);
        }
        for (int j = 0; j < n; j++) assertEquals(1, seen[j], "request " + j);
        long[] answered = new long[n];
        Arrays.fill(answered, -1);
        for (int q = 0; q < PARTS; q++)
            for (Tuple2<Integer, Answers> t
                    : SparkSliced.join(requestsIn.get(q), recordsIn.get(q))) {
                assertEquals(9, (int) t._1());
                Answers a = t._2();
                for (int k = 0; k < a.j.length; k++) {
                    assertEquals(-1, answered[a.j[k]], "answered twice: " + a.j[k]);
                    answered[a.j[k]] = a.index[k];
                    assertEquals((byte) a.index[k], a.kind[k]);
                    assertEquals((byte) (a.index[k] >> 8), a.lo[k]);
                    assertEquals((byte) (a.index[k] >> 16), a.hi[k]);
                }
            }
        for (int j = 0; j < n; j++) {
            if (occ[j] % 2 != 0) {
                assertEquals(-1, answered[j], "an absent key answered: " + j);
                continue;
            }
            long[] r = null;
            for (long[] x : recs)
                if (x[0] == occ[j] && x[1] == mover[j] && (r == null || x[2] < r[2])) r = x;
            assertEquals(r[2], answered[j], "request " + j);
            assertTrue(answered[j] < 10000, "the smaller index");
        }
    }

    /**
     * Keys chosen to share one join partition under one salt (as a file could choose them if the
     * partition were a fixed function of the key) spread over the partitions under another: no
     * task is handed a layer's rows.
     */
    @Test
    void keysThatShareAJoinPartitionUnderOneSaltSpreadUnderAnother() {
        int parts = 16, n = 4096;
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(17);
        long[] occ = new long[n], mover = new long[n];
        for (int k = 0; k < n; ) {
            long o = rnd.nextLong() & 0x1FFFFFFFFFFFFL, m = rnd.nextLong() & o;
            if (SparkSliced.joinPartition(o, m, parts, 0) != 0) continue;
            occ[k] = o;
            mover[k++] = m;
        }
        for (int t = 0; t < 20; t++) {
            long salt = rnd.nextLong();
            int[] load = new int[parts];
            for (int k = 0; k < n; k++)
                load[SparkSliced.joinPartition(occ[k], mover[k], parts, salt)]++;
            int most = Arrays.stream(load).max().getAsInt();
            assertTrue(most < n / 4, "under salt " + salt + " one partition took " + most + " of "
                    + n + " keys");
        }
    }

    @Test
    void everyTerminalKeyIsInOneBlockOfThePartitionItsRouteNames() {
        Random rnd = new Random(7);
        int n = 1000, parts = 5;
        long[][] t = new long[3][n];
        for (int k = 0; k < n; k++) {
            t[0][k] = rnd.nextLong();
            t[1][k] = k;
            t[2][k] = (long) rnd.nextInt(parts) << 1 | rnd.nextInt(2);
        }
        boolean[] seen = new boolean[n];
        List<Tuple2<Integer, Terminals>> blocks = SparkSliced.terminalBlocks(t, parts);
        assertTrue(blocks.size() <= parts);
        for (Tuple2<Integer, Terminals> b : blocks) {
            Terminals k = b._2();
            assertTrue(k.size() > 0, "an empty block of terminal keys");
            for (int i = 0; i < k.size(); i++) {
                int at = (int) k.mover[i];
                assertTrue(!seen[at], "a key twice");
                seen[at] = true;
                assertEquals(t[0][at], k.occ[i]);
                assertEquals(t[2][at], k.route[i]);
                assertEquals((int) b._1(), TerminalCount.partitionOf(k.route[i]));
            }
        }
        for (int k = 0; k < n; k++) assertTrue(seen[k], "key " + k);
    }
}
