package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.gamecert.verifier.kernel.FileMap;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.rules.Game;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC §11.1: the fact sums bind what an engine delivers only while the engine does not know the
 * FactHash key (k0, k1), a private field of the map. An engine that knew it could tell a parent's
 * slice any record and pay for the lies with extra fact counts on two entries of the layer below,
 * chosen so that the sums still agree modulo 2^61 - 1 (a 2-D lattice). The Forger here does just
 * that, with the key it is given: with the map's own fact key (read by reflection, outside the
 * SPEC's adversary) it gets a false certificate VERIFIED, which shows the forgery works; with the
 * key of the terminal partitions, the one key whose hashes an engine sees (it routes keys by
 * them; an earlier kernel keyed partitions by the fact key, and their remainders gave the key
 * away), it does not.
 */
class FactKeyStaysSecretFromTheEngineTest {
    @TempDir
    Path dir;

    static final long P61 = (1L << 61) - 1;
    static final BigInteger P = BigInteger.valueOf(P61);

    /** A private long field of the map (the keys): reflection, which SPEC §11.1's engine has not. */
    static long mapKey(FileMap map, String field) {
        try {
            java.lang.reflect.Field f = FileMap.class.getDeclaredField(field);
            f.setAccessible(true);
            return f.getLong(map);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** FactHash.record (package-private in the kernel), under the key (k0, k1). */
    static long record(long k0, long k1, long index, long occ, long mover, int kinds, int lo,
            int hi, int reached) {
        try {
            return (long) RECORD.invoke(null, k0, k1, index, occ, mover, kinds, lo, hi, reached);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static final java.lang.reflect.Method RECORD = recordMethod();

    private static java.lang.reflect.Method recordMethod() {
        try {
            java.lang.reflect.Method m = Class.forName("org.gamecert.verifier.kernel.FactHash")
                    .getDeclaredMethod("record", long.class, long.class, long.class, long.class,
                            long.class, int.class, int.class, int.class, int.class);
            m.setAccessible(true);
            return m;
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** x, y in [0, bound) with x a + y b = d (mod p), by a reduced 2-D lattice; or null. */
    static long[] pair(long a, long b, long d, long bound) {
        BigInteger A = BigInteger.valueOf(a), inv;
        try {
            inv = A.modInverse(P);
        } catch (ArithmeticException e) {
            return null;
        }
        BigInteger x0 = BigInteger.valueOf(d).multiply(inv).mod(P);
        BigInteger t = BigInteger.valueOf(b).multiply(inv).mod(P);
        BigInteger[] u = {P, BigInteger.ZERO}, w = {t.negate(), BigInteger.ONE}; // x + t y = 0
        while (true) { // Gauss reduction
            if (dot(u, u).compareTo(dot(w, w)) < 0) { BigInteger[] s = u; u = w; w = s; }
            BigInteger num = dot(u, w), den = dot(w, w);
            BigInteger mu = new java.math.BigDecimal(num).divide(new java.math.BigDecimal(den),
                    java.math.MathContext.DECIMAL128).setScale(0, java.math.RoundingMode.HALF_EVEN)
                    .toBigInteger();
            if (mu.signum() == 0) break;
            u = new BigInteger[] {u[0].subtract(mu.multiply(w[0])), u[1].subtract(mu.multiply(w[1]))};
            if (dot(u, u).compareTo(dot(w, w)) >= 0) break;
        }
        BigInteger half = BigInteger.valueOf(bound / 2);
        BigInteger cx = half.subtract(x0), cy = half;
        BigInteger det = u[0].multiply(w[1]).subtract(u[1].multiply(w[0]));
        double al = new java.math.BigDecimal(cx.multiply(w[1]).subtract(cy.multiply(w[0])))
                .divide(new java.math.BigDecimal(det), java.math.MathContext.DECIMAL128).doubleValue();
        double be = new java.math.BigDecimal(u[0].multiply(cy).subtract(u[1].multiply(cx)))
                .divide(new java.math.BigDecimal(det), java.math.MathContext.DECIMAL128).doubleValue();
        for (long i = Math.round(al) - 3; i <= Math.round(al) + 3; i++)
            for (long j = Math.round(be) - 3; j <= Math.round(be) + 3; j++) {
                BigInteger x = x0.add(u[0].multiply(BigInteger.valueOf(i))).add(w[0].multiply(BigInteger.valueOf(j)));
                BigInteger y = u[1].multiply(BigInteger.valueOf(i)).add(w[1].multiply(BigInteger.valueOf(j)));
                if (x.signum() >= 0 && y.signum() >= 0 && x.bitLength() < 63 && y.bitLength() < 63
                        && x.longValue() < bound && y.longValue() < bound) {
                    long check = BigInteger.valueOf(a).multiply(x).add(BigInteger.valueOf(b).multiply(y))
                            .subtract(BigInteger.valueOf(d)).mod(P).longValue();
                    if (check == 0) return new long[] {x.longValue(), y.longValue()};
                }
            }
        return null;
    }

    static BigInteger dot(BigInteger[] x, BigInteger[] y) {
        return x[0].multiply(y[0]).add(x[1].multiply(y[1]));
    }

    /**
     * A weak Othello 4x4 certificate whose one C entry's cut move is replaced by a worse legal
     * move (to a child that is neither terminal nor a leaf): R-CUT-1. The census is left as the
     * honest certificate's, so that the entry counts if it is taken as holding. Returns the
     * file, the entry's disc count and its new cut child (mover, opponent).
     */
    Object[] falseCut() throws IOException {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] start = s.othelloStart();
        TestCert t = s.build(start[0], start[1], 2);
        t.chunk = 1;
        long rootOcc = s.canonicalKey(t.rootMover, t.rootOpponent);
        long[] out = new long[3];
        for (TestCert.Entry e : t.entries) {
            if (e.occ == rootOcc || (e.kind & TestCert.C) == 0) continue;
            long opp = e.occ & ~e.mover;
            for (long legal = s.game.legalMoveCodes(e.mover, opp); legal != 0; legal &= legal - 1) {
                int code = Long.numberOfTrailingZeros(legal);
                int type = s.game.child(e.mover, opp, code, out);
                int empties = s.game.cells - Long.bitCount(out[0] | out[1]);
                if (code != e.move && type == Game.CHILD && empties > 1
                        && s.moveValue(e.mover, opp, code) < e.lo) {
                    e.move = code;
                    Path f = dir.resolve("false-cut.gsc");
                    Files.write(f, t.write());
                    return new Object[] {f, e.layer(), out[0], out[1], e.lo};
                }
            }
        }
        throw new AssertionError("no C entry to make false");
    }

    /**
     * An engine that tells, for the slices of the layer of the given disc count, every record
     * delivered for a request the predicate picks as one with bounds [b, b] (b = bound), and
     * pays for the lies with fact counts (no flags) on two entries of the layer below, computed
     * under the key (k0, k1) that keys(map) gives it. The facts lied about come from reached
     * parents (their terms have "reached" 1); the counts it adds carry no flag ("reached" 0).
     */
    static final class Forger extends KernelDriver {
        final long k0, k1;
        final int discs;
        final java.util.function.BiPredicate<Long, Long> lie;
        final int bound;
        final Map<Long, Long> extra = new HashMap<>();
        long d;
        int belowLayer = -1, lies;

        Forger(Path f, java.util.function.Function<FileMap, long[]> keys, int discs,
                java.util.function.BiPredicate<Long, Long> lie, int bound) throws IOException {
            super(f);
            long[] k = keys.apply(map);
            k0 = k[0];
            k1 = k[1];
            this.discs = discs;
            this.lie = lie;
            this.bound = bound;
        }

        @Override
        void answers(int li, int first, long[][] req, long[] index, byte[] kind, byte[] lo,
                byte[] hi) {
            if (map.discs(li) != discs) return;
            belowLayer = map.below(li);
            Table under;
            try {
                under = table(belowLayer);
            } catch (IOException e) {
                throw new AssertionError(e);
            }
            for (int r = 0; r < index.length; r++) {
                if (!lie.test(req[0][r], req[1][r])) continue;
                int idx = index[r] >= 0 ? (int) index[r] : 0;
                if (index[r] < 0) { // an absent child: a record at idx, counted there honestly
                    kind[r] = under.kind[idx];
                }
                index[r] = idx;
                long[] own = under.keys.get(idx);
                long before = record(k0, k1, idx, own[0], own[1], under.kind[idx] & 0xFF,
                        under.lo[idx], under.hi[idx], 1);
                lo[r] = (byte) bound;
                hi[r] = (byte) bound;
                long after = record(k0, k1, idx, req[0][r], req[1][r], kind[r] & 0xFF, lo[r],
                        hi[r], 1);
                d = Math.floorMod(d + after - before, P61);
                lies++;
            }
            // the layer's last slice: pay for every lie at once
            if (first + 1 == map.endBlock(li) && lies > 0) {
                long[] rec = new long[under.n];
                for (int j = 0; j < under.n; j++) {
                    long[] kj = under.keys.get(j);
                    rec[j] = record(k0, k1, j, kj[0], kj[1], under.kind[j] & 0xFF, under.lo[j],
                            under.hi[j], 0);
                }
                extra.clear();
                // x rec[a] + y rec[b] + z rec[c] = d (mod p), z small, x and y below 2^31
                for (int z = 0; z < 64 && extra.isEmpty(); z++)
                    for (int a = 0; a < under.n && extra.isEmpty(); a++)
                        for (int b = a + 1; b < under.n && extra.isEmpty(); b++)
                            for (int c = 0; c < under.n && extra.isEmpty(); c++) {
                                if (c == a || c == b || (z == 0 && c > 0)) continue;
                                long rest = Math.floorMod(d - (long) z * rec[c] % P61, P61);
                                long[] xy = pair(rec[a], rec[b], rest, (1L << 31) - (1L << 16));
                                if (xy != null) {
                                    extra.put((long) a, xy[0]);
                                    extra.put((long) b, xy[1]);
                                    if (z > 0) extra.put((long) c, (long) z);
                                }
                            }
                assertTrue(!extra.isEmpty(), "no entries of the layer below pay for the lies");
            }
        }

        @Override
        void counts(int li, int first, int[] facts, int[][] bits) {
            if (li != belowLayer) return;
            long base = 0;
            for (int b = map.firstBlock(li); b < first; b++) base += map.record(b).count;
            for (int j = 0; j < facts.length; j++) {
                Long add = extra.get(base + j);
                if (add != null) facts[j] += (int) (long) add; // counts only: no flag changes
            }
        }
    }

    static long[] canonical(Game g, boolean symmetric, long mover, long opp) {
        long[] img = new long[9];
        long occ = g.canonical(mover, opp, symmetric ? g.symmetryCount : 1, img);
        return new long[] {occ, img[8]};
    }

    /** The map's fact key, as only reflection reads it. */
    static long[] factKey(FileMap map) {
        return new long[] {mapKey(map, "factKey0"), mapKey(map, "factKey1")};
    }

    /** The key of the terminal partitions, the one keyed hash an engine sees (twice over). */
    static long[] partitionKey(FileMap map) {
        long k = mapKey(map, "partitionKey");
        return new long[] {k, k};
    }

    @Test
    void aRejectedCutStaysRejectedForAnEngineThatKnowsThePartitionKeyNotTheFactKey()
            throws IOException {
        Object[] fc = falseCut();
        Path f = (Path) fc[0];
        int discs = (int) fc[1];
        long childMover = (long) fc[2], childOpp = (long) fc[3];
        int v = (int) fc[4];
        Result honest = new KernelDriver(f).run();
        assertEquals("REJECTED", honest.verdict.toString(), KernelDriver.show(honest));
        assertEquals("R-CUT-1", honest.firstViolation().rule(), KernelDriver.show(honest));
        FileMap m = new KernelDriver(f).map;
        long[] child = canonical(m.game(), m.header().symmetry != 0, childMover, childOpp);
        java.util.function.BiPredicate<Long, Long> theCutChild =
                (o, mv) -> o == child[0] && mv == child[1];
        // the forgery works: with the fact key, the lie and its payment pass
        Forger knowing = new Forger(f, FactKeyStaysSecretFromTheEngineTest::factKey, discs,
                theCutChild, -v);
        Result withKey = knowing.run();
        assertTrue(knowing.lies > 0, "the lie was told");
        assertEquals("VERIFIED", withKey.verdict.toString(), "the forgery with the fact key: "
                + KernelDriver.show(withKey));
        // and the partitions' key, which an engine sees the hashes of, does not give it
        Forger guessing = new Forger(f, FactKeyStaysSecretFromTheEngineTest::partitionKey, discs,
                theCutChild, -v);
        Result r = guessing.run();
        assertTrue(guessing.lies > 0, "the lie was told");
        assertNotEquals("VERIFIED", r.verdict.toString(), "a certificate rejected for R-CUT-1 ("
                + KernelDriver.show(honest) + ") ends " + KernelDriver.show(r));
    }

    /**
     * The exact input: the weak (mode 2) Othello 4x4 certificate of TinySolver(1, 4, 4, 0, null)
     * from the standard start, blocks of one entry, whose root entry and header claim the value
     * 16 (a whole-board win for the first mover) where the game's value is TinySolver's. Every
     * record delivered to the root's slice is told as [-16, -16]; the lies are paid for with fact
     * counts on two entries of the layer below.
     */
    @Test
    void aFalseGameValueStaysRejectedForAnEngineThatKnowsThePartitionKeyNotTheFactKey()
            throws IOException {
        TinySolver s = new TinySolver(1, 4, 4, 0, null); // no symmetry: four children of the root
        long[] start = s.othelloStart();
        TestCert t = s.build(start[0], start[1], 2);
        t.chunk = 1;
        int truth = s.value(start[0], start[1]);
        int claim = 16;
        assertNotEquals(truth, claim);
        int rootDiscs = Long.bitCount(t.rootMover | t.rootOpponent);
        for (TestCert.Entry e : t.entries)
            if (Long.bitCount(e.occ) == rootDiscs) { // the root's layer holds the root alone
                e.lo = e.hi = claim; // kinds C and A (24), as built
            }
        t.rootValue = claim;
        Path f = dir.resolve("othello4-claims-16.gsc");
        Files.write(f, t.write());
        Result honest = new KernelDriver(f).run();
        assertEquals("REJECTED", honest.verdict.toString(), KernelDriver.show(honest));
        Forger knowing = new Forger(f, FactKeyStaysSecretFromTheEngineTest::factKey, rootDiscs,
                (o, mv) -> true, -claim);
        Result withKey = knowing.run();
        assertTrue(knowing.lies > 0, "the lies were told");
        assertEquals("VERIFIED", withKey.verdict.toString(), "the forgery with the fact key: "
                + KernelDriver.show(withKey));
        Forger guessing = new Forger(f, FactKeyStaysSecretFromTheEngineTest::partitionKey,
                rootDiscs, (o, mv) -> true, -claim);
        Result r = guessing.run();
        assertTrue(guessing.lies > 0, "the lies were told");
        assertNotEquals("VERIFIED", r.verdict.toString(), "Othello 4x4 is worth " + truth
                + ", a certificate claiming " + claim + " (" + KernelDriver.show(honest)
                + ") ends " + KernelDriver.show(r));
    }
}
