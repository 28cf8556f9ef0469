package org.gamecert.producer.search;

import org.gamecert.producer.game.Board8;
import org.gamecert.producer.game.Othello;

/**
 * Exact Othello endgame solver. Exact values by MTD(f) null-window tests ({@link #value}); below
 * the root a fail-soft PVS with integer windows: from 7 empties, fastest-first move ordering
 * (opponent mobility, corner replies, the quiet-move term, square weights) after the table's
 * move, which is searched before the others are generated; from 8 empties the shared
 * transposition table, from 13 enhanced transposition cutoffs; stability cutoffs on 8×8 when
 * alpha is high. Over the last 6 empties, solvers without table or move generation, with the
 * quadrant parity kept incrementally, and dedicated 4-, 3-, 2- and 1-empty solvers (the last
 * square's flips counted by line tables on 8×8). Every result is a fact of the game (exact,
 * or a fail-soft bound), so the table and the ordering change speed, never answers.
 */
public final class OthelloSolver implements Solver {
    /** At most this many empties: the shallow solvers (no table, parity ordering only). */
    private static final int SMALL = 6;
    private static final int MAX_PLY = 70;
    private static final int NO_MOVE_YET = -1;
    /** From this many empties, enhanced transposition cutoffs (children looked up before any is searched). */
    private static final int ETC_MIN = 13;
    /** From this many empties, the table is used (below, a probe's cache miss costs more than it saves). */
    static final int TT_MIN = 8;

    /** The stability cutoff is tried only from these alphas (it rarely succeeds below), in the ordered search resp. the shallow one. */
    private static final int STAB_PVS = 14, STAB_SHALLOW = 8;
    private final boolean stability, eight;
    private final Othello g;
    private final TranspositionTable tt;
    private final int cells;
    private final int[] squareWeight;
    private final long board, corners, inner1, inner2;
    /** The squares next to a corner (C and X squares): tried last in the last empties. */
    private final long nearCorner;
    /** The four board quadrants: in the last empties, moves in a quadrant with an odd number of empties go first (parity). */
    private final long q0, q1, q2, q3;
    private long nodes;
    private final ProofLog log;
    private final boolean logging;
    /** Logging: the record that proves what the last pvs call returned ({@link ProofLog#NONE}: none needed). */
    private long proof = ProofLog.NONE;
    /** Logging: the records of the root's last tests that failed high and low ({@link #value}). */
    private long proofHigh = ProofLog.NONE, proofLow = ProofLog.NONE;
    private final long[][] childWords = new long[MAX_PLY][64];
    private final long[] oneChild = new long[1];
    private final long[][] keyBuf = new long[MAX_PLY][64];
    private final long[][] childMover = new long[MAX_PLY][64], childOpp = new long[MAX_PLY][64];

    public OthelloSolver(Othello g, TranspositionTable tt) {
        this(g, tt, null);
    }

    /**
     * A solver that keeps its proof in {@code log} when it is not null ({@link ProofLog}): every
     * node from {@code TT_MIN} empties appends its record, the table keeps with each bound the
     * record that proved it, and no stability cutoff is taken there (it proves a bound that no
     * move's record supports). Its table must be its own, and it answers one {@link #value} call:
     * {@link #search} would run the plain search, whose stores overwrite the table's proof handles.
     */
    public OthelloSolver(Othello g, TranspositionTable tt, ProofLog log) {
        this.log = log; this.logging = log != null;
        this.g = g; this.tt = tt; this.cells = g.cells;
        this.board = g.board;
        this.eight = g.n == 8;
        this.stability = g.n == 8;
        long col0 = 0, colLast = 0;
        for (int r = 0; r < g.n; r++) { col0 |= 1L << (r * g.n); colLast |= 1L << (r * g.n + g.n - 1); }
        this.inner1 = g.board & ~col0;
        this.inner2 = g.board & ~colLast;
        this.corners = 1L | (1L << (g.n - 1)) | (1L << (g.n * (g.n - 1))) | (1L << (g.n * g.n - 1));
        this.squareWeight = squareWeights(g.n);
        long near = 0;
        for (int sq = 0; sq < cells; sq++) if (squareWeight[sq] < 0) near |= 1L << sq;
        this.nearCorner = near;
        long[] q = new long[4];
        for (int r = 0; r < g.n; r++)
            for (int c = 0; c < g.n; c++) q[(r < g.n / 2 ? 0 : 2) + (c < g.n / 2 ? 0 : 1)] |= 1L << (r * g.n + c);
        q0 = q[0]; q1 = q[1]; q2 = q[2]; q3 = q[3];
        quadId = new int[cells];
        initParity();
    }

