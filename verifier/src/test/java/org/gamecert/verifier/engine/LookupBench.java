package org.gamecert.verifier.engine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.gamecert.verifier.kernel.format.BlockRecord;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.format.DataFrame;
import org.gamecert.verifier.kernel.format.Header;
import org.gamecert.verifier.kernel.format.Payload;
import org.gamecert.verifier.kernel.rules.ConnectFourRules;
import org.gamecert.verifier.kernel.rules.Game;
import org.gamecert.verifier.kernel.rules.OthelloRules;

/**
 * Where the checking pass spends its time, per child position, on the real layers of a certificate
 * (not a test; run by scripts/bench-lookup). For the entries of one layer, with the layer below
 * held as the verifier holds it (Layer, bucket index), it times cumulative stages: the entries'
 * legal moves; + making the children the checks consult (all moves, or a lone C's cut move); +
 * their canonical forms; + their lookups in the layer below. Also decoding, per entry. Prints the
 * best of several rounds; every result feeds a checksum so that nothing is optimised away.
 */
public final class LookupBench {
    private static long sink;
    private static Game game;
    private static int group;
    private static final long[] images = new long[9];
    private static long cMover;

    /** The canonical form, by the verifier's own code (Game.canonical); cMover gets its mover. */
    static long canonical(long mover, long opp) {
        long occ = game.canonical(mover, opp, group, images);
        cMover = images[8];
        return occ;
    }

    public static void main(String[] args) throws Exception {
        try {
            run(args);
        } catch (IllegalArgumentException | java.io.IOException | org.gamecert.verifier.kernel.format.FormatException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(2);
        }
    }

    static void run(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: LookupBench CERTIFICATE [DISCS [ROUNDS]]  (DISCS: the layer whose entries are checked;"
                    + " default: the one whose layer below is the biggest)");
            System.exit(2);
        }
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        List<byte[]> raws = new ArrayList<>();
        List<BlockRecord> recs = new ArrayList<>();
        Header h;
        try (Container ct = new Container(Path.of(args[0]))) {
            if (!Verifier.isCertificate(ct)) throw new IllegalArgumentException("not a certificate: " + args[0]);
            h = Header.parse(ct.readHeaderContent());
            for (BlockRecord r; (r = ct.nextBlockRecord()) != null; ) {
                recs.add(r);
                raws.add(DataFrame.decompress(ct.readDataFrame(r), (int) r.rawLen, r.index));
            }
        }
        game = h.family == Header.OTHELLO ? new OthelloRules(h.width) : new ConnectFourRules(h.width, h.height);
        group = h.symmetry == 0 ? 1 : game.symmetryCount;
        boolean weak = h.mode == Header.WEAK;
        long total = 0;
        long[] layerSize = new long[66];
        for (BlockRecord r : recs) {
            total += r.count;
            layerSize[(int) r.layer] += r.count;
        }
        int discs = args.length > 1 ? Integer.parseInt(args[1]) : -1;
        if (discs < 0) // the layer whose layer below is the biggest
            for (int d = 0; d + 1 < layerSize.length; d++)
                if (layerSize[d] > 0 && layerSize[d + 1] > 0 && (discs < 0 || layerSize[d + 1] > layerSize[discs + 1])) discs = d;
        if (discs < 0 || discs + 1 >= layerSize.length || layerSize[discs] == 0 || layerSize[discs + 1] == 0)
            throw new IllegalArgumentException("no layer " + discs + " with a layer below in " + args[0]);

        // decoding, per entry (into reused columns, as the verifier does)
        double decodeNs = Double.MAX_VALUE;
        Payload buffer = null;
        for (int round = 0; round < rounds; round++) {
            long t0 = System.nanoTime();
            for (int b = 0; b < recs.size(); b++) {
                buffer = Payload.decode(raws.get(b), (int) recs.get(b).count, weak, false, 0, game.uMin, game.uMax, buffer);
                sink += buffer.mover[buffer.count - 1];
            }
            decodeNs = Math.min(decodeNs, (System.nanoTime() - t0) / (double) total);
        }

