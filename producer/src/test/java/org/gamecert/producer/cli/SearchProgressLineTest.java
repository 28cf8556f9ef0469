package org.gamecert.producer.cli;

import org.gamecert.producer.cert.SearchProof;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The line {@code solve --proof search} prints on its root's search (every 10 s on a terminal,
 * a minute in a log): what is known — nodes, rate, the proof log in memory and on disk, the
 * MTD(f) test and the root moves done in it — and "ETA unknown" rather than a guess.
 */
class SearchProgressLineTest {
    @Test void theLineSaysWhatIsKnownAndThatNoETAIs() {
        SearchProof.Progress p = new SearchProof.Progress();
        p.seconds = 20;
        p.nodes = 160_000_000;
        p.logBytes = 3L << 30;
        p.logHeldBytes = 1L << 30;
        p.logSpilledBytes = 2L << 30;
        p.tests = 4;
        p.b = 7;
        p.lo = 6;
        p.hi = 64;
        p.movesDone = 9;
        p.moves = 14;
        String line = SolveCommand.searchLine(p, 21.5);
        assertEquals("[  21.5s] the root's search, keeping its proof: 160,000,000 nodes, 8.00 M nodes/s; proof log 3.00 GiB "
                + "(1.00 GiB in memory, 2.00 GiB compressed on disk); MTD(f) test 5, V >= 7? (the value in [6, 64]), 9 of its 14 root moves "
                + "done; ETA unknown", line);
    }
}
