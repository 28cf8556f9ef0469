package org.gamecert.producer.search;

import org.gamecert.producer.game.ConnectFour;
import org.gamecert.producer.game.Game;
import org.gamecert.producer.game.NoGo;
import org.gamecert.producer.game.Othello;

import java.util.ArrayList;
import java.util.List;

/**
 * Answers "V(p)?" and "V(p) ≥ b?" for any thread, with one solver per thread over a shared
 * table. Its answers are facts of the game, so callers that only act on answers stay
 * deterministic whatever the table size and the number of threads.
 */
public final class Oracle {
    private final Game game;
    private final TranspositionTable tt;
    private final ConnectFourTable c4table; // Connect Four boards whose position key fits it, else null
    private final List<Solver> solvers = new ArrayList<>();
    private final ThreadLocal<Solver> local;

    public Oracle(Game game, long ttMegabytes) {
        this.game = game;
        boolean compact = game instanceof ConnectFour
                && ((ConnectFour) game).w * (((ConnectFour) game).h + 1) <= ConnectFourTable.MAX_KEY_BITS;
        this.c4table = compact ? new ConnectFourTable(ttMegabytes) : null;
        this.tt = new TranspositionTable(compact ? 1 : ttMegabytes);
        this.local = ThreadLocal.withInitial(this::newSolver);
    }

    private Solver newSolver() {
        Solver s = game instanceof Othello ? new OthelloSolver((Othello) game, tt)
                : game instanceof NoGo ? new NoGoSolver((NoGo) game, tt)
                : new ConnectFourSolver((ConnectFour) game, tt, c4table);
        synchronized (solvers) { solvers.add(s); }
        return s;
    }

    public Game game() { return game; }

    /** Exact value of a position (terminal positions allowed). */
    public int value(long m, long o) {
        if (game.isTerminal(m, o)) return game.terminalValue(m, o);
        if (game instanceof ConnectFour) {
            // Win/draw/loss by two null windows, V >= 1? then V >= 0? (as Pons' weak solver): far
            // fewer nodes than one window wider than the utility range; on the Pons sets fewer in all
            // than V >= 0? first (L1_R3 -10 %, L1_R1 -8 %, but L1_R2 +9 %: it suits positions that
            // lose) or one window -1..1 (in between).
            Solver s = local.get();
            if (s.search(m, o, 0, 1) >= 1) return 1;
            return s.search(m, o, -1, 0) >= 0 ? 0 : -1;
        }
        if (game instanceof NoGo) return local.get().search(m, o, -1, 1); // win/loss: always exact
        Solver s = local.get();
        if (s instanceof OthelloSolver) return ((OthelloSolver) s).value(m, o);
        return s.search(m, o, game.uMin - 1, game.uMax + 1);
    }

    /** Whether V(p) ≥ b, by one null-window search. */
    public boolean atLeast(long m, long o, int b) {
        if (b <= game.uMin) return true;
        if (b > game.uMax) return false;
        if (game.isTerminal(m, o)) return game.terminalValue(m, o) >= b;
        return local.get().search(m, o, b - 1, b) >= b;
    }

    /** Nodes searched by all threads so far (approximate while they run). */
    public long nodes() {
        long n = 0;
        synchronized (solvers) { for (Solver s : solvers) n += s.nodes(); }
        return n;
    }
}