    /** Static square values: corners best, squares next to an empty corner worst. */
    static int[] squareWeights(int n) {
        int[] w = new int[n * n];
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                int er = Math.min(r, n - 1 - r), ec = Math.min(c, n - 1 - c);
                int v;
                if (er == 0 && ec == 0) v = 40;                      // corner
                else if (er + ec == 1 && (er == 0 || ec == 0)) v = -8; // C square
                else if (er == 1 && ec == 1) v = -20;                  // X square
                else if (er == 0 || ec == 0) v = 6;                    // edge
                else v = 0;
                w[r * n + c] = v;
            }
        return w;
    }

    @Override public long nodes() { return nodes; }

    private long moves(long m, long o) { return eight ? Board8.moves(m, o) : g.moves(m, o); }

    /** Weight of the quiet-move term: a move that leaves fewer of our discs next to empty squares gives fewer replies later. */
    private static final int FRONTIER_W = 16;

    /**
     * The search's ordering score of the move on {@code sq} (higher first; equal scores: the lower
     * square first), given the position after it: {@code m2} the mover's discs, {@code o2} the
     * opponent's. Fewest opponent replies, few corner replies, the square's weight, a small
     * frontier. The certificate's cut choice orders moves by it too (after the layer's
     * popularity), so the cut it must prove is mostly one the search has proved already.
     */
    public int moveScore(long m2, long o2, int sq) {
        long rep = moves(o2, m2);
        return -Long.bitCount(rep) * 16 - Long.bitCount(rep & corners) * 32 + squareWeight[sq]
                - Long.bitCount(frontier(m2, o2)) * FRONTIER_W;
    }

    /** The discs of {@code m} next to an empty square (its frontier). */
    private long frontier(long m, long o) {
        if (eight) return Board8.frontier(m, o);
        long empty = board & ~(m | o);
        long e = empty | (empty << 1 & inner1) | (empty >>> 1 & inner2);
        e |= (e << g.n) | (e >>> g.n);
        return m & e;
    }

    /** The discs flipped by a move on sq (0: not a legal move). */
    private long fl(long m, long o, int sq) { return eight ? Board8.flips(m, o, sq) : g.flips(m, o, sq); }

    private int utility(long m, long o) {
        int pm = Long.bitCount(m), po = Long.bitCount(o), e = cells - pm - po;
        return pm > po ? pm - po + e : pm < po ? pm - po - e : 0;
    }

    /** Roots with 0 to 3 empties (deeper searches reach these counts only through solve4). */
    private int smallExact(long m, long o, int alpha, int beta, long empty, int empties) {
        if (empties == 0) { nodes++; return utility(m, o); }
        int x1 = Long.numberOfTrailingZeros(empty);
        if (empties == 1) {
            int v = solve1(m, o, -1000, x1);
            return v;
        }
        long r = empty & (empty - 1);
        int x2 = Long.numberOfTrailingZeros(r);
        if (empties == 2) return solve2(m, o, alpha, beta, x1, x2);
        return solve3(m, o, alpha, beta, x1, x2, Long.numberOfTrailingZeros(r & (r - 1)), parity(empty));
    }

    /**
     * The exact value of a non-terminal position by a sequence of null-window searches (MTD(f)
     * from a first guess of 0, or from the table's bounds when it has the position): each test
     * "V ≥ b?" narrows [lo, hi] by its fail-soft bound until they meet. Near the true value a
     * null window prunes far more than one wide window (FFO #40-#44: 364 M -> 285 M nodes).
     */
    public int value(long m, long o) {
        int lo = -cells, hi = cells, b = 0;
        // Logging: the table is the solver's own and starts empty, and each test's proof is kept.
        long d = logging ? 0 : tt.probe(m, o);
        if (d != 0) {
            lo = Math.max(lo, TranspositionTable.lo(d));
            hi = Math.min(hi, TranspositionTable.hi(d));
            b = Math.max(lo + 1, Math.min(hi, 0));
        }
        while (lo < hi) {
            int r = logging ? pvsLogged(m, o, b - 1, b, 0) : pvs(m, o, b - 1, b, 0);
            if (r >= b) { lo = r; b = lo + 1; proofHigh = proof; } else { hi = r; b = hi; proofLow = proof; }
        }
        return lo;
    }

    /** Logging: the record proving the last {@link #value}'s "V ≥ value" (its last test that failed high). */
    public long proofOfLower() { return proofHigh; }

    /** Logging: the record proving "V ≤ value" (its last test that failed low). */
    public long proofOfUpper() { return proofLow; }

    @Override public int search(long m, long o, int alpha, int beta) {
        return pvs(m, o, alpha, beta, 0);
    }

    /**
     * The cut of the last node with {@code TT_MIN - 1} empties that failed high from its move loop
     * (its square), else -1: its parent, with {@code TT_MIN} empties, records its children's cuts.
     */
    private int lastCut = -1;

    /**
     * The record word of a position with {@code TT_MIN} empties that failed low in a null window
     * (α, α+1) after searching every move: bits 56–63 hold α + 128; for the i-th of its moves in
     * square order, bits 7i..7i+6 hold 1 + the square of the cut by which that child (with
     * {@code TT_MIN - 1} empties) failed high at −α, the first move of the child's own order (the
     * {@link #moveScore} order, ties by the lower square; no table move at that depth) whose value
     * reached −α, every move before it having been refuted; 0 where there was no such cut (a pass,
     * the game's end). Facts of the game: the extraction of a weak certificate with 6-empty leaves
     * reads them instead of searching the leaves again ({@link Oracle#leafCutRecord}).
     */
    public static int recordAlpha(long record) { return (int) (record >>> 56) - 128; }

    /** The recorded cut square of the child by the {@code rank}-th move (square order), or -1. */
    public static int recordCut(long record, int rank) { return (int) (record >>> (7 * rank) & 0x7F) - 1; }

    /**
     * The record word of a position with at least {@code TT_MIN} empties that failed high in a
     * null window (β − 1, β) from its move loop: bits 56–63 hold β + 128, bits 41–46 the square
     * of the move that reached β, and bit i (i ≤ 40) is set when the i-th of its moves in square
     * order was searched before it and stayed below β; at {@code TT_MIN} empties bits 49–55 are
     * all set ({@link #isHighRecord}), which no fail-low record has there. Facts of the game: an
     * extraction that must find the first move of its own order reaching a lower bound β reads
     * them instead of searching those moves again ({@link Oracle#cutRecord}).
     */
    public static int recordBeta(long record) { return (int) (record >>> 56) - 128; }

    /**
     * The tag of a fail-high record at {@code TT_MIN} empties, where the records of both kinds
     * live: bits 49–55 of a fail-low record hold one more than a square (at most 64), never 127.
     */
    private static final long HIGH_AT_TT_MIN = 0x7FL << 49;

    /**
     * Whether a record word of a position with {@code TT_MIN} empties is a fail-high record
     * ({@link #recordBeta}) rather than a fail-low one ({@link #recordAlpha}).
     */
    public static boolean isHighRecord(long record) { return (record & HIGH_AT_TT_MIN) == HIGH_AT_TT_MIN; }

    /** The square of the move that reached β in a fail-high record ({@link #recordBeta}). */
    public static int recordHighCut(long record) { return (int) (record >>> 41 & 0x3F); }

    /** Whether the {@code rank}-th move (square order) stayed below β in a fail-high record. */
    public static boolean recordRefuted(long record, int rank) {
        return rank <= MAX_REFUTED_RANK && (record >>> rank & 1) != 0;
    }

    private static final int MAX_REFUTED_RANK = 40;

    private int pvs(long m, long o, int alpha, int beta, int ply) {
        int empties = cells - Long.bitCount(m | o);
        if (empties <= SMALL) {
            long empty = board & ~(m | o);
            if (empties > 4) return shallow(m, o, alpha, beta, parity(empty), empties);
            if (empties == 4) return solve4(m, o, alpha, beta, parity(empty));
            return smallExact(m, o, alpha, beta, empty, empties);
        }
        nodes++;
        if (stability && alpha >= STAB_PVS && cells - 2 * Long.bitCount(o) <= alpha) {
            // stability cutoff: the opponent keeps its stable discs, so V <= cells - 2 * stable
            int ub = cells - 2 * Long.bitCount(Stability.stable(o, m));
            if (ub <= alpha) return ub;
        }
        long mv = moves(m, o);
        if (mv == 0) {
            if (moves(o, m) == 0) return utility(m, o);
            return -pvs(o, m, -beta, -alpha, ply + 1);
        }

        int ttMove = TranspositionTable.NO_MOVE;
        boolean useTT = empties >= TT_MIN;
        long d = useTT ? tt.probe(m, o) : 0;
        if (d != 0) {
            int lo = TranspositionTable.lo(d), hi = TranspositionTable.hi(d);
            if (lo >= beta) return lo;
            if (hi <= alpha) return hi;
            if (lo == hi) return lo;
            if (lo > alpha) alpha = lo;
            if (hi < beta) beta = hi;
            ttMove = TranspositionTable.move(d);
        }
        int best = -1000, bestMove = NO_MOVE_YET, a = alpha;
        // At TT_MIN empties in a null window: the children's cuts, for the record (see recordAlpha).
        final boolean recording = empties == TT_MIN && beta == alpha + 1;
        // From TT_MIN empties in a null window: the moves that stayed below beta (for a
        // fail-high record).
        final boolean recordingHigh = empties >= TT_MIN && beta == alpha + 1;
        final long allMoves = mv;
        long record = 0, refuted = 0;
        if (ttMove != TranspositionTable.NO_MOVE && (mv >>> ttMove & 1) != 0) {
            // the table's move first, before the others are generated and ordered: it often cuts
            long f = fl(m, o, ttMove);
            if (recording) lastCut = -1;
            best = -pvs(o & ~f, m | f | (1L << ttMove), -beta, -a, ply + 1);
            if (recording) record |= (long) (lastCut + 1) << (7 * Long.bitCount(allMoves & ((1L << ttMove) - 1)));
            if (recordingHigh && best < beta) refuted |= refutedBit(allMoves, ttMove);
            bestMove = ttMove;
            if (best > a) a = best;
            mv &= ~(1L << ttMove);
        }
        if (best < beta && mv != 0) {
            // the others: fewest opponent replies first, then the quiet-move and square terms
            long[] keys = keyBuf[ply], cms = childMover[ply], cos = childOpp[ply];
            int k = 0;
            for (long x = mv; x != 0; x &= x - 1) {
                int sq = Long.numberOfTrailingZeros(x);
                long bit = 1L << sq;
                long f = fl(m, o, sq);
                long m2 = m | f | bit, o2 = o & ~f;
                if (empties >= ETC_MIN) {
                    // enhanced transposition cutoff: a child the table already refutes
                    long cd = tt.probe(o2, m2);
                    if (cd != 0 && -TranspositionTable.hi(cd) >= beta) {
                        int v = -TranspositionTable.hi(cd);
                        tt.store(m, o, Math.min(v, cells), cells, sq, empties);
                        return v;
                    }
                }
                int s = moveScore(m2, o2, sq);
                // sort key: the score, then the lower square first on ties; the child kept at index sq
                keys[k++] = (long) s << 8 | (63 - sq);
                cms[sq] = m2; cos[sq] = o2;
            }
            for (int i = 0; i < k; i++) {
                // selection of the best remaining move, lazily: a cut usually comes early
                int bi = i;
                for (int j = i + 1; j < k; j++) if (keys[j] > keys[bi]) bi = j;
                long key = keys[bi]; keys[bi] = keys[i]; keys[i] = key;
                int sq = 63 - (int) (key & 0xFF);
                long m2 = cms[sq], o2 = cos[sq];
                int v;
                if (recording) lastCut = -1;
                if (bestMove == NO_MOVE_YET) v = -pvs(o2, m2, -beta, -a, ply + 1);
                else {
                    v = -pvs(o2, m2, -a - 1, -a, ply + 1);
                    if (v > a && v < beta) v = -pvs(o2, m2, -beta, -a, ply + 1);
                }
                if (recording) record |= (long) (lastCut + 1) << (7 * Long.bitCount(allMoves & ((1L << sq) - 1)));
                if (recordingHigh && v < beta) refuted |= refutedBit(allMoves, sq);
                if (v > best || bestMove == NO_MOVE_YET) {
                    best = v; bestMove = sq;
                    if (v > a) { a = v; if (a >= beta) break; }
                }
            }
        }
        if (empties == TT_MIN - 1) lastCut = best >= beta ? bestMove : -1;
        int lo = best >= beta ? best : best > alpha ? best : -1000;
        int hi = best <= alpha ? best : best < beta ? best : 1000;
        if (useTT) {
            if (recording && best <= alpha) record |= (long) (alpha + 128) << 56;
            else if (recordingHigh && best >= beta)
                record = (long) (beta + 128) << 56 | (long) bestMove << 41 | refuted
                        | (empties == TT_MIN ? HIGH_AT_TT_MIN : 0);
            else record = 0;
            tt.store(m, o, Math.max(lo, -cells), Math.min(hi, cells), bestMove, empties, record);
        }
        return best;
    }

    /**
     * {@link #pvs} for a solver that keeps its proof ({@link ProofLog}): the same search (null
     * windows only, {@link #value}'s tests) that appends a record for every node from {@code TT_MIN}
     * empties and leaves in {@link #proof} the record that proves what it returns. A copy, so that
     * the plain search's hot path carries no logging branch (measured: 6 % slower with them).
     */
    private int pvsLogged(long m, long o, int alpha, int beta, int ply) {
        proof = ProofLog.NONE; // what needs no record: few empties, a stability cutoff below TT_MIN, the game over
        int empties = cells - Long.bitCount(m | o);
        if (empties <= SMALL) {
            long empty = board & ~(m | o);
            if (empties > 4) return shallow(m, o, alpha, beta, parity(empty), empties);
            if (empties == 4) return solve4(m, o, alpha, beta, parity(empty));
            return smallExact(m, o, alpha, beta, empty, empties);
        }
        nodes++;
        if (stability && alpha >= STAB_PVS && cells - 2 * Long.bitCount(o) <= alpha && empties < TT_MIN) {
            // stability cutoff: the opponent keeps its stable discs, so V <= cells - 2 * stable
            int ub = cells - 2 * Long.bitCount(Stability.stable(o, m));
            if (ub <= alpha) return ub;
        }
        long mv = moves(m, o);
        if (mv == 0) {
            if (moves(o, m) == 0) return utility(m, o);
            return -pvsLogged(o, m, -beta, -alpha, ply + 1);
        }

        int ttMove = TranspositionTable.NO_MOVE;
        boolean useTT = empties >= TT_MIN;
        long d = useTT ? tt.probeProof(m, o) : 0;
        if (d != 0) {
            int lo = TranspositionTable.lo(d), hi = TranspositionTable.hi(d);
            if (lo >= beta) { proof = tt.lowerProof(); return lo; }
            if (hi <= alpha) { proof = tt.upperProof(); return hi; }
            if (lo == hi) return lo;
            if (lo > alpha) alpha = lo;
            if (hi < beta) beta = hi;
            ttMove = TranspositionTable.move(d);
        }
        int best = -1000, bestMove = NO_MOVE_YET, a = alpha;
        // At TT_MIN empties in a null window: the children's cuts, for the record (see recordAlpha).
        final boolean recording = empties == TT_MIN && beta == alpha + 1;
        // From TT_MIN empties in a null window: the moves that stayed below beta (for a
        // fail-high record).
        final boolean recordingHigh = empties >= TT_MIN && beta == alpha + 1;
        final long allMoves = mv;
        long record = 0, refuted = 0;
        long[] words = childWords[ply];
        int nWords = 0;
        long cutWord = 0;
        if (ttMove != TranspositionTable.NO_MOVE && (mv >>> ttMove & 1) != 0) {
            // the table's move first, before the others are generated and ordered: it often cuts
            long f = fl(m, o, ttMove);
            if (recording) lastCut = -1;
            best = -pvsLogged(o & ~f, m | f | (1L << ttMove), -beta, -a, ply + 1);
            cutWord = words[nWords++] = ProofLog.childWord(proof, ttMove);
            if (recording) record |= (long) (lastCut + 1) << (7 * Long.bitCount(allMoves & ((1L << ttMove) - 1)));
            if (recordingHigh && best < beta) refuted |= refutedBit(allMoves, ttMove);
            bestMove = ttMove;
            if (best > a) a = best;
            mv &= ~(1L << ttMove);
        }
        if (best < beta && mv != 0) {
            // the others: fewest opponent replies first, then the quiet-move and square terms
            long[] keys = keyBuf[ply], cms = childMover[ply], cos = childOpp[ply];
            int k = 0;
            for (long x = mv; x != 0; x &= x - 1) {
                int sq = Long.numberOfTrailingZeros(x);
                long bit = 1L << sq;
                long f = fl(m, o, sq);
                long m2 = m | f | bit, o2 = o & ~f;
                if (empties >= ETC_MIN) {
                    // enhanced transposition cutoff: a child the table already refutes
                    long cd = tt.probeProof(o2, m2);
                    if (cd != 0 && -TranspositionTable.hi(cd) >= beta) {
                        int v = -TranspositionTable.hi(cd);
                        // the cut child's proof is the record of its table bound
                        oneChild[0] = ProofLog.childWord(tt.upperProof(), sq);
                        proof = log.append(m, o, ProofLog.HIGH, v, sq, empties, oneChild, 1, 0);
                        tt.storeProof(m, o, Math.min(v, cells), cells, sq, empties, proof, ProofLog.NONE);
                        return v;
                    }
                }
                int s = moveScore(m2, o2, sq);
                // sort key: the score, then the lower square first on ties; the child kept at index sq
                keys[k++] = (long) s << 8 | (63 - sq);
                cms[sq] = m2; cos[sq] = o2;
            }
            for (int i = 0; i < k; i++) {
                // selection of the best remaining move, lazily: a cut usually comes early
                int bi = i;
                for (int j = i + 1; j < k; j++) if (keys[j] > keys[bi]) bi = j;
                long key = keys[bi]; keys[bi] = keys[i]; keys[i] = key;
                int sq = 63 - (int) (key & 0xFF);
                long m2 = cms[sq], o2 = cos[sq];
                int v;
                if (recording) lastCut = -1;
                if (bestMove == NO_MOVE_YET) v = -pvsLogged(o2, m2, -beta, -a, ply + 1);
                else {
                    v = -pvsLogged(o2, m2, -a - 1, -a, ply + 1);
                    if (v > a && v < beta) v = -pvsLogged(o2, m2, -beta, -a, ply + 1);
                }
                if (recording) record |= (long) (lastCut + 1) << (7 * Long.bitCount(allMoves & ((1L << sq) - 1)));
                if (recordingHigh && v < beta) refuted |= refutedBit(allMoves, sq);
                words[nWords++] = ProofLog.childWord(proof, sq);
                if (v > best || bestMove == NO_MOVE_YET) {
                    best = v; bestMove = sq;
                    cutWord = words[nWords - 1];
                    if (v > a) { a = v; if (a >= beta) break; }
                }
            }
        }
        if (empties == TT_MIN - 1) lastCut = best >= beta ? bestMove : -1;
        int lo = best >= beta ? best : best > alpha ? best : -1000;
        int hi = best <= alpha ? best : best < beta ? best : 1000;
        if (useTT) {
            if (recording && best <= alpha) record |= (long) (alpha + 128) << 56;
            else if (recordingHigh && best >= beta)
                record = (long) (beta + 128) << 56 | (long) bestMove << 41 | refuted
                        | (empties == TT_MIN ? HIGH_AT_TT_MIN : 0);
            else record = 0;
            // Null windows only (value's tests), so the node failed high or low.
            if (best >= beta) {
                oneChild[0] = cutWord;
                proof = log.append(m, o, ProofLog.HIGH, best, bestMove, empties, oneChild, 1, 0);
            } else {
                // at TT_MIN empties the children's own cuts, which have no records (see recordAlpha)
                proof = log.append(m, o, ProofLog.LOW, best, 0, empties, words, nWords, empties == TT_MIN ? record : 0);
            }
            tt.storeProof(m, o, Math.max(lo, -cells), Math.min(hi, cells), bestMove, empties,
                    best >= beta ? proof : ProofLog.NONE, best <= alpha ? proof : ProofLog.NONE);
        }
        return best;
    }

    /** The bit of the move on {@code sq} in a fail-high record: its rank among the moves. */
    private static long refutedBit(long moves, int sq) {
        int rank = Long.bitCount(moves & ((1L << sq) - 1));
        return rank <= MAX_REFUTED_RANK ? 1L << rank : 0;
    }

    /** Quadrant bit (1, 2, 4 or 8) of each square. */
    private final int[] quadId;
    /** For each 4-bit quadrant parity, the union of the quadrants whose bit is set. */
    private final long[] parityMask = new long[16];

    private void initParity() {
        long[] q = {q0, q1, q2, q3};
        for (int sq = 0; sq < cells; sq++)
            for (int i = 0; i < 4; i++) if ((q[i] >>> sq & 1) != 0) quadId[sq] = 1 << i;
        for (int par = 0; par < 16; par++)
            for (int i = 0; i < 4; i++) if ((par >>> i & 1) != 0) parityMask[par] |= q[i];
    }

    /** The quadrant parity of a set of empty squares: bit i set when quadrant i holds an odd number of them. */
    private int parity(long empty) {
        return (Long.bitCount(empty & q0) & 1) | (Long.bitCount(empty & q1) & 1) << 1
                | (Long.bitCount(empty & q2) & 1) << 2 | (Long.bitCount(empty & q3) & 1) << 3;
    }

    /**
     * Fail-soft alpha–beta over the last few empties (at least 5, at most SMALL): no table, no
     * move generation (each empty square is tried directly, a move being legal when it flips
     * something), moves in quadrants with an odd number of empties first (the parity, kept
     * incrementally); 4 empties and fewer go to the dedicated solvers.
     */
    private int shallow(long m, long o, int alpha, int beta, int parity, int empties) {
        nodes++;
        if (stability && alpha >= STAB_SHALLOW && cells - 2 * Long.bitCount(o) <= alpha) {
            int ub = cells - 2 * Long.bitCount(Stability.stable(o, m));
            if (ub <= alpha) return ub;
        }
        long empty = board & ~(m | o);
        long odd = parityMask[parity];
        int best = -1000;
        // odd quadrants first; in each, squares next to a corner last
        long e0 = empty & odd & ~nearCorner, e1 = empty & odd & nearCorner, e2 = empty & ~odd & ~nearCorner, e3 = empty & ~odd & nearCorner;
        for (int grp = 0; grp < 4; grp++) {
            for (long x = grp == 0 ? e0 : grp == 1 ? e1 : grp == 2 ? e2 : e3; x != 0; x &= x - 1) {
                int sq = Long.numberOfTrailingZeros(x);
                long f = fl(m, o, sq);
                if (f == 0) continue;
                int a = Math.max(alpha, best);
                int v = empties == 5 ? -solve4(o & ~f, m | f | (1L << sq), -beta, -a, parity ^ quadId[sq])
                        : -shallow(o & ~f, m | f | (1L << sq), -beta, -a, parity ^ quadId[sq], empties - 1);
                if (v > best) { best = v; if (v >= beta) return v; }
            }
        }
        if (best != -1000) return best;
        // the mover must pass, or the game is over
        for (long x = empty; x != 0; x &= x - 1)
            if (fl(o, m, Long.numberOfTrailingZeros(x)) != 0) return -shallow(o, m, -beta, -alpha, parity, empties);
        return utility(m, o);
    }

    /** Exact fail-soft value with 4 empty squares. */
    private int solve4(long m, long o, int alpha, int beta, int parity) {
        nodes++;
        long empty = board & ~(m | o);
        // odd-quadrant squares first, each group in square order
        long odd = parityMask[parity];
        long e1 = empty & odd, e2 = empty & ~odd;
        int x1, x2, x3, x4;
        long t = e1 != 0 ? e1 : e2;
        x1 = Long.numberOfTrailingZeros(t);
        if (e1 != 0) { e1 &= e1 - 1; } else { e2 &= e2 - 1; }
        t = e1 != 0 ? e1 : e2;
        x2 = Long.numberOfTrailingZeros(t);
        if (e1 != 0) { e1 &= e1 - 1; } else { e2 &= e2 - 1; }
        t = e1 != 0 ? e1 : e2;
        x3 = Long.numberOfTrailingZeros(t);
        if (e1 != 0) { e1 &= e1 - 1; } else { e2 &= e2 - 1; }
        x4 = Long.numberOfTrailingZeros(e1 | e2);
        int best = -1000;
        long f;
        if ((f = fl(m, o, x1)) != 0) {
            best = -solve3(o & ~f, m | f | (1L << x1), -beta, -alpha, x2, x3, x4, parity ^ quadId[x1]);
            if (best >= beta) return best;
        }
        if ((f = fl(m, o, x2)) != 0) {
            int v = -solve3(o & ~f, m | f | (1L << x2), -beta, -Math.max(alpha, best), x1, x3, x4, parity ^ quadId[x2]);
            if (v > best) { best = v; if (v >= beta) return v; }
        }
        if ((f = fl(m, o, x3)) != 0) {
            int v = -solve3(o & ~f, m | f | (1L << x3), -beta, -Math.max(alpha, best), x1, x2, x4, parity ^ quadId[x3]);
            if (v > best) { best = v; if (v >= beta) return v; }
        }
        if ((f = fl(m, o, x4)) != 0) {
            int v = -solve3(o & ~f, m | f | (1L << x4), -beta, -Math.max(alpha, best), x1, x2, x3, parity ^ quadId[x4]);
            if (v > best) best = v;
        }
        if (best != -1000) return best;
        if (fl(o, m, x1) != 0 || fl(o, m, x2) != 0 || fl(o, m, x3) != 0 || fl(o, m, x4) != 0)
            return -solve4(o, m, -beta, -alpha, parity);
        return utility(m, o);
    }

    /** Exact fail-soft value with the 3 empty squares x1, x2, x3. */
    private int solve3(long m, long o, int alpha, int beta, int x1, int x2, int x3, int parity) {
        nodes++;
        // parity: a square alone in its quadrant first
        if ((parity & quadId[x1]) == 0) {
            if ((parity & quadId[x2]) != 0) { int t = x1; x1 = x2; x2 = t; }
            else if ((parity & quadId[x3]) != 0) { int t = x1; x1 = x3; x3 = x2; x2 = t; }
        }
        int best = -1000;
        long f;
        if ((f = fl(m, o, x1)) != 0) {
            best = -solve2(o & ~f, m | f | (1L << x1), -beta, -alpha, x2, x3);
            if (best >= beta) return best;
        }
        if ((f = fl(m, o, x2)) != 0) {
            int v = -solve2(o & ~f, m | f | (1L << x2), -beta, -Math.max(alpha, best), x1, x3);
            if (v > best) { best = v; if (v >= beta) return v; }
        }
        if ((f = fl(m, o, x3)) != 0) {
            int v = -solve2(o & ~f, m | f | (1L << x3), -beta, -Math.max(alpha, best), x1, x2);
            if (v > best) best = v;
        }
        if (best != -1000) return best;
        // the mover passes: the opponent plays, if it can
        nodes++;
        int ob = -1000;
        if ((f = fl(o, m, x1)) != 0) {
            ob = -solve2(m & ~f, o | f | (1L << x1), alpha, beta, x2, x3);
            if (ob >= -alpha) return -ob;
        }
        if ((f = fl(o, m, x2)) != 0) {
            int v = -solve2(m & ~f, o | f | (1L << x2), alpha, -Math.max(-beta, ob), x1, x3);
            if (v > ob) { ob = v; if (v >= -alpha) return -v; }
        }
        if ((f = fl(o, m, x3)) != 0) {
            int v = -solve2(m & ~f, o | f | (1L << x3), alpha, -Math.max(-beta, ob), x1, x2);
            if (v > ob) ob = v;
        }
        if (ob != -1000) return -ob;
        nodes--;
        return utility(m, o);
    }

    /** Exact fail-soft value with the 2 empty squares x1, x2. */
    private int solve2(long m, long o, int alpha, int beta, int x1, int x2) {
        nodes++;
        int best = -1000;
        long f;
        if ((f = fl(m, o, x1)) != 0) {
            best = -solve1(o & ~f, m | f | (1L << x1), -beta, x2);
            if (best >= beta) return best;
        }
        if ((f = fl(m, o, x2)) != 0) {
            int v = -solve1(o & ~f, m | f | (1L << x2), -beta, x1);
            return Math.max(best, v);
        }
        if (best != -1000) return best;
        // the mover passes
        int ob = -1000;
        if ((f = fl(o, m, x1)) != 0) {
            nodes++;
            ob = -solve1(m & ~f, o | f | (1L << x1), alpha, x2);
            if (ob >= -alpha) return -ob;
        }
        if ((f = fl(o, m, x2)) != 0) {
            nodes++;
            ob = Math.max(ob, -solve1(m & ~f, o | f | (1L << x2), alpha, x1));
        }
        if (ob != -1000) return -ob;
        return utility(m, o);
    }

    /**
     * Value with the one empty square x: the mover plays it if it can, else the opponent, else
     * nobody (the empty square goes to the winner). Fail-soft against alpha: when the mover
     * cannot play and even the best case for it is at most alpha, that bound is returned without
     * looking at the opponent's move.
     */
    private int solve1(long m, long o, int alpha, int x) {
        nodes++;
        int base = 2 * Long.bitCount(m) - (cells - 1); // disc difference before x is played
        if (eight) {
            int n = LastFlip.count(x, m);
            if (n != 0) return base + 2 * n + 1;
            if (base + 1 <= alpha) return base + 1; // V <= base + 1 whoever plays x
            n = LastFlip.count(x, o);
            if (n != 0) return base - 2 * n - 1;
            return base > 0 ? base + 1 : base - 1;
        }
        long f = fl(m, o, x);
        if (f != 0) return base + 2 * Long.bitCount(f) + 1;
        if (base + 1 <= alpha) return base + 1; // V <= base + 1 whoever plays x
        f = fl(o, m, x);
        if (f != 0) return base - 2 * Long.bitCount(f) - 1;
        return base > 0 ? base + 1 : base - 1;
    }
}
