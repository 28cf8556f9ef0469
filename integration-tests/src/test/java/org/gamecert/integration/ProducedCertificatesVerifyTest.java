package org.gamecert.integration;

import org.gamecert.producer.cli.ProduceMain;
import org.gamecert.producer.game.Game;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.engine.Verifier;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The producer's certificates, checked by the independent verifier: every one must verify, with
 * no unreached entry, and the verifier's own census (SPEC §10.3, counted from the root through the
 * obligations) must equal the census the producer printed.
 */
class ProducedCertificatesVerifyTest {
    static final Path SHARED = Path.of("../testdata/known-answers").toAbsolutePath().normalize();

    static Stream<Arguments> cases() {
        List<Arguments> list = new ArrayList<>();
        for (String mode : new String[] {"semi-strong", "weak"}) {
            list.add(Arguments.of("othello:4x4", "", mode));
            list.add(Arguments.of("connect4:4x4", "", mode));
            list.add(Arguments.of("connect4:5x4", "", mode));
            list.add(Arguments.of("connect4:4x5", "", mode));
        }
        // 6x6 Othello from seeded random midgame positions with 12 empties.
        for (long seed = 1; seed <= 3; seed++) {
            list.add(Arguments.of("othello:6x6", randomLine("othello:6x6", 36 - 12, seed), "semi-strong"));
        }
        list.add(Arguments.of("othello:6x6", randomLine("othello:6x6", 36 - 13, 7), "weak"));
        list.add(Arguments.of("othello:8x8", randomLine("othello:8x8", 64 - 10, 11), "semi-strong"));
        list.add(Arguments.of("connect4:6x5", randomLine("connect4:6x5", 14, 5), "semi-strong"));
        // Boards where a shift by 2s >= 64 once wrapped in both rule sets (issue 22 item 1): their
        // honest certificates were rejected, and false ones verified.
        list.add(Arguments.of("connect4:1x63", "", "semi-strong"));
        list.add(Arguments.of("connect4:1x62", "", "weak"));
        list.add(Arguments.of("connect4:2x31", randomLine("connect4:2x31", 50, 3), "semi-strong"));
        list.add(Arguments.of("connect4:2x30", randomLine("connect4:2x30", 48, 4), "weak"));
        // Weak with endgame leaves (SPEC 1.1 mode 3, "weak/L<n>": --leaf-empties n).
        list.add(Arguments.of("othello:6x6", randomLine("othello:6x6", 36 - 13, 7), "weak/L4"));
        list.add(Arguments.of("othello:8x8", randomLine("othello:8x8", 64 - 14, 12), "weak/L6"));
        list.add(Arguments.of("connect4:5x4", "", "weak/L3"));
        // The certificate read from the search's own proof (--proof search, "/search").
        list.add(Arguments.of("othello:8x8", randomLine("othello:8x8", 64 - 14, 12), "weak/L6/search"));
        list.add(Arguments.of("othello:8x8", randomLine("othello:8x8", 64 - 16, 13), "weak/L6/search"));
        list.add(Arguments.of("othello:6x6", randomLine("othello:6x6", 36 - 15, 8), "weak/L6/search"));
        list.add(Arguments.of("connect4:6x5", randomLine("connect4:6x5", 8, 5), "weak/L3"));
        // Linear NoGo (SPEC §7.6): from the start (1x4: the second player wins), and from a random
        // midgame position of a long board (1x64: the board mask is all 64 bits).
        list.add(Arguments.of("nogo:1x4", "", "semi-strong"));
        list.add(Arguments.of("nogo:1x11", "", "semi-strong"));
        list.add(Arguments.of("nogo:1x12", "", "weak"));
        list.add(Arguments.of("nogo:1x64", randomLine("nogo:1x64", 46, 9), "semi-strong"));
        list.add(Arguments.of("nogo:1x40", randomLine("nogo:1x40", 24, 2), "weak"));
        // Semi-strong with optimal moves (SPEC 1.5.0 mode 5): each game it is defined for.
        list.add(Arguments.of("othello:6x6", randomLine("othello:6x6", 36 - 12, 1), "semi-strong-optimal"));
        list.add(Arguments.of("connect4:6x5", randomLine("connect4:6x5", 14, 5), "semi-strong-optimal"));
        list.add(Arguments.of("nogo:1x11", "", "semi-strong-optimal"));
        return list.stream();
    }

