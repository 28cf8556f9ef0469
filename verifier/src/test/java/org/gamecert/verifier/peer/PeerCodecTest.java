package org.gamecert.verifier.peer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.gamecert.verifier.kernel.rules.OthelloRules;
import org.junit.jupiter.api.Test;

class PeerCodecTest {
    private final OthelloRules rules = new OthelloRules(6);

    @Test
    void initialPositionRecordMatchesTheFormatDescription() {
        long[] p = PeerVerifier.initial();
        long[] c = new long[2];
        PeerCodec.canonical(p[0], p[1], c);
        byte[] rec = new byte[13];
        PeerCodec.encodeRecord(c[0], c[1], PeerCodec.PV, -4, -4, rec, 0);
        // The format note's worked example: key 555O5c555, record 555O5c5556BB (kind PV, value −4).
        assertEquals("555O5c5556BB\n", new String(rec, StandardCharsets.US_ASCII));
    }

    @Test
    void embeddingPutsTheBoardAtB2toG7() {
        assertEquals(1L << 9, PeerCodec.embed(1L));            // a1 of 6×6 -> B2 = bit 9
        assertEquals(1L << 54, PeerCodec.embed(1L << 35));     // f6 of 6×6 -> G7 = bit 54
        assertEquals(~0xFF818181818181FFL, PeerCodec.embed((1L << 36) - 1));
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < 1000; i++) {
            long x = rnd.nextLong() & ((1L << 36) - 1);
            assertEquals(x, PeerCodec.unembed(PeerCodec.embed(x)));
            // Order preserving: unsigned comparison is the same in both layouts.
            long y = rnd.nextLong() & ((1L << 36) - 1);
            assertEquals(Integer.signum(Long.compareUnsigned(x, y)), Integer.signum(Long.compareUnsigned(PeerCodec.embed(x), PeerCodec.embed(y))));
        }
    }

    private long[] randomPosition(SplittableRandom rnd) {
        return PeerTableGenerator.randomPosition(rules, rnd.nextLong(), 4 + rnd.nextInt(25));
    }

    @Test
    void keyAndOrderKeyRoundTrip() {
        SplittableRandom rnd = new SplittableRandom(11);
        long[] out = new long[2];
        byte[] buf = new byte[9];
        for (int i = 0; i < 2000; i++) {
            long[] p = randomPosition(rnd);
            PeerCodec.encodeKey(p[0], p[1], buf, 0);
            assertTrue(PeerCodec.decodeKey(buf, 0, out));
            assertArrayEquals(p, out);
            assertTrue(PeerCodec.fromOrderKey(PeerCodec.orderKey(p[0], p[1]), out));
            assertArrayEquals(p, out);
        }
    }

    /** encode_bb written out digit by digit, as the format describes it. */
    private static long slowOrderKey(long m, long o) {
        long k = 0;
        for (int g = 0; g < 8; g++) {
            int v = 0, p = 1;
            for (int t = 0; t < (g < 7 ? 5 : 1); t++) {
                int sq = 5 * g + t;
                int d = (m >>> sq & 1) != 0 ? 1 : (o >>> sq & 1) != 0 ? 2 : 0;
                v += d * p;
                p *= 3;
            }
            k = k * 256 + v;
        }
        return k;
    }

    @Test
    void orderKeyIsTheFormatsEncodeBb() {
        SplittableRandom rnd = new SplittableRandom(3);
        for (int i = 0; i < 2000; i++) {
            long[] p = randomPosition(rnd);
            assertEquals(slowOrderKey(p[0], p[1]), PeerCodec.orderKey(p[0], p[1]));
        }
        // Square 0 is in the most significant byte, square 35 alone in the least.
        assertTrue(Long.compareUnsigned(PeerCodec.orderKey(1L, 0), PeerCodec.orderKey(1L << 35, 0)) > 0);
        assertEquals(2, PeerCodec.orderKey(0, 1L << 35));
    }

    @Test
    void canonicalFormIsTheMinimumOverTheVerifiersSymmetries() {
        SplittableRandom rnd = new SplittableRandom(5);
        long[] c = new long[2], c2 = new long[2];
        for (int i = 0; i < 2000; i++) {
            long[] p = randomPosition(rnd);
            PeerCodec.canonical(p[0], p[1], c);
            // Independent reference: OthelloRules' own symmetries, minimum (mover, opponent) unsigned.
            long bm = -1, bo = -1;
            for (int s = 0; s < 8; s++) {
                long m = rules.transform(p[0], s), o = rules.transform(p[1], s);
                if (Long.compareUnsigned(m, bm) < 0 || (m == bm && Long.compareUnsigned(o, bo) < 0)) {
                    bm = m;
                    bo = o;
                }
            }
            assertEquals(bm, c[0]);
            assertEquals(bo, c[1]);
            assertTrue(PeerCodec.isCanonical(c[0], c[1]));
            for (int s = 0; s < 8; s++) {
                PeerCodec.canonical(rules.transform(p[0], s), rules.transform(p[1], s), c2);
                assertArrayEquals(c, c2);
            }
        }
    }

    @Test
    void rejectsMalformedKeys() {
        long[] out = new long[2];
        byte[] bad = "555O5c55~".getBytes(StandardCharsets.US_ASCII);
        assertFalse(PeerCodec.decodeKey(bad, 0, out));
    }

    @Test
    void parsesBothTextForms() {
        long[] init = PeerVerifier.initial();
        String obf = PeerCodec.obf(init[0], init[1]);
        assertArrayEquals(init, PeerCodec.parsePosition(obf));
        assertArrayEquals(init, PeerCodec.parsePosition(PeerCodec.board(init[0], init[1])));
        // Same position with the colours' letters swapped and O to move: the mover is O's discs.
        assertArrayEquals(init, PeerCodec.parsePosition(PeerCodec.board(init[1], init[0]).replace(" X", " O")));
    }
}
