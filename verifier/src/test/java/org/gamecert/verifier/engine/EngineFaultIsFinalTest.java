package org.gamecert.verifier.engine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.gamecert.verifier.kernel.Combiner;
import org.gamecert.verifier.kernel.FileMap;
import org.gamecert.verifier.kernel.EngineFault;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.SliceCheck;
import org.gamecert.verifier.kernel.SliceReport;
import org.gamecert.verifier.kernel.TerminalCount;
import org.gamecert.verifier.kernel.format.BlockRecord;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.format.DataFrame;
import org.gamecert.verifier.kernel.format.Payload;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An engine fault is final: an engine that catches the Combiner's EngineFault and goes on (here
 * after forging the root's children so that a false root value holds, and leaving the refused
 * layer out of the census) gets no verdict at all. A review of the contract found that the
 * Combiner once forgot the fault, and such an engine ended VERIFIED.
 */
class EngineFaultIsFinalTest {
    record Layer(long[] occ, long[] mover, byte[] kind, byte[] lo, byte[] hi) {}

    static Layer decode(Container ct, FileMap map, int li) throws Exception {
        int n = (int) map.size(li);
        Layer t = new Layer(new long[n], new long[n], new byte[n], new byte[n], new byte[n]);
        int at = 0;
        boolean weak = map.header().baseMode != 1;
        for (int b = map.firstBlock(li); b < map.endBlock(li); b++) {
            BlockRecord r = map.record(b);
            byte[] raw = DataFrame.decompress(ct.read(r.frameOffset, (int) r.compLen),
                    (int) r.rawLen, r.index);
            Payload p = Payload.decode(raw, (int) r.count, weak, false, 0, map.game().uMin,
                    map.game().uMax, null);
            for (int i = 0; i < p.count; i++, at++) {
                t.occ[at] = p.occ[i]; t.mover[at] = p.mover[i]; t.kind[at] = p.kind[i];
                t.lo[at] = p.lo[i]; t.hi[at] = p.hi[i];
            }
        }
        return t;
    }

    static String run(Path file, boolean forge) throws Exception {
        try (Container ct = new Container(file)) {
            FileMap map = FileMap.read(ct);
            Combiner c = new Combiner(map, false, false, 1);
            int rootLi = map.layers() - 1;
            int[] facts = null; int[][] bits = null;
            String faults = "";
            for (int li = rootLi; li >= 0; li--) {
                SliceCheck s;
                SliceCheck.Setup setup = new SliceCheck.Setup(false, 0, 0, 0);
                try {
                    s = c.slice(li, map.firstBlock(li), map.endBlock(li), setup);
                } catch (EngineFault e) { // the Combiner refuses: the engine goes on with its own
                    faults += " [caught making layer " + li + "'s slice: " + e.getMessage() + "]";
                    s = new SliceCheck(map, li, map.firstBlock(li), map.endBlock(li), false, 1,
                            setup);
                }
                int n = (int) map.size(li);
                for (int b = map.firstBlock(li); b < map.endBlock(li); b++)
                    s.decode(b, ct.read(map.record(b).frameOffset, (int) map.record(b).compLen));
                s.takeCounts(SliceEngine.interleaved(facts == null ? new int[n] : facts,
                        bits == null ? new int[4][n] : bits), 0);
                long[][] req = SliceEngine.requests(s);
                int m = req[0].length, below = map.below(li);
                Layer u = below < 0 ? null : decode(ct, map, below);
                long[] idx = new long[m]; byte[] k = new byte[m], lo = new byte[m], hi = new byte[m];
                for (int j = 0; j < m; j++) {
                    idx[j] = -1;
                    for (int i = 0; u != null && i < u.occ.length; i++)
                        if (u.occ[i] == req[0][j] && u.mover[i] == req[1][j]) {
                            idx[j] = i; k[j] = u.kind[i]; lo[j] = u.lo[i]; hi[j] = u.hi[i];
                        }
                    if (forge && li == rootLi && idx[j] >= 0) { // the root's children: worth -v'
                        k[j] = 0x18; lo[j] = (byte) -FORGED; hi[j] = (byte) -FORGED;
                    }
                }
                SliceReport r = SliceEngine.check(s, idx, k, lo, hi);
                long[] mi = s.marksIndex(); byte[] mf = s.marksFlags();
                int nb = below < 0 ? 0 : (int) map.size(below);
                facts = new int[nb]; bits = new int[4][nb];
                for (int j = 0; j < mi.length; j++) {
                    facts[(int) mi[j]]++;
                    for (int q = 0; q < 4; q++) if ((mf[j] >>> q & 1) != 0) bits[q][(int) mi[j]]++;
                }
                try {
                    c.layer(li, new SliceReport[] {r}, new TerminalCount.Report[0]);
                } catch (EngineFault e) {
                    faults += " [caught at layer " + li + ": " + e.getMessage() + "]";
                    // a layer whose facts were refused sends nothing on: zeros below
                    facts = new int[nb]; bits = new int[4][nb];
                }
            }
            try {
                Result res = c.conclude();
                return res.verdict + " " + res.violations + faults;
            } catch (EngineFault e) {
                return "fault" + faults;
            }
        }
    }

    static int FORGED;

    @Test
    void anEngineThatCatchesAFaultAndGoesOnGetsNoVerdict(@TempDir Path dir) throws Exception {
        TinySolver o4 = new TinySolver(1, 4, 4, 1, null);
        long[] start = o4.othelloStart();
        TestCert t = o4.build(start[0], start[1], 2);
        Path honest = dir.resolve("honest.gsc");
        Files.write(honest, t.write());
        org.junit.jupiter.api.Assertions.assertTrue(run(honest, false).startsWith("VERIFIED"));
        int v = t.rootValue;
        FORGED = v + 2;
        TestCert f = t.copy();
        f.rootValue = FORGED;
        int rootDiscs = Long.bitCount(start[0] | start[1]);
        for (TestCert.Entry e : f.entries)
            if (Long.bitCount(e.occ) == rootDiscs) { e.lo = FORGED; e.hi = FORGED; }
        for (long[] row : f.census) if (row[0] == rootDiscs + 1) { row[1] = 0; row[2] = 0; }
        Path forged = dir.resolve("forged.gsc");
        Files.write(forged, f.write());
        String outcome = run(forged, true);
        org.junit.jupiter.api.Assertions.assertTrue(outcome.startsWith("fault [caught"), outcome);
    }
}
