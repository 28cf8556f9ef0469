package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Linear NoGo certificates (SPEC §7.6) made by the test-only brute-force writer, with and without
 * the mirror (symmetry 2, which the producer does not declare), verify with the writer's census;
 * and NoGo-specific corruptions are rejected with the rule they break.
 */
class NoGoCertificatesTest {
    @TempDir
    Path dir;

    Result verify(TestCert t) throws Exception {
        Path p = dir.resolve("c" + System.nanoTime() + ".gsc");
        Files.write(p, t.write());
        Options o = new Options();
        o.strict = true;
        return Verifier.verify(p, o);
    }

    void rejects(TestCert t, String rule) throws Exception {
        Result r = verify(t);
        assertEquals(Result.Verdict.REJECTED, r.verdict, () -> rule + ": " + r.errorMessage);
        assertEquals(rule, r.firstViolation().rule(), () -> r.firstViolation().toString());
    }

    @Test
    void bruteForceCertificatesVerifyWithAndWithoutTheMirror() throws Exception {
        for (int n : new int[] {2, 4, 7, 9}) {
            for (int sym : new int[] {0, 2}) {
                TinySolver s = new TinySolver(3, n, 1, sym, null);
                for (int mode : new int[] {1, 2}) {
                    TestCert t = s.build(0, 0, mode);
                    Result r = verify(t);
                    String at = "1x" + n + " symmetry " + sym + " mode " + mode;
                    assertEquals(Result.Verdict.VERIFIED, r.verdict, () -> at + " " + r.firstViolation());
                    assertEquals(n == 4 ? -1 : 1, r.header.rootValue, at);
                    assertEquals(t.census.size(), r.census.size(), at);
                    for (int i = 0; i < t.census.size(); i++)
                        assertArrayEquals(t.census.get(i), java.util.Arrays.copyOf(r.census.get(i), 3), at);
                }
            }
        }
        // the mirror makes fewer entries: positions and their images share one
        int plain = new TinySolver(3, 9, 1, 0, null).build(0, 0, 1).entries.size();
        int mirrored = new TinySolver(3, 9, 1, 2, null).build(0, 0, 1).entries.size();
        assertTrue(mirrored < plain, mirrored + " < " + plain);
    }

    @Test
    void corruptionsAreRejectedWithTheirRule() throws Exception {
        TinySolver s = new TinySolver(3, 7, 1, 2, null);
        TestCert good = s.build(0, 0, 1);
        TestCert t = good.copy();
        t.height = 2; // NoGo is one row
        rejects(t, "R-HDR-1");
        t = good.copy();
        t.utility = 1;
        rejects(t, "R-HDR-1");
        t = good.copy();
        t.symmetry = 1; // Othello's group
        rejects(t, "R-HDR-1");
        t = good.copy();
        t.width = 65;
        rejects(t, "R-HDR-1");
        t = good.copy();
        t.rootMover = 0b11; // a black block at the left edge with a white stone next to it: no liberty
        t.rootOpponent = 0b1100;
        rejects(t, "R-HDR-2");
        TinySolver one = new TinySolver(3, 1, 1, 0, null);
        t = good.copy();
        t.width = 1;
        t.tb = new int[] {0};
        t.symmetry = 0;
        t.entries.clear();
        rejects(t, "R-HDR-2"); // 1x1: the start is terminal, Black cannot move
        assertEquals(0, one.game.legalMoveCodes(0, 0));
        // an entry whose position has a block without liberty
        t = good.copy();
        t.entries.add(new TestCert.Entry(0b111, 0b010, TestCert.C | TestCert.A, -1, 1, 3));
        rejects(t, "R-POS-1");
        // a legal terminal position stored (its mover cannot move): R-POS-2, found by enumeration
        long key = -1;
        for (int code = 0; code < 2187 && key < 0; code++) {
            long x = 0, y = 0;
            for (int i = 0, c = code; i < 7; i++, c /= 3) {
                if (c % 3 == 1) x |= 1L << i;
                if (c % 3 == 2) y |= 1L << i;
            }
            boolean blackMoves = Long.bitCount(x) == Long.bitCount(y);
            long m = blackMoves ? x : y, o = blackMoves ? y : x;
            if (s.game.isLegalPosition(m, o) && s.game.legalMoveCodes(m, o) == 0)
                key = s.canonicalKey(m, o);
        }
        assertTrue(key >= 0);
        t = good.copy();
        t.entries.add(new TestCert.Entry(key >>> 32, key & 0xFFFFFFFFL, TestCert.C | TestCert.A, -1, -1, 0));
        rejects(t, "R-POS-2");
        // an image under the mirror that is not the canonical one
        t = good.copy();
        t.entries.add(new TestCert.Entry(0b1000000, 0, TestCert.C | TestCert.A, -1, 1, 3));
        rejects(t, "R-POS-3");
        // the root's value flipped
        t = good.copy();
        t.rootValue = -t.rootValue;
        rejects(t, "R-ROOT-2");
        // a stored move that is illegal (occupied point) in a P entry
        t = good.copy();
        for (TestCert.Entry e : t.entries)
            if (e.kind == TestCert.P && e.occ != 0) {
                e.move = Long.numberOfTrailingZeros(e.occ);
                break;
            }
        rejects(t, "R-MOVE-1");
    }
}
