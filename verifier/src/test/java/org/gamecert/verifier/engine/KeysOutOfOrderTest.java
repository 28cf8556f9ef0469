package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TestCert.Entry;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A layer whose keys go back at a block boundary breaks R-LAY-3 (SPEC §6): the engine reads the
 * layer to answer the layer above before the kernel has checked its order, and whatever it makes
 * of keys out of order, the verdict is that rejection, never an internal error.
 */
class KeysOutOfOrderTest {
    @TempDir
    Path dir;

    @Test
    void aLayerWhoseKeysGoBackAtABlockBoundaryIsRejectedAtRLay3NotAnInternalError()
            throws Exception {
        TinySolver oth = new TinySolver(1, 4, 4, 1, null);
        long[] s = oth.othelloStart();
        TestCert t = oth.build(s[0], s[1], 1);
        List<Entry> list = new ArrayList<>(t.entries);
        list.sort((x, y) -> x.layer() != y.layer() ? y.layer() - x.layer()
                : x.occ != y.occ ? Long.compareUnsigned(x.occ, y.occ)
                : Long.compareUnsigned(x.mover, y.mover));
        Map<Integer, Integer> size = new HashMap<>();
        for (Entry e : list) size.merge(e.layer(), 1, Integer::sum);
        int root = Long.bitCount(t.rootMover | t.rootOpponent), big = -1;
        for (Map.Entry<Integer, Integer> e : size.entrySet())
            if (e.getKey() > root && (big < 0 || e.getValue() > size.get(big))) big = e.getKey();
        assertTrue(size.get(big) >= 256, "a layer below the root's of " + size.get(big));
        // the layer's second key moved to the end of the layer, alone in a block of its own:
        // every key before it was smaller, every key after the first larger
        int first = -1, end = -1;
        for (int i = 0; i < list.size(); i++)
            if (list.get(i).layer() == big) {
                if (first < 0) first = i;
                end = i + 1;
            }
        Entry second = list.remove(first + 1);
        list.add(end - 1, second);
        t.entries = list;
        t.sortEntries = false;
        t.splitBefore.add(end - 1);
        Path p = dir.resolve("out-of-order.gsc");
        Files.write(p, t.write());
        // the layer read whole, and in segments (on one thread and on several)
        for (long held : new long[] {0, 40}) {
            for (int threads : new int[] {1, 3}) {
                Options o = new Options();
                o.threads = threads;
                if (held > 0) o.maxHeldEntries = held;
                Result r = Verifier.verify(p, o);
                String how = "held " + held + ", threads " + threads + ": ";
                assertEquals(Result.Verdict.REJECTED, r.verdict,
                        () -> how + r.verdict + " " + r.errorMessage);
                assertEquals("R-LAY-3", r.firstViolation().rule(),
                        () -> how + r.firstViolation());
            }
        }
    }
}