    /** A move sequence from the start, random but seeded, ending at `discs` discs (passes implicit). */
    static String randomLine(String gameName, int discs, long seed) {
        Game g = Game.parse(gameName);
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int attempt = 0; attempt < 1000; attempt++) {
            long[] p = g.start();
            long m = p[0], o = p[1];
            StringBuilder seq = new StringBuilder();
            while (g.discs(m, o) < discs && !g.isTerminal(m, o)) {
                long moves = g.moves(m, o);
                if (moves == 0) { long t = m; m = o; o = t; continue; } // pass
                int k = rnd.nextInt(Long.bitCount(moves));
                long bits = moves;
                for (int i = 0; i < k; i++) bits &= bits - 1;
                int move = Long.numberOfTrailingZeros(bits);
                if (g.family == Game.FAMILY_NOGO && seq.length() > 0) seq.append(','); // points 1..N
                seq.append(g.moveName(move));
                long nm = g.play(m, o, move);
                long no = o & ~nm;
                m = no; o = nm;
            }
            if (g.discs(m, o) == discs && !g.isTerminal(m, o) && g.moves(m, o) != 0) return seq.toString();
        }
        throw new IllegalStateException("no random line found");
    }

    @ParameterizedTest(name = "{0} {2} {1}")
    @MethodSource("cases")
    void producerCertificateVerifies(String game, String moves, String mode, @TempDir Path dir) throws IOException {
        Path cert = dir.resolve("c.gsc");
        String leaves = mode.startsWith("weak/L") ? mode.substring("weak/L".length()).replace("/search", "") : "0";
        List<String> args = new ArrayList<>(List.of("solve", "--game", game, "--mode", mode.replaceAll("/.*", ""),
                "--leaf-empties", leaves, "--threads", "2", "--tt-mb", "64", "-q", "--out", cert.toString()));
        if (mode.endsWith("/search")) { args.add("--proof"); args.add("search"); }
        if (!moves.isEmpty()) { args.add("--moves"); args.add(moves); }
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = ProduceMain.run(args.toArray(new String[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String produced = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, rc, "producer failed: " + err.toString(StandardCharsets.UTF_8));

        Options opt = new Options();
        opt.strict = true; // no unreached entry allowed from our own producer
        Result r = Verifier.verify(cert, opt);
        assertEquals(Result.Verdict.VERIFIED, r.verdict,
                () -> "verifier: " + r.errorMessage + " " + r.firstViolation());
        assertEquals(0, r.unreached, "unreached entries");

        // The root value and the commitment id that the producer printed are the verifier's.
        assertEquals(Integer.parseInt(field(produced, "root value\\s+(-?\\d+)")), r.header.rootValue);
        assertEquals(field(produced, "commitment\\s+(sha256:[0-9a-f]{64})"), r.commitment);
        // The census the producer printed equals the one the verifier counted itself.
        long regionTotal = 0, auxTotal = 0;
        for (long[] row : r.census) { regionTotal += row[1]; auxTotal += row[2]; }
        Matcher tm = Pattern.compile("total (\\d+) region positions, (\\d+) auxiliary entries, (\\d+) entries").matcher(produced);
        assertTrue(tm.find(), produced);
        assertEquals(Long.parseLong(tm.group(1)), regionTotal, "region total");
        assertEquals(Long.parseLong(tm.group(2)), auxTotal, "auxiliary total");
        assertEquals(Long.parseLong(tm.group(3)), r.entries, "entries");
        // Connect Four: the terminal positions outside R that the proof reaches (SPEC §10.3 term_d),
        // counted by each tool its own way, row by row.
        if (game.startsWith("connect4") || game.startsWith("nogo")) {
            long[] producedTerms = new long[r.census.size()];
            Matcher row = Pattern.compile("(?m)^\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)$").matcher(produced);
            long first = r.census.get(0)[0];
            while (row.find()) producedTerms[(int) (Long.parseLong(row.group(1)) - first)] = Long.parseLong(row.group(4));
            long termTotal = 0;
            for (int i = 0; i < r.census.size(); i++) {
                assertEquals(producedTerms[i], r.census.get(i)[3], "proof-only terminal positions at " + (first + i) + " discs");
                termTotal += producedTerms[i];
            }
            assertEquals(Long.parseLong(field(produced, "(\\d+) terminal positions outside the region")), termTotal);
            if (game.equals("connect4:5x4") || game.equals("connect4:6x5") || game.equals("nogo:1x11"))
                assertTrue(termTotal > 0, "the proof reaches terminal positions");
        }
        assertEquals(Integer.parseInt(leaves), r.header.leafEmpties, "leaf_empties in the header");
        if (mode.startsWith("weak")) assertEquals(0, regionTotal, "weak certificates have no region");
        else assertTrue(regionTotal > 0);

        // As if no layer fitted in memory: every layer checked in segments, the same outcome.
        opt.maxHeldEntries = Math.max(2, r.entries / 10);
        org.gamecert.verifier.engine.Figures split = new org.gamecert.verifier.engine.Figures();
        Result s = Verifier.verify(cert, opt, split);
        assertEquals(Result.Verdict.VERIFIED, s.verdict, () -> "in segments: " + s.errorMessage + " " + s.firstViolation());
        // (One or two columns leave a handful of positions per layer: nothing there to split.)
        if (!game.matches("connect4:[12]x.*|nogo:1x4")) assertTrue(split.splitLayers > 0, "layers were split");
        assertEquals(r.commitment, s.commitment);
        for (int i = 0; i < r.census.size(); i++) assertArrayEquals(r.census.get(i), s.census.get(i), "census row " + i);
    }

    /** Pascal Pons' end-game positions: the producer's value (weak mode) has the sign of his score. */
    @ParameterizedTest(name = "Pons Test_L3_R1 line {0}")
    @MethodSource("ponsLines")
    void ponsEndgamesAgree(int line, String moves, int score, @TempDir Path dir) throws IOException {
        Path cert = dir.resolve("p.gsc");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = ProduceMain.run(new String[] {"solve", "--game", "connect4:7x6", "--moves", moves, "--mode", "weak",
                "--tt-mb", "64", "-q", "--out", cert.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        assertEquals(0, rc);
        Result r = Verifier.verify(cert, new Options());
        assertEquals(Result.Verdict.VERIFIED, r.verdict, () -> String.valueOf(r.firstViolation()));
        assertEquals(Integer.signum(score), r.header.rootValue, "WDL value vs Pons' score " + score);
    }

    static Stream<Arguments> ponsLines() throws IOException {
        Path f = SHARED.resolve("connect4-pons/Test_L3_R1");
        List<String> lines = Files.readAllLines(f);
        List<Arguments> list = new ArrayList<>();
        for (int i = 0; i < lines.size() && list.size() < 12; i += 83) {
            String[] p = lines.get(i).trim().split("\\s+");
            list.add(Arguments.of(i + 1, p[0], Integer.parseInt(p[1])));
        }
        return list.stream();
    }

    static String field(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), "no match for " + regex + " in:\n" + text);
        return m.group(1);
    }
}
