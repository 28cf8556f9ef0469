package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.gamecert.verifier.kernel.EngineFault;
import org.gamecert.verifier.kernel.FileMap;
import org.gamecert.verifier.kernel.SliceCheck;
import org.gamecert.verifier.kernel.TerminalCount;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC §11.1: "An engine fault is final: the object that threw it ... refuses every later call
 * with another engine fault, so an engine that catches one cannot go on". TerminalCount has no
 * such state: a key routed to the wrong partition throws, and the same counter takes more keys
 * and reports (its faults are then a free oracle on the keyed partition hash: see
 * FactKeyStaysSecretFromTheEngineTest). SliceCheck's terminalKeys must refuse after a fault
 * too.
 */
class TerminalCountFaultIsFinalTest {
    @TempDir
    Path dir;

    FileMap map() throws Exception {
        Path f = dir.resolve("valid.gsc");
        Files.write(f, AttackCerts.othello(1).write());
        return new KernelDriver(f).map;
    }

    @Test
    void aTerminalCountThatFaultedRefusesEveryLaterCall() throws Exception {
        FileMap map = map();
        TerminalCount count = new TerminalCount(map, 0, 0, 2, 0, 0);
        boolean faulted = false;
        for (long occ = 1; !faulted && occ < 64; occ++) {
            try {
                count.take(occ, 0, 0L); // partition 0's route; the key's partition may be 1
            } catch (EngineFault wrongPartition) {
                faulted = true;
            }
        }
        assertTrue(faulted, "a key of partition 1 among 63");
        assertThrows(EngineFault.class, count::report, "a report after an engine fault");
    }

    @Test
    void aSliceThatFaultedRefusesItsTerminalKeysToo() throws Exception {
        FileMap map = map();
        int li = map.layers() - 1;
        SliceCheck s = new SliceCheck(map, li, map.firstBlock(li), map.firstBlock(li) + 1, false,
                1, new SliceCheck.Setup(false, 0, 0, 2));
        assertThrows(EngineFault.class, s::check); // the check before the requests
        assertThrows(EngineFault.class, s::terminalKeys, "a call after an engine fault");
    }
}
