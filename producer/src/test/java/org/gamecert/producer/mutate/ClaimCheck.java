package org.gamecert.producer.mutate;

import org.gamecert.producer.game.Game;

import java.util.HashMap;
import java.util.Map;

/**
 * Independent brute force for the equivalence test of accepted mutants: plain negamax with a memo
 * (no pruning, no bounds), then every claim of the certificate (root value, exact values and
 * canonical moves, cut moves' lower bounds, upper bounds) is compared with the truth. Only for the
 * small games of the audit campaign.
 */
final class ClaimCheck {
    private final Game game;
    private final Map<Long, Map<Long, Integer>> memo = new HashMap<>();
    private final Game.Child scratch = new Game.Child();

    ClaimCheck(Game game) { this.game = game; }

    /** Exact game value of (m, o) for the side to move, passes handled as in SPEC §7.2. */
    synchronized int value(long m, long o) {
        Map<Long, Integer> inner = memo.get(m);
        Integer v = inner == null ? null : inner.get(o);
        if (v != null) return v;
        int best;
        if (game.isTerminal(m, o)) best = game.terminalValue(m, o);
        else if (game.moves(m, o) == 0) best = -value(o, m);
        else {
            best = Integer.MIN_VALUE;
            for (long x = game.moves(m, o); x != 0; x &= x - 1) best = Math.max(best, moveValue(m, o, Long.numberOfTrailingZeros(x)));
        }
        memo.computeIfAbsent(m, k -> new HashMap<>()).put(o, best);
        return best;
    }

    /** Value of one move for the mover. */
    synchronized int moveValue(long m, long o, int move) {
        long m2 = game.play(m, o, move), o2 = o & ~m2;
        return -value(o2, m2);
    }

    /** The earliest maximizer under {@code g}'s TB order. */
    synchronized int canonicalMove(Game g, long m, long o) {
        int best = Integer.MIN_VALUE, bestMove = -1;
        for (int i = 0; i < g.moveCodes; i++) {
            int mv = g.tbAt(i);
            if ((g.moves(m, o) >>> mv & 1) == 0) continue;
            int w = moveValue(m, o, mv);
            if (w > best) { best = w; bestMove = mv; }
        }
        return bestMove;
    }

    /** Null when every claim of the certificate is true; else the first false claim. */
    String firstFalseClaim(byte[] file) {
        Cert c;
        Game g;
        try { c = Cert.parse(file); g = c.game(); }
        catch (Exception e) { return "unreadable: " + e.getMessage(); }
        if (g.moveCodes != game.moveCodes || g.cells != game.cells) return "another game";
        if (value(c.rootMover(), c.rootOpponent()) != c.rootValue()) return "root value " + c.rootValue();
        c.decodeAll();
        for (Cert.Block b : c.blocks) for (Entry e : b.entries) {
            if (!g.isLegalPosition(e.mover, e.opponent) || g.isTerminal(e.mover, e.opponent) || g.moves(e.mover, e.opponent) == 0)
                return "entry for a position that may not have one";
            long[] k = new long[2];
            g.canonical(e.mover, e.opponent, k);
            if (k[0] != e.mover || k[1] != e.opponent) return "non-canonical entry";
            if (e.hasMove() && (e.move >= 64 || (g.moves(e.mover, e.opponent) >>> e.move & 1) == 0)) return "illegal move";
            int v = value(e.mover, e.opponent);
            if (e.exact()) {
                if (e.v1 != v) return "exact value " + e.v1 + " but " + v;
                if (e.move != canonicalMove(g, e.mover, e.opponent)) return "move " + e.move + " not canonical";
            } else {
                if ((e.kinds & Entry.C) != 0 && moveValue(e.mover, e.opponent, e.move) < e.v1) return "cut move below " + e.v1;
                if ((e.kinds & Entry.A) != 0 && v > e.v2) return "upper bound " + e.v2 + " but " + v;
            }
        }
        return null;
    }
}
