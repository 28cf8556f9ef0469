package org.gamecert.producer.mutate;

import org.gamecert.producer.game.Game;
import org.gamecert.producer.mutate.peer.PeerMutationClass;
import org.gamecert.producer.mutate.peer.PeerMutations;
import org.gamecert.producer.mutate.peer.PeerTableSet;
import org.gamecert.producer.search.Oracle;
import org.gamecert.verifier.peer.PeerResult;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

/**
 * Writes the peer part of the corpus: testdata/peer/valid/NAME/ (small exports of 6×6 solves) and
 * testdata/peer/mutants/CLASS/ (one mutant per peer-* class), and replaces the `peer` lines of
 * testdata/manifest.tsv. Run: `scripts/audit --write-peer-corpus`. A mutant's listed verdict is
 * what a sound verifier must say (rejected, with the rule that fired); when our verifier accepts a
 * mutant whose claims are false, the line still says rejected, with the class's first expected
 * rule, and a warning is printed (the corpus test then fails until the verifier is fixed).
 */
public final class PeerCorpusMain {
    public static void main(String[] args) throws Exception {
        Path testdata = Paths.get(args.length > 0 ? args[0] : "testdata");
        Path work = Files.createTempDirectory("peer-corpus-");
        Game o6 = Game.parse("othello:6x6");
        // Small on purpose (the whole peer corpus stays under 2 MB): 10 to 12 empties; mutants from the first that fits.
        List<PeerAuditMain.Input> inputs = List.of(
                new PeerAuditMain.Input("othello6-12empties-weak", board(o6, AuditMain.playout(o6, 24, new Random(14))), "weak"),
                new PeerAuditMain.Input("othello6-10empties", board(o6, AuditMain.playout(o6, 26, new Random(15))), "semi-strong"),
                // the smaller two have no record with merged kinds, which peer-kind-bit-removed needs
                new PeerAuditMain.Input("othello6-12empties", board(o6, AuditMain.playout(o6, 24, new Random(12))), "semi-strong"));
        Path peer = testdata.resolve("peer");
        PeerAuditMain.deleteTree(peer);
        List<String> lines = new ArrayList<>();
        List<PeerTableSet> sets = new ArrayList<>();
        for (PeerAuditMain.Input in : inputs) {
            Path dir = PeerAuditMain.exportInput(in, work, System.err);
            if (dir == null) throw new IllegalStateException("could not export " + in.name());
            PeerTableSet s = PeerTableSet.load(dir);
            sets.add(s);
            if (sets.size() > 2) continue; // the 12-empties solve only serves as a mutant source (size)
            Path to = peer.resolve("valid").resolve(in.name());
            s.write(to);
            PeerResult r = PeerAuditMain.verify(to, work);
            if (r.verdict() != PeerResult.Verdict.VERIFIED) throw new IllegalStateException(to + " not verified: " + r.violation);
            lines.add("peer/valid/" + in.name() + "\tpeer\tverified\t-\t-\tpeer 6x6 tables of a " + in.mode()
                    + " solve of " + in.board() + " (" + r.entries() + " records)");
        }
        Oracle oracle = PeerMutations.oracle();
        PeerAuditMain.ClaimTruth[] truth = new PeerAuditMain.ClaimTruth[inputs.size()];
        for (int k = 0; k < truth.length; k++) truth[k] = new PeerAuditMain.ClaimTruth(oracle);
        for (PeerMutationClass m : PeerMutations.ALL_CLASSES) {
            String line = null;
            search:
            for (int k = 0; k < sets.size(); k++) {
                for (long seed = 1; seed <= 40; seed++) {
                    PeerMutationClass.Result mu = m.apply(sets.get(k), seed, oracle);
                    if (mu == null) break;
                    Path to = peer.resolve("mutants").resolve(m.name);
                    mu.tables.write(to);
                    PeerResult r = PeerAuditMain.verify(to, work);
                    String what = "from " + inputs.get(k).name() + ", seed " + seed + ": " + mu.detail;
                    if (r.verdict() == PeerResult.Verdict.REJECTED && r.violation != null && m.expectedRules.contains(r.violation.rule)) {
                        line = "peer/mutants/" + m.name + "\tpeer\trejected\t" + r.violation.rule + "\t" + m.name + "\t" + what;
                        break search;
                    }
                    String falseClaim = r.verdict() == PeerResult.Verdict.VERIFIED ? truth[k].firstFalseClaim(mu.tables) : null;
                    if (falseClaim != null) { // a miss of our verifier: list what a sound one must say
                        String rule = new TreeSet<>(m.expectedRules).first();
                        System.err.println("WARNING: " + m.name + " mutant verified although " + falseClaim + "; listed as rejected " + rule);
                        line = "peer/mutants/" + m.name + "\tpeer\trejected\t" + rule + "\t" + m.name + "\t" + what;
                        break search;
                    }
                    if (System.getenv("PEER_CORPUS_DEBUG") != null)
                        System.err.println(m.name + " " + what + " -> " + r.verdict().text() + " " + r.violation);
                    PeerAuditMain.deleteTree(to);
                }
            }
            if (line == null) throw new IllegalStateException("no corpus mutant for " + m.name);
            lines.add(line);
        }
        Path manifest = testdata.resolve("manifest.tsv");
        StringBuilder sb = new StringBuilder();
        for (String l : Files.readAllLines(manifest, StandardCharsets.UTF_8)) {
            String[] f = l.split("\t");
            // Its own lines go; hand-crafted ones (testdata/crafted/, CraftedCorpus) stay.
            if (!l.startsWith("#") && f.length > 1 && f[1].equals("peer") && !l.startsWith("crafted/")) continue;
            sb.append(l).append('\n');
        }
        for (String l : lines) sb.append(l).append('\n');
        Files.writeString(manifest, sb.toString(), StandardCharsets.UTF_8);
        PeerAuditMain.deleteTree(work);
        System.err.println("peer corpus: " + lines.size() + " lines in " + manifest);
    }

    private static String board(Game g, long[] p) { return g.boardText(p[0], p[1]); }
}
