package org.gamecert.integration;

import org.gamecert.producer.game.Game;
import org.gamecert.verifier.kernel.rules.ConnectFourRules;
import org.gamecert.verifier.kernel.rules.OthelloRules;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The two independently written rule sets (producer and verifier) agree, on many seeded random
 * positions along random games: legal moves, the successor of every move (ordinary child,
 * contracted pass, terminal with its value), terminal detection and values, legality, symmetries.
 */
class RulesAgreementTest {

    @ParameterizedTest
    @ValueSource(strings = {"othello:4x4", "othello:6x6", "othello:8x8", "connect4:7x6", "connect4:4x4",
            "connect4:5x4", "connect4:9x5", "connect4:8x6"})
    void producerAndVerifierRulesAgree(String name) {
        Game p = Game.parse(name);
        org.gamecert.verifier.kernel.rules.Game v = p.family == Game.FAMILY_OTHELLO
                ? new OthelloRules(p.width) : new ConnectFourRules(p.width, p.height);
        SplittableRandom rnd = new SplittableRandom(name.hashCode());
        Game.Child pc = new Game.Child();
        long[] vc = new long[3];
        int positions = 0;
        for (int gameNo = 0; gameNo < 400; gameNo++) {
            long[] s = p.start();
            long m = s[0], o = s[1];
            while (true) {
                positions++;
                String at = name + " at " + p.boardText(m, o);
                assertEquals(p.isLegalPosition(m, o), v.isLegalPosition(m, o), at);
                boolean term = p.isTerminal(m, o);
                assertEquals(term, v.isTerminal(m, o), at);
                if (term) { assertEquals(p.terminalValue(m, o), v.terminalValue(m, o), at); break; }
                long moves = p.moves(m, o);
                assertEquals(moves, v.legalMoveCodes(m, o), at);
                for (int g = 0; g < p.symmetryCount(); g++) {
                    assertEquals(p.transform(g, m), v.transform(m, g), at + " symmetry " + g);
                    assertEquals(p.transform(g, o), v.transform(o, g), at + " symmetry " + g);
                }
                if (moves == 0) { long t = m; m = o; o = t; continue; } // pass
                for (long b = moves; b != 0; b &= b - 1) {
                    int move = Long.numberOfTrailingZeros(b);
                    p.child(m, o, move, pc);
                    int kind = v.child(m, o, move, vc);
                    String mv = at + " move " + p.moveName(move);
                    if (pc.sign == 0) {
                        assertEquals(org.gamecert.verifier.kernel.rules.Game.TERMINAL, kind, mv);
                        assertEquals(pc.terminalValue, (int) vc[2], mv);
                    } else {
                        assertEquals(pc.sign < 0 ? org.gamecert.verifier.kernel.rules.Game.CHILD
                                : org.gamecert.verifier.kernel.rules.Game.PASS_CHILD, kind, mv);
                        assertEquals(pc.mover, vc[0], mv);
                        assertEquals(pc.opponent, vc[1], mv);
                    }
                }
                int k = rnd.nextInt(Long.bitCount(moves));
                long bits = moves;
                for (int i = 0; i < k; i++) bits &= bits - 1;
                long nm = p.play(m, o, Long.numberOfTrailingZeros(bits));
                long no = o & ~nm;
                m = no; o = nm;
            }
        }
        assertEquals(true, positions > 4000, "positions compared: " + positions);
    }
}
