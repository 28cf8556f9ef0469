package org.gamecert.verifier.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Engine code can record any outcome but VERIFIED: that one comes only from the peer kernel's Conclusion. */
class PeerResultTest {
    @Test
    void failRefusesVerified() {
        PeerResult r = new PeerResult();
        assertNull(r.verdict());
        assertThrows(IllegalArgumentException.class, () -> r.fail(PeerResult.Verdict.VERIFIED));
        assertNull(r.verdict(), "nothing recorded");
        r.fail(PeerResult.Verdict.REJECTED);
        assertEquals(PeerResult.Verdict.REJECTED, r.verdict());
    }
}
