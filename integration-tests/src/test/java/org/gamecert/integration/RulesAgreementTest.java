package org.gamecert.integration;

import org.gamecert.producer.game.Game;
import org.gamecert.producer.game.NoGo;
import org.gamecert.verifier.kernel.rules.ConnectFourRules;
import org.gamecert.verifier.kernel.rules.NoGoRules;
import org.gamecert.verifier.kernel.rules.OthelloRules;
import org.junit.jupiter.api.Test;
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

    /**
     * Lines of Action N×N, N = 4, 5, 6 (SPEC §7.7): along seeded random games, the legal move codes,
     * every move's destination and successor (child, contracted pass, terminal with its value:
     * connections, simultaneous connection, a capture that connects the opponent), connection.
     */
    @Test
    void producerAndVerifierLoaRulesAgree() {
        int positions = 0, terminals = 0, draws = 0, losses = 0, passes = 0;
        long[] vc = new long[3], pc = new long[3];
        int[] mv = new int[64];
        for (int n = 4; n <= 6; n++) {
            org.gamecert.producer.game.Loa p = new org.gamecert.producer.game.Loa(n);
            org.gamecert.verifier.kernel.rules.LoaRules v = new org.gamecert.verifier.kernel.rules.LoaRules(n);
            long[] start = p.start();
            long[] vs = v.start();
            assertEquals(start[0], vs[0]);
            assertEquals(start[1], vs[1]);
            SplittableRandom rnd = new SplittableRandom(n);
            for (int gameNo = 0; gameNo < 400; gameNo++) {
                long m = start[0], o = start[1];
                for (int ply = 0; ply < 300; ply++) {
                    positions++;
                    String at = p.name() + " at " + p.boardText(m, o);
                    assertEquals(p.connected(m), v.connected(m), at);
                    assertEquals(p.connected(o), v.connected(o), at);
                    assertEquals(true, v.isLegalPosition(m, o), at);
                    int count = p.moves(m, o, mv);
                    long codes = 0;
                    for (int i = 0; i < count; i++) codes |= 1L << (mv[i] >>> 16);
                    assertEquals(codes, v.legalMoveCodes(m, o), at);
                    int nextType = -1;
                    long nm = 0, no = 0;
                    int pick = rnd.nextInt(count);
                    for (int i = 0; i < count; i++) {
                        int code = mv[i] >>> 16, from = mv[i] >>> 8 & 0xFF, to = mv[i] & 0xFF;
                        String mvAt = at + " move " + p.square(from) + "-" + p.square(to);
                        assertEquals(p.square(from) + "-" + p.square(to), v.moveText(m, o, code), mvAt);
                        int pt = p.play(m, o, from, to, pc);
                        int vt = v.child(m, o, code, vc);
                        int expected = pt == org.gamecert.producer.game.Loa.TERMINAL ? org.gamecert.verifier.kernel.rules.Game.TERMINAL
                                : pt == org.gamecert.producer.game.Loa.PASS ? org.gamecert.verifier.kernel.rules.Game.PASS_CHILD
                                : org.gamecert.verifier.kernel.rules.Game.CHILD;
                        assertEquals(expected, vt, mvAt);
                        if (pt == org.gamecert.producer.game.Loa.TERMINAL) {
                            assertEquals(pc[2], vc[2], mvAt);
                            terminals++;
                            if (pc[2] == 0) draws++;
                            if (pc[2] == -1) losses++;
                        } else {
                            if (pt == org.gamecert.producer.game.Loa.PASS) passes++;
                            assertEquals(pc[0], vc[0], mvAt);
                            assertEquals(pc[1], vc[1], mvAt);
                        }
                        if (i == pick) { nextType = pt; nm = pc[0]; no = pc[1]; }
                    }
                    if (nextType == org.gamecert.producer.game.Loa.TERMINAL) break;
                    m = nm;
                    o = no;
                }
            }
        }
        assertEquals(true, positions > 20000, "positions compared: " + positions);
        assertEquals(true, terminals > 1000 && draws > 0 && losses > 0,
                "outcomes seen: " + terminals + " terminal moves, " + draws + " draws, " + losses + " losses");
    }

    /**
     * NoGo 1×N on every size: legality, terminal test and value, legal moves, every move's
     * successor, along seeded random games; and the mirror, which the producer does not declare
     * (symmetry 0) but its search table uses, against the verifier's symmetry 1 of SPEC §7.4.
     */
    @Test
    void producerAndVerifierNoGoRulesAgreeOnEverySize() {
        int positions = 0;
        long[] vc = new long[3];
        Game.Child pc = new Game.Child();
        for (int n = 1; n <= 64; n++) {
            NoGo p = new NoGo(n);
            NoGoRules v = new NoGoRules(n);
            SplittableRandom rnd = new SplittableRandom(n);
            for (int gameNo = 0; gameNo < (n <= 12 ? 60 : 12); gameNo++) {
                long m = 0, o = 0;
                while (true) {
                    positions++;
                    String at = "nogo:1x" + n + " at " + p.boardText(m, o);
                    assertEquals(true, p.isLegalPosition(m, o), at);
                    assertEquals(true, v.isLegalPosition(m, o), at);
                    // a stone added anywhere empty, legal or not: both agree on the result's legality
                    for (long e = p.boardMask & ~(m | o); e != 0; e &= e - 1) {
                        long bit = e & -e;
                        assertEquals(p.isLegalPosition(o, m | bit), v.isLegalPosition(o, m | bit), at);
                    }
                    assertEquals(p.mirror(m), v.transform(m, 1), at);
                    assertEquals(p.mirror(o), v.transform(o, 1), at);
                    boolean term = p.isTerminal(m, o);
                    assertEquals(term, v.isTerminal(m, o), at);
                    if (term) { assertEquals(p.terminalValue(m, o), v.terminalValue(m, o), at); break; }
                    long moves = p.moves(m, o);
                    assertEquals(moves, v.legalMoveCodes(m, o), at);
                    for (long b = moves; b != 0; b &= b - 1) {
                        int move = Long.numberOfTrailingZeros(b);
                        p.child(m, o, move, pc);
                        int kind = v.child(m, o, move, vc);
                        String mv = at + " move " + p.moveName(move);
                        if (pc.sign == 0) {
                            assertEquals(org.gamecert.verifier.kernel.rules.Game.TERMINAL, kind, mv);
                            assertEquals(pc.terminalValue, (int) vc[2], mv);
                        } else {
                            assertEquals(org.gamecert.verifier.kernel.rules.Game.CHILD, kind, mv);
                            assertEquals(pc.mover, vc[0], mv);
                            assertEquals(pc.opponent, vc[1], mv);
                        }
                    }
                    int k = rnd.nextInt(Long.bitCount(moves));
                    long bits = moves;
                    for (int i = 0; i < k; i++) bits &= bits - 1;
                    long nm = p.play(m, o, Long.numberOfTrailingZeros(bits));
                    m = o; o = nm;
                }
            }
        }
        assertEquals(true, positions > 10000, "positions compared: " + positions);
    }

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
