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
        if (symmetricProbes && game.cells - Long.bitCount(m | o) >= OthelloSolver.TT_MIN) {
            Images im = images.get();
            int held = im.lookUp(m, o);
            long fm = m, fo = o;
            boolean framed = false;
            for (int g = 0; g < im.n; g++) {
                if ((held >>> g & 1) == 0) continue;
                long d = im.data[g];
                int lo = TranspositionTable.lo(d);
                if (lo == TranspositionTable.hi(d)) return lo;
                if (!framed) { framed = true; fm = im.m[g]; fo = im.o[g]; } // see atLeast
            }
            return ((OthelloSolver) s).value(fm, fo);
        }
        if (s instanceof OthelloSolver) return ((OthelloSolver) s).value(m, o);
        return s.search(m, o, game.uMin - 1, game.uMax + 1);
    }

    /** Whether V(p) ≥ b, by one null-window search. */
    public boolean atLeast(long m, long o, int b) {
        if (b <= game.uMin) return true;
        if (b > game.uMax) return false;
        if (game.isTerminal(m, o)) return game.terminalValue(m, o) >= b;
        if (symmetricProbes && game.cells - Long.bitCount(m | o) >= OthelloSolver.TT_MIN) {
            // The first orientation the table holds: its bounds may decide; if not, the search
            // starts there, in the frame of the searches that stored it, so that its subtree's
            // entries (bounds and best moves) are found too. The answer is the same fact.
            Images im = images.get();
            int held = im.lookUp(m, o);
            long fm = m, fo = o;
            boolean framed = false;
            for (int g = 0; g < im.n; g++) {
                if ((held >>> g & 1) == 0) continue;
                long d = im.data[g];
                if (TranspositionTable.lo(d) >= b) return true;
                if (TranspositionTable.hi(d) < b) return false;
                if (!framed) { framed = true; fm = im.m[g]; fo = im.o[g]; }
            }
            return local.get().search(fm, fo, b - 1, b) >= b;
        }
        return local.get().search(m, o, b - 1, b) >= b;
    }

    /**
     * Othello: from now on, a question first looks for its position in the table under each of
     * the board's symmetries. The extraction asks about canonical positions, while the searches
     * before it stored the positions as they met them, in any orientation: FFO #40 (weak, 6 empty
     * leaves) searched 37 % fewer nodes with it. A symmetric position has the same value, so the
     * answers are the same facts.
     */
    public void probeSymmetries() {
        symmetricProbes = game instanceof Othello && game.symmetryCount() > 1;
    }

    private volatile boolean symmetricProbes;

    /**
     * From now on, no question will be about a position with more than {@code empties} empties:
     * the table replaces those first ({@link TranspositionTable#horizon}). The extraction, layer by
     * layer, would otherwise keep the upper layers' positions (more empties: kept first) and lose
     * the ones it asks about next. Speed only: the answers are the same facts.
     */
    public void horizon(int empties) { tt.horizon(empties); }

    /**
     * Othello: the empties of the positions whose searches record their children's cuts
     * ({@link OthelloSolver#recordAlpha}); -1 for the other games.
     */
    public int leafCutRecordEmpties() { return game instanceof Othello ? OthelloSolver.TT_MIN : -1; }

    /**
     * Othello, a position with {@link #leafCutRecordEmpties} empties: the record word of an
     * orientation of (m, o) that failed low at exactly {@code alpha}, else 0; {@code symmetry[0]}
     * is then the symmetry g for which the table holds (transform(g, m), transform(g, o)). A fact
     * of the game, whatever the table happens to hold.
     */
    public long leafCutRecord(long m, long o, int alpha, int[] symmetry) {
        Images im = images.get();
        int held = im.lookUp(m, o);
        for (int g = 0; g < im.n; g++) {
            long r = im.record[g];
            if ((held >>> g & 1) != 0 && r != 0 && !OthelloSolver.isHighRecord(r) && OthelloSolver.recordAlpha(r) == alpha) {
                symmetry[0] = g;
                return r;
            }
        }
        return 0;
    }

    /**
     * Othello, a position with at least {@link #leafCutRecordEmpties} empties: the record word of
     * an orientation of (m, o) that failed high at exactly {@code beta} ({@link
     * OthelloSolver#recordBeta}), else 0; {@code symmetry[0]} is then the symmetry g for which the
     * table holds (transform(g, m), transform(g, o)). Facts of the game, whatever the table holds.
     */
    public long cutRecord(long m, long o, int beta, int[] symmetry) {
        int empties = game.cells - Long.bitCount(m | o);
        if (!(game instanceof Othello) || empties < OthelloSolver.TT_MIN) return 0;
        boolean shared = empties == OthelloSolver.TT_MIN; // both kinds of record live there
        Images im = images.get();
        int held = im.lookUp(m, o);
        for (int g = 0; g < im.n; g++) {
            long r = im.record[g];
            if ((held >>> g & 1) != 0 && r != 0 && (!shared || OthelloSolver.isHighRecord(r))
                    && OthelloSolver.recordBeta(r) == beta) {
                symmetry[0] = g;
                return r;
            }
        }
        return 0;
    }

    /** A position's images under the symmetries and what the table holds of each (per thread). */
    private final class Images {
        final int n = game.symmetryCount();
        final long[] m = new long[n], o = new long[n], data = new long[n], record = new long[n];
        final int[] idx = new int[n];

        /** Bit g set when the table holds image g; its words are then in data[g] and record[g]. */
        int lookUp(long pm, long po) {
            for (int g = 0; g < n; g++) {
                m[g] = game.transform(g, pm);
                o[g] = game.transform(g, po);
            }
            return tt.lookUp(m, o, n, idx, data, record);
        }
    }

    private final ThreadLocal<Images> images = ThreadLocal.withInitial(Images::new);

    /**
     * Othello: the search's ordering score of the move on {@code sq} given the position after it
     * ({@code moverAfter} the mover's discs), higher first (see {@link OthelloSolver#moveScore}).
     * A function of the position alone.
     */
    public int othelloMoveScore(long moverAfter, long opponentAfter, int sq) {
        return ((OthelloSolver) local.get()).moveScore(moverAfter, opponentAfter, sq);
    }

    /** Nodes searched by all threads so far (approximate while they run). */
    public long nodes() {
        long n = 0;
        synchronized (solvers) { for (Solver s : solvers) n += s.nodes(); }
        return n;
    }
}
