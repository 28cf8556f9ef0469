package org.gamecert.verifier.peer.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The driver's side of a table checked in slices (TableSlices), driven here directly with faults
 * that an engine's driver could make: slices that stop before a last one, a slice asked for after
 * the last, a slice of no records that is not an empty table's only one, a result for a slice not
 * asked for, a result given back twice. Each is an engine fault naming PEER-SLICE-1, and a
 * kernel with a fault never concludes. The slices are numbered and placed by the kernel.
 */
class TableSlicesTest {
    static final Path TABLE = Path.of("../testdata/peer/valid/othello6-10empties/"
            + "optimal_reopening_ab_table_all_35.txt");

    /** A task's check of slice s of table 35 (the last table: no child table). */
    static SliceResult task(Slice s) throws IOException {
        byte[] all = Files.readAllBytes(TABLE);
        PeerKernel k = new PeerKernel(null, null);
        byte[] before = s.base() == 0 ? null
                : java.util.Arrays.copyOfRange(all, (int) (s.base() - 1) * 13, (int) s.base() * 13);
        TableCheck t = k.beginSlice(s, before);
        ParentPass p = t.pass(null, null);
        int from = (int) s.base() * 13;
        byte[] buf = java.util.Arrays.copyOfRange(all, from, from + (int) s.count() * 13);
        Chunk c = p.chunk(buf, (int) s.count(), new byte[(int) s.count()]);
        c.run();
        p.endChunk(c);
        p.end(0);
        t.end();
        return t.sliceResult();
    }

    static String fault(Runnable r) {
        return assertThrows(PeerKernel.EngineFault.class, r::run).getMessage();
    }

    @Test
    void slicesArePlacedByTheKernelAndTileTheTable() throws IOException {
        PeerKernel k = new PeerKernel(null, null);
        TableSlices ts = k.slicedTable(35, false);
        Slice a = ts.slice(1000, false), b = ts.slice(1000, false), c = ts.slice(632, true);
        assertEquals(1000, b.base());
        assertEquals(2000, c.base());
        for (Slice s : new Slice[] {a, b, c}) ts.take(s, task(s));
        ts.end();
        assertEquals(2632, ts.table().records());
        assertEquals(null, ts.table().finding());
    }

    @Test
    void faultsOfTheDriverAreNamed() throws IOException {
        PeerKernel k = new PeerKernel(null, null);
        TableSlices early = k.slicedTable(35, false);
        Slice a = early.slice(1000, false);
        early.take(a, task(a));
        assertTrue(fault(early::end).contains("PEER-SLICE-1: table 35: the slices asked for stop"
                + " at record 1000 without a last one"));

        PeerKernel k2 = new PeerKernel(null, null);
        TableSlices after = k2.slicedTable(35, false);
        after.slice(2632, true);
        assertTrue(fault(() -> after.slice(1, true)).contains("a slice asked for after its last"));

        PeerKernel k3 = new PeerKernel(null, null);
        TableSlices empty = k3.slicedTable(35, false);
        empty.slice(5, false);
        assertTrue(fault(() -> empty.slice(0, true)).contains("slice 1 of 0 records"));

        PeerKernel k4 = new PeerKernel(null, null);
        TableSlices twice = k4.slicedTable(35, false);
        Slice s = twice.slice(2632, true);
        SliceResult r = task(s);
        twice.take(s, r);
        assertTrue(fault(() -> twice.take(s, r)).contains("PEER-SLICE-1: " + s + " given back twice"));
        Slice forged = new Slice(35, 1, 2632, 1, true, false);
        assertTrue(fault(() -> twice.take(forged, r)).contains("was not asked for"));
        PeerKernel.EngineFault e = assertThrows(PeerKernel.EngineFault.class,
                () -> k4.conclude(0, null, 0, null));
        assertTrue(e.getMessage().contains("given back twice"), e.getMessage());
    }
}
