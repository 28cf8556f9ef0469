package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.gamecert.verifier.kernel.FileMap;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.SliceCheck;
import org.gamecert.verifier.kernel.SliceReport;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every block of a layer is decoded before its slice checks (AUDIT.md "what to convince yourself
 * of" 2), and a slice whose block was not decoded must end the check (a violation) or be an
 * engine fault: never a report without a violation. An engine that hands decode a null frame
 * (and catches the NullPointerException) moves the slice past the block without decoding it; the
 * slice then reports no violation with decodedAll false, and the Combiner, which then compares no
 * fact sums for the layer (a layer cut by a block that failed to decode is rejected anyway),
 * takes answers of any record for that layer: a weak Othello 4x4 root claiming a false value,
 * answered with forged bounds, would conclude VERIFIED. The file's census leaves out the block not
 * decoded (the attacker writes the file).
 */
class AFrameNotHandedOverTest {
    @TempDir
    Path dir;

    @Test
    void aBlockNeverDecodedIsNeverASliceWithoutAViolation() throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] st = s.othelloStart();
        TestCert t = s.build(st[0], st[1], 2);
        t.maxBlockEntries = 2;
        int truth = t.rootValue, claim = truth >= 0 ? truth - 2 : truth + 2;
        long rk = s.canonicalKey(st[0], st[1]);
        TestCert.Entry root = t.find(rk >>> 32, rk & 0xFFFFFFFFL);
        root.lo = root.hi = claim;
        t.rootValue = claim;
        Path first = AttackCerts.write(dir, "false-root.gsc", t);
        // the last block of the layer below the root, and its entries: left out of the census
        int rootDiscs = Long.bitCount(st[0] | st[1]);
        int skipped;
        long skippedCount;
        try (Container ct = new Container(first)) {
            FileMap m = FileMap.read(ct);
            int li = m.layers() - 2;
            assertEquals(rootDiscs + 1, m.discs(li));
            skipped = m.endBlock(li) - 1;
            skippedCount = m.record(skipped).count;
        }
        for (long[] row : t.census) if (row[0] == rootDiscs + 1) row[2] -= skippedCount;
        Path file = AttackCerts.write(dir, "false-root-census.gsc", t);
        Result honest = AttackCerts.verdict(file);
        assertEquals(Result.Verdict.REJECTED, honest.verdict, AttackCerts.show(honest));

        final int skip = skipped;
        KernelDriver d = new KernelDriver(file) {
            @Override
            SliceReport steps(SliceCheck check, Slice sl, int[] facts, int[][] bits, Table under)
                    throws IOException {
                if (sl.first() > skip || sl.end() <= skip)
                    return super.steps(check, sl, facts, bits, under);
                for (int b = sl.first(); b < sl.end(); b++) {
                    try {
                        check.decode(b, b == skip ? null : honestFrame(b));
                    } catch (NullPointerException e) {
                        // the engine goes on
                    }
                }
                check.takeCounts(SliceEngine.interleaved(facts, bits), 0);
                long[][] req = SliceEngine.requests(check);
                Answers a = under.answer(req);
                return SliceEngine.check(check, a.index, a.kind, a.lo, a.hi);
            }

            @Override
            void answers(int li, int firstBlock, long[][] req, long[] index, byte[] kind,
                    byte[] lo, byte[] hi) {
                if (li != map.layers() - 1) return;
                for (int r = 0; r < index.length; r++) { // every child worth -claim to its mover
                    kind[r] = (byte) (TestCert.C | TestCert.A);
                    lo[r] = hi[r] = (byte) -claim;
                }
            }
        };
        Result r = d.run();
        assertNotEquals(Result.Verdict.VERIFIED, r.verdict, "the root claims " + claim + ", its"
                + " value is " + truth + ": " + AttackCerts.show(r) + " " + r.commitment);
    }
}
