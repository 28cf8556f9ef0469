package org.gamecert.verifier.kernel.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.gamecert.verifier.testcert.TestCert;
import org.junit.jupiter.api.Test;

/** Decoding into a reused Payload (the verifier recycles decoded blocks) gives what a fresh one does. */
class PayloadReuseTest {
    /** n entries of 6x6-like keys in key order, with all kind shapes. */
    static List<TestCert.Entry> block(SplittableRandom rnd, int n) {
        List<TestCert.Entry> out = new ArrayList<>();
        long occ = 0x0000000FFFL;
        int[] kinds = {Payload.P, Payload.AP, Payload.PP, Payload.AP | Payload.PP, Payload.A, Payload.C, Payload.C | Payload.A};
        for (int i = 0; i < n; i++) {
            if (i % 3 == 0) occ = (occ + rnd.nextLong(4, 1 << 20)) | 3; // a new occupancy, then three movers: none, one, all
            int kind = kinds[i % kinds.length], lo = rnd.nextInt(-36, 1), hi = rnd.nextInt(lo, 37);
            if ((kind & (Payload.P | Payload.AP | Payload.PP)) != 0) hi = lo;
            out.add(new TestCert.Entry(occ, i % 3 == 0 ? 0 : i % 3 == 1 ? 1 : occ, kind, lo, hi, rnd.nextInt(36)));
        }
        return out;
    }

    static void assertSameEntries(Payload want, Payload got) {
        assertEquals(want.count, got.count);
        for (int i = 0; i < want.count; i++) {
            assertEquals(want.occ[i], got.occ[i], "occ " + i);
            assertEquals(want.mover[i], got.mover[i], "mover " + i);
            assertEquals(want.kind[i], got.kind[i], "kind " + i);
            assertEquals(want.lo[i], got.lo[i], "lo " + i);
            assertEquals(want.hi[i], got.hi[i], "hi " + i);
            assertEquals(want.move[i], got.move[i], "move " + i);
        }
    }

    @Test
    void aLongerBufferIsReusedAndAShorterOneReplaced() throws FormatException {
        SplittableRandom rnd = new SplittableRandom(7);
        byte[] big = TestCert.payload(block(rnd, 500)), small = TestCert.payload(block(rnd, 120));
        Payload buffer = Payload.decode(big, 500, false, false, 0, -36, 36, null);
        Payload fresh = Payload.decode(small, 120, false, false, 0, -36, 36, null);
        Payload reused = Payload.decode(small, 120, false, false, 0, -36, 36, buffer);
        assertSame(buffer, reused, "long enough: decoded in place");
        assertEquals(500, reused.occ.length);
        assertSameEntries(fresh, reused); // entries past count are leftovers, not entries
        Payload grown = Payload.decode(big, 500, false, false, 0, -36, 36, fresh);
        assertNotSame(fresh, grown, "too short: new columns");
        assertSameEntries(Payload.decode(big, 500, false, false, 0, -36, 36, null), grown);
    }
}
