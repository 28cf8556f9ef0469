package org.gamecert.verifier.peer.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The peer format's obligations as pure functions: each rule on hand-made evidence. */
class PeerObligationsTest {
    final List<String> failed = new ArrayList<>();
    final PeerObligations.Failures record = (rule, message) -> failed.add(rule);

    @Test
    void aPvRecordNeedsEveryChildServedAndOneMoveWorthItsValue() {
        int pv = PeerFormat.PV, sq = 7;
        // a move worth exactly 4 whose child is PV: serves A' and P, meets the existential obligation
        int st = PeerObligations.apply(pv, 4, 4, 4, 4, 4, 1, 1, 1, false, 0, sq, record);
        assertEquals(List.of(), failed);
        assertNull(PeerObligations.unmet(pv, 4, st));
        // a child that is neither ALL' nor PV, and worth more than the value
        st = PeerObligations.apply(pv, 4, 4, 4, 5, 6, 0, 0, 0, false, st, sq, record);
        assertEquals(List.of(PeerRule.PV_1, PeerRule.PV_2), failed);
        assertEquals(PeerObligations.BAD, st & PeerObligations.BAD);
        // no move worth exactly the value: PV-3 once the moves are done
        assertArrayEquals(new String[] {PeerRule.PV_3, "no move worth exactly 4 leads to a PV child"},
                PeerObligations.unmet(pv, 4, 0));
    }

    @Test
    void onTheFrontierABrokenRuleLeavesTheRecordOpen() {
        int st = PeerObligations.apply(PeerFormat.ALL, 0, -3, 2, -64, 64, 0, 0, 0, true, 0, 0, record);
        assertEquals(List.of(), failed);
        assertEquals(PeerObligations.OPEN | PeerObligations.OPEN_EX, st);
    }

    @Test
    void aCutRecordNeedsOneMoveProvenAtLeastItsLowerBound() {
        int cut = PeerFormat.CUT;
        int st = PeerObligations.apply(cut, -2, -2, 64, -5, 3, 0, 0, 0, false, 0, 0, record);
        assertEquals(PeerRule.CUT_1, PeerObligations.unmet(cut, -2, st)[0]);
        st = PeerObligations.apply(cut, -2, -2, 64, -2, 3, 0, 0, 0, false, st, 1, record);
        assertNull(PeerObligations.unmet(cut, -2, st));
        assertEquals(List.of(), failed);
    }
}
