package org.gamecert.producer.research;

import org.gamecert.producer.cert.CertificateReader;
import org.gamecert.producer.cert.Kinds;
import org.gamecert.producer.cert.LayerEntries;
import org.gamecert.producer.game.ConnectFour;
import org.gamecert.producer.game.Game;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Research throwaway (issue #40): the census of one of our Connect Four certificates per disc count
 * and kind set, in the columns of {@link PaperReopeningC4}'s census (region, {C}, {A}, {C, A}, proof-only
 * terminal positions, their sum), and the A' entries by value with how many moves R-TB-1 makes them
 * refute below their value.
 * <p>Usage: OurCensus CERT.gsc [CENSUS.json] (the JSON of {@code --census-json}, for the proof-only
 * terminal positions, which no entry holds).
 */
public final class OurCensus {
    public static void main(String[] args) throws Exception {
        CertificateReader r = CertificateReader.read(Path.of(args[0]));
        long[] term = new long[r.game.cells + 1];
        if (args.length > 1) {
            Matcher m = Pattern.compile("\"discs\":(\\d+),\"region\":\\d+,\"aux\":\\d+,\"proof_terminals\":(\\d+)")
                    .matcher(Files.readString(Path.of(args[1])));
            while (m.find()) term[Integer.parseInt(m.group(1))] = Long.parseLong(m.group(2));
        }
        long[][] rows = new long[r.game.cells + 1][5];
        for (long[] c : r.census) rows[(int) c[0]][0] = c[1];
        // A' entries (not P', not P): by value, and the moves earlier than the canonical one (R-TB-1)
        long[] apByValue = new long[3], strictMoves = new long[3];
        int[] tbRank = new int[r.game.moveCodes];
        for (int t = 0; t < r.game.moveCodes; t++) tbRank[r.game.tbAt(t)] = t;
        for (Map.Entry<Integer, LayerEntries> e : r.layers.entrySet()) {
            LayerEntries le = e.getValue();
            for (int i = 0; i < le.count; i++) {
                int k = le.kinds[i] & 0xFF;
                if (k == Kinds.C) rows[le.layer][1]++;
                else if (k == Kinds.A) rows[le.layer][2]++;
                else if (k == (Kinds.C | Kinds.A)) rows[le.layer][3]++;
                if (k == Kinds.AP) {
                    int v = le.value1[i];
                    apByValue[v + 1]++;
                    long mv = r.game.moves(le.mover[i], le.opponent[i]);
                    int canon = le.move[i] & 0xFF;
                    for (long y = mv; y != 0; y &= y - 1)
                        if (tbRank[Long.numberOfTrailingZeros(y)] < tbRank[canon]) strictMoves[v + 1]++;
                }
            }
        }
        for (int d = 0; d < rows.length; d++) rows[d][4] = term[d];
        long[] needed = neededTerminals(r), spec = terminals(r, false);
        if (args.length > 1 && !java.util.Arrays.equals(spec, term))
            System.out.println("# WARNING: SPEC 10.3 terminals recomputed here differ from the census JSON");
        System.out.printf("# %s: %s, root value %d, %d entries%n", args[0], r.game.name(), r.rootValue, r.entries);
        System.out.printf("# A'-only entries by value -1/0/+1: %d / %d / %d; their moves earlier than the canonical one "
                + "(R-TB-1 asks them below the value): %d / %d / %d%n", apByValue[0], apByValue[1], apByValue[2],
                strictMoves[0], strictMoves[1], strictMoves[2]);
        System.out.print(PaperReopeningC4.table(rows));
        long[][] alt = new long[rows.length][];
        for (int d = 0; d < rows.length; d++) { alt[d] = rows[d].clone(); alt[d][4] = needed[d]; }
        System.out.println("# the same, terminal positions counted as the paper's procedure would reach them: without the "
                + "moves of A' entries worth +1 later than the canonical one (a bound of +1 asks nothing)");
        System.out.print(PaperReopeningC4.table(alt));
    }

    private static long key(ConnectFour g, long m, long o) { return m + (m | o) + g.bottomMask; }

    /**
     * Per disc count, the terminal positions outside R that the bounds' evidence reaches (SPEC §10.3:
     * cut moves of C, every move of A, the refuted moves of A' entries), leaving out the refuted moves
     * that nothing needs: those of an A' entry worth +1 that come after its canonical move.
     */
    static long[] neededTerminals(CertificateReader r) { return terminals(r, true); }

    static long[] terminals(CertificateReader r, boolean onlyNeeded) {
        ConnectFour g = (ConnectFour) r.game;
        Game.Child ch = new Game.Child();
        // R's terminal positions: walk the region's needs from the root
        LongIntMap needs = new LongIntMap(16), rTerm = new LongIntMap(16);
        java.util.ArrayDeque<long[]> todo = new java.util.ArrayDeque<>();
        todo.add(new long[]{r.rootMover, r.rootOpponent, Kinds.P});
        needs.put(key(g, r.rootMover, r.rootOpponent), Kinds.P);
        while (!todo.isEmpty()) {
            long[] t = todo.poll();
            long m = t[0], o = t[1];
            int need = (int) t[2];
            LayerEntries le = r.layerOf(m, o);
            int i = le.find(m, o);
            int canon = le.move[i] & 0xFF;
            for (long y = g.moves(m, o); y != 0; y &= y - 1) {
                int c = Long.numberOfTrailingZeros(y);
                int cn = need == Kinds.P ? (c == canon ? Kinds.P : Kinds.AP) : need == Kinds.AP ? (c == canon ? Kinds.PP : 0) : Kinds.AP;
                if (cn == 0) continue;
                g.child(m, o, c, ch);
                if (ch.sign == 0) { rTerm.put(key(g, ch.termMover, ch.termOpponent), 1); continue; }
                long k = key(g, ch.mover, ch.opponent);
                int had = needs.get(k, 0);
                if ((had & cn) != 0) continue;
                needs.put(k, had | cn);
                todo.add(new long[]{ch.mover, ch.opponent, cn});
            }
        }
        LongIntMap seen = new LongIntMap(16);
        long[] out = new long[g.cells + 1];
        int[] tbRank = new int[g.moveCodes];
        for (int t = 0; t < g.moveCodes; t++) tbRank[g.tbAt(t)] = t;
        for (LayerEntries le : r.layers.values())
            for (int i = 0; i < le.count; i++) {
                int k = le.kinds[i] & 0xFF, canon = le.move[i] & 0xFF;
                boolean a = (k & Kinds.A) != 0, cut = (k & Kinds.C) != 0;
                boolean apOnly = (k & Kinds.AP) != 0 && (k & (Kinds.P | Kinds.PP)) == 0;
                if (!a && !cut && !apOnly) continue;
                long m = le.mover[i], o = le.opponent[i];
                for (long y = g.moves(m, o); y != 0; y &= y - 1) {
                    int c = Long.numberOfTrailingZeros(y);
                    boolean asked = a || (cut && c == canon)
                            || (apOnly && c != canon && !(onlyNeeded && le.value1[i] == 1 && tbRank[c] > tbRank[canon]));
                    if (!asked) continue;
                    g.child(m, o, c, ch);
                    if (ch.sign != 0) continue;
                    long tk = key(g, ch.termMover, ch.termOpponent);
                    if (rTerm.get(tk, 0) != 0 || seen.get(tk, 0) != 0) continue;
                    seen.put(tk, 1);
                    out[Long.bitCount(ch.termMover | ch.termOpponent)]++;
                }
            }
        return out;
    }
}
