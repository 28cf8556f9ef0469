package org.gamecert.integration;

import org.gamecert.producer.cli.ProduceMain;
import org.gamecert.producer.mutate.composite.CompositeMutations;
import org.gamecert.producer.mutate.composite.CompositeSet;
import org.gamecert.verifier.engine.CompositeVerifier;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.engine.Verifier;
import org.gamecert.verifier.kernel.Result;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Compositional certificates (SPEC §15) made by the producer (solve --split-at, solve-part,
 * compose) and checked by the independent verifier: the composite verifies, proves the monolithic
 * certificate's root value, and the union of its parts' regions is the monolithic region census;
 * every comp-* mutation class gets the verdict and rule it names.
 */
class CompositeVerifyTest {
    @TempDir Path dir;

    private static String produce(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = ProduceMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, rc, String.join(" ", args) + ": " + err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    private static List<String> solveArgs(String game, String moves, String mode, int leaves) {
        List<String> a = new ArrayList<>(List.of("solve", "--game", game, "--mode", mode, "--threads", "2", "--tt-mb", "64", "-q"));
        if (!moves.isEmpty()) { a.add("--moves"); a.add(moves); }
        if (leaves > 0) { a.add("--leaf-empties"); a.add("" + leaves); }
        return a;
    }

    /** Produces the composite of the root split at {@code split} discs into {@code d}. */
    static void makeComposite(Path d, String game, String moves, String mode, int leaves, int split) {
        List<String> a = solveArgs(game, moves, mode, leaves);
        a.addAll(List.of("--split-at", "" + split, "--out", d.toString()));
        produce(a.toArray(new String[0]));
        produce("solve-part", d.toString(), "--parts", "all", "--jobs", "2", "-q");
        produce("compose", d.toString());
    }

    /**
     * A composite of each game and mode verifies, proves the monolithic root value and its union
     * census is the monolithic region: the quick cases, one of each game (the larger solves, of
     * about 10 s each, below in -Pslow).
     */
    @ParameterizedTest(name = "{0} {2} {1} split at {4}")
    @CsvSource({
            "othello:4x4, '', semi-strong, 0, 8",
            "othello:4x4, '', weak, 0, 7",
            "othello:6x6, e4e3b2c5e2f2f3a1f1b4b6d6a4a3b3e5b5f4, weak, 4, 26",
            "connect4:4x5, '', weak, 0, 5",
            "nogo:1x13, '', weak, 0, 3"})
    void producedCompositeVerifiesAndMatchesTheMonolithicCertificate(String game, String moves, String mode, int leaves, int split)
            throws Exception {
        compositeMatchesMonolith(game, moves, mode, leaves, split);
    }

    /** The same for the larger semi-strong solves of 6×6 Othello, Connect Four and NoGo. */
    @Tag("slow")
    @ParameterizedTest(name = "{0} {2} {1} split at {4}")
    @CsvSource({
            "othello:6x6, e4e3b2c5e2f2f3a1f1b4b6d6a4a3b3e5b5f4, semi-strong, 0, 25",
            "connect4:5x4, '', semi-strong, 0, 6",
            "nogo:1x11, '', semi-strong, 0, 4"})
    void largerSemiStrongCompositesVerifyAndMatchTheMonolithicCertificate(String game, String moves, String mode, int leaves,
            int split) throws Exception {
        compositeMatchesMonolith(game, moves, mode, leaves, split);
    }

    private void compositeMatchesMonolith(String game, String moves, String mode, int leaves, int split)
            throws Exception {
        Path d = dir.resolve("composite");
        makeComposite(d, game, moves, mode, leaves, split);
        String printed = produce("compose", d.toString());
        Options opt = new Options();
        opt.threads = 2;
        CompositeVerifier.Outcome c = CompositeVerifier.verify(d, opt, null);
        assertEquals(Result.Verdict.VERIFIED, c.verdict(), () -> c.error + " " + c.composition.violation + " " + c.composition.partViolation);
        assertTrue(printed.contains(c.composition.compositeId), "the producer's composite id is the verifier's");

        Path mono = dir.resolve("mono.gsc");
        List<String> a = solveArgs(game, moves, mode, leaves);
        a.addAll(List.of("--out", mono.toString()));
        produce(a.toArray(new String[0]));
        Result r = Verifier.verify(mono, new Options());
        assertEquals(Result.Verdict.VERIFIED, r.verdict);
        // The composite proves the monolithic root value (part 0's claim: [v, v]).
        assertEquals(r.header.rootValue, c.parts.get(0).result.header.rootValue);
        // The union of the parts' regions is the monolithic region, row by row (SPEC §15.4).
        assertNotNull(c.union, c.unionNote);
        for (long[] row : r.census) {
            int i = -1;
            for (int k = 0; k < c.census.length; k++) if (c.census[k][0] == row[0]) i = k;
            long union = i < 0 ? 0 : c.union[i];
            assertEquals(row[1], union, "discs " + row[0]);
        }
    }

    /** Every comp-* class, a few seeds each, on a semi-strong and a weak composite. */
    @Tag("slow") @Test void everyCompositeMutationClassGetsItsVerdict() throws Exception {
        Path semi = dir.resolve("semi"), weak = dir.resolve("weak");
        makeComposite(semi, "othello:6x6", "e4e3b2c5e2f2f3a1f1b4b6d6a4a3b3e5b5f4", "semi-strong", 0, 25);
        makeComposite(weak, "connect4:5x4", "", "weak", 0, 6);
        Options opt = new Options();
        opt.threads = 2;
        int checked = 0;
        for (Path base : new Path[] {semi, weak}) {
            CompositeSet set = CompositeSet.load(base);
            for (CompositeMutations.Kind k : CompositeMutations.ALL)
                for (long seed = 1; seed <= 2; seed++) {
                    CompositeMutations.Result m = k.apply(set, seed);
                    if (m == null) continue;
                    Path out = dir.resolve(base.getFileName() + "-" + k.name + "-" + seed);
                    m.composite.write(out);
                    CompositeVerifier.Outcome c = CompositeVerifier.verify(out, opt, null);
                    String what = k.name + " seed " + seed + " on " + base.getFileName() + ": " + m.detail;
                    if (k.expectedRules.contains(CompositeMutations.INCOMPLETE)) {
                        assertEquals(Result.Verdict.INCOMPLETE, c.verdict(), what);
                        assertTrue(c.composition.stillOpenCount() > 0, what);
                    } else {
                        assertEquals(Result.Verdict.REJECTED, c.verdict(), what);
                        assertTrue(k.expectedRules.contains(c.composition.violation.rule()), what + ": " + c.composition.violation);
                    }
                    checked++;
                }
        }
        assertTrue(checked >= 2 * (CompositeMutations.ALL.size() - 1), "most classes apply to both: " + checked);
    }

    /** A part with open entries is incomplete on its own; a part without is verified (SPEC §15.1). */
    @Test void partsAloneAreIncompleteOrVerified() throws Exception {
        Path d = dir.resolve("c");
        makeComposite(d, "connect4:5x4", "", "semi-strong", 0, 6);
        CompositeSet set = CompositeSet.load(d);
        Result root = Verifier.verify(d.resolve(set.parts.get(0) + ".gsc"), new Options());
        assertEquals(Result.Verdict.INCOMPLETE, root.verdict);
        Result part = Verifier.verify(d.resolve(set.parts.get(1) + ".gsc"), new Options());
        assertEquals(Result.Verdict.VERIFIED, part.verdict);
        Files.delete(d.resolve(set.parts.get(1) + ".gsc"));
        assertEquals(Result.Verdict.INCOMPLETE, CompositeVerifier.verify(d, new Options(), null).verdict());
    }
    /**
     * The largest header (SPEC §2, §4): an 8×8 part of base mode 3 with a 4096-byte info, 4,203
     * bytes of content, is a certificate like any other (the frame limit once stopped at 4,200).
     */
    @Test void theLargestHeaderIsACertificate() throws Exception {
        org.gamecert.producer.game.Game g = org.gamecert.producer.game.Game.parse("othello:8x8");
        String moves = ProducedCertificatesVerifyTest.randomLine("othello:8x8", 64 - 12, 5);
        long[] root = g.parseMoves(moves);
        org.gamecert.producer.search.Oracle oracle = new org.gamecert.producer.search.Oracle(g, 16);
        org.gamecert.producer.cert.Extractor ex = new org.gamecert.producer.cert.Extractor(oracle, 1);
        ex.endgameLeaves(6);
        int v = oracle.value(root[0], root[1]);
        org.gamecert.producer.cert.Claim claim = new org.gamecert.producer.cert.Claim(
                org.gamecert.producer.cert.Kinds.C | org.gamecert.producer.cert.Kinds.A, v, v);
        long[] canon = new long[2];
        g.canonical(root[0], root[1], canon);
        org.gamecert.producer.cert.Extractor.Result r =
                ex.run(canon[0], canon[1], org.gamecert.producer.cert.Extractor.Mode.WEAK, claim);
        ex.shutdown();
        byte[] header = org.gamecert.producer.cert.CertificateWriter.header(g, org.gamecert.producer.cert.Extractor.Mode.WEAK, 6,
                canon[0], canon[1], claim, v, "i".repeat(4096));
        assertEquals(4203, header.length);
        Path f = dir.resolve("largest-header.gsc");
        org.gamecert.producer.cert.CertificateWriter.write(f, header, r.layers, r.region, r.aux, r.rootLayer);
        Result res = Verifier.verify(f, new Options());
        assertEquals(Result.Verdict.VERIFIED, res.verdict, () -> res.errorMessage + " " + res.firstViolation());
    }
}
