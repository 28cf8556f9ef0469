package org.gamecert.producer.research;

import org.gamecert.producer.cert.CertificateReader;
import org.gamecert.producer.cert.Kinds;
import org.gamecert.producer.cert.LayerEntries;

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
        System.out.printf("# %s: %s, root value %d, %d entries%n", args[0], r.game.name(), r.rootValue, r.entries);
        System.out.printf("# A'-only entries by value -1/0/+1: %d / %d / %d; their moves earlier than the canonical one "
                + "(R-TB-1 asks them below the value): %d / %d / %d%n", apByValue[0], apByValue[1], apByValue[2],
                strictMoves[0], strictMoves[1], strictMoves[2]);
        System.out.print(PaperReopeningC4.table(rows));
    }
}