        List<Payload> upper = new ArrayList<>();
        int width = 32 - Integer.numberOfLeadingZeros(game.uMax) + 1, moveBits = 32 - Integer.numberOfLeadingZeros(game.moveCodes - 1);
        Layer below = new Layer(64 - Long.numberOfLeadingZeros(game.boardMask), width, moveBits);
        Layer.Budget budget = new Layer.Budget(Long.MAX_VALUE / 4, 0);
        below.reset(discs + 1);
        below.ensure((int) layerSize[discs + 1], budget, true);
        for (int b = 0; b < recs.size(); b++) {
            Payload p = Payload.decode(raws.get(b), (int) recs.get(b).count, weak, false, 0, game.uMin, game.uMax, null);
            if (recs.get(b).layer == discs) upper.add(p);
            if (recs.get(b).layer == discs + 1)
                for (int i = 0; i < p.count; i++) below.add(p.occ[i], p.mover[i], p.kind[i], p.lo[i], p.hi[i], p.move[i]);
        }
        below.index(budget);

        String[] stages = {"legal moves", "+ make the children", "+ canonical forms", "+ lookups"};
        double[] perEntry = new double[stages.length];
        java.util.Arrays.fill(perEntry, Double.MAX_VALUE);
        long children = 0, found = 0;
        long[] out = new long[3];
        for (int round = 0; round < rounds; round++) {
            for (int stage = 0; stage < stages.length; stage++) {
                long t0 = System.nanoTime(), kids = 0, hits = 0;
                for (Payload p : upper)
                    for (int i = 0; i < p.count; i++) {
                        long mover = p.mover[i], opp = p.occ[i] & ~mover;
                        int k = p.kind[i] & 0xFF, mv = p.move[i] & 0xFF;
                        long legal = game.legalMoveCodes(mover, opp);
                        sink += legal;
                        if (stage == 0) continue;
                        for (long bits = k == Payload.C ? 1L << mv : legal; bits != 0; bits &= bits - 1) {
                            int type = game.child(mover, opp, Long.numberOfTrailingZeros(bits), out);
                            sink += out[0] ^ out[1];
                            if (type == Game.TERMINAL) continue;
                            kids++;
                            if (stage == 1) continue;
                            long occ = canonical(out[0], out[1]);
                            sink += occ ^ cMover;
                            if (stage == 2) continue;
                            int idx = below.find(occ, cMover);
                            if (idx >= 0) {
                                hits++;
                                sink += below.kind(idx) + below.lo(idx);
                            }
                        }
                    }
                perEntry[stage] = Math.min(perEntry[stage], (System.nanoTime() - t0) / (double) countOf(upper));
                if (stage == stages.length - 1) {
                    children = kids;
                    found = hits;
                }
            }
        }
        long n = countOf(upper);
        System.out.printf("%s: %s %s, %,d entries; layer %d (%,d entries) checked against layer %d (%,d entries, %,d table bytes)%n",
                args[0], h.family == Header.OTHELLO ? "othello:" + h.width + "x" + h.width : "connect4:" + h.width + "x" + h.height,
                weak ? "weak" : "semi-strong", total, discs, n, discs + 1, layerSize[discs + 1], below.bytes());
        System.out.printf("children consulted that are not terminal: %,d (%.2f per entry), found in the layer below: %,d%n", children, children / (double) n, found);
        System.out.printf("best of %d rounds, ns per entry of layer %d (and per such child, the stage's own cost):%n", rounds, discs);
        for (int s = 0; s < stages.length; s++) {
            double own = perEntry[s] - (s == 0 ? 0 : perEntry[s - 1]);
            System.out.printf("  %-22s %8.1f ns per entry   %s%n", stages[s], perEntry[s],
                    s == 0 ? "" : String.format("(%+.1f ns per child)", own * n / Math.max(1, children)));
        }
        System.out.printf("decoding a block, all layers: %.1f ns per entry%n", decodeNs);
        System.out.println("(checksum " + (sink & 0xFF) + ")");
    }

    private static long countOf(List<Payload> ps) {
        long n = 0;
        for (Payload p : ps) n += p.count;
        return n;
    }
}
