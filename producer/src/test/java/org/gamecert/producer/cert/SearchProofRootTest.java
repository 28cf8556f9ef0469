package org.gamecert.producer.cert;

import org.gamecert.producer.game.Othello;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * What a search proof's root decides: whether the proof applies (the reading knows each record's
 * position from the root down, so the root's record must be the root's own: not after a pass),
 * and the size of the search's table, which its rules name (the certificate depends on it).
 */
class SearchProofRootTest {
    private final Othello game = new Othello(8);

    @Test void aRootWhoseSideToMoveMustPassIsRefused() {
        // row 5: X O X and the rest empty: X has no move, O has one (d5, flipping c5)
        long x = 1L << 32 | 1L << 34, o = 1L << 33;
        assertEquals(0, game.moves(x, o), "X must pass");
        assertNotEquals(0, game.moves(o, x), "O can move: not the game's end");
        assertFalse(SearchProof.applies(game, x, o), "a root that must pass");
        assertTrue(SearchProof.applies(game, o, x), "the same board with O to move");
        assertThrows(IllegalArgumentException.class,
                () -> new SearchProof(game, null).run(x, o, null), "run refuses it before searching");
    }

    /**
     * A search proof's checkpoint, of this version or of an earlier one (whose log held the
     * records' positions), is named as such to a run resumed with the canonical extraction.
     */
    @Test void anEarlierSearchProofCheckpointIsNamedAsOne(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        for (String magic : new String[] {SearchProof.MAGIC, SearchProof.MAGIC_PREFIX + "1", SearchProof.MAGIC_PREFIX + "2"}) {
            java.nio.file.Files.writeString(dir.resolve(LayerStore.CHECKPOINT), magic + "\nparams x\n");
            java.io.IOException e = assertThrows(java.io.IOException.class, () -> new LayerStore(dir, "x", true, 1).load());
            assertTrue(e.getMessage().contains("other parameters (--proof search)"), magic + ": " + e.getMessage());
        }
    }

    @Test void theTableIsSmallUpTo25EmptiesAndLargeBeyondAsTheRulesSay() {
        for (int e = 8; e <= 64; e++)
            assertEquals(e <= SearchProof.SMALL_TABLE_MAX_EMPTIES ? SearchProof.SMALL_TABLE_MB : SearchProof.LARGE_TABLE_MB,
                    SearchProof.tableMb(e), e + " empties");
        assertEquals(64, SearchProof.tableMb(25));
        assertEquals(256, SearchProof.tableMb(26));
        assertTrue(SearchProof.RULES.contains("a table of 64 MiB up to 25 empty cells at the root, 256 MiB beyond"),
                "the rules that fix the certificate name the table: " + SearchProof.RULES);
    }
}
