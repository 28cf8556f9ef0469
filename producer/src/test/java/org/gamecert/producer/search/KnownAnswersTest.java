package org.gamecert.producer.search;

import org.gamecert.producer.game.ConnectFour;
import org.gamecert.producer.game.Othello;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** The oracle against published answers kept in testdata/known-answers (sources in testdata/SOURCES.md). */
class KnownAnswersTest {
    static final Path DATA = Path.of("../testdata/known-answers");

    static List<String> lines(String rel) throws IOException {
        return Files.readAllLines(DATA.resolve(rel));
    }

    /** Pons' positions: `<moves> <score>`; the sign of the score is the WDL value. */
    private static void pons(String file, int count) throws IOException {
        ConnectFour g = new ConnectFour(7, 6);
        Oracle oracle = new Oracle(g, 64);
        int n = 0;
        for (String line : lines("connect4-pons/" + file)) {
            String[] f = line.trim().split("\\s+");
            long[] p = g.parseMoves(f[0]);
            int expected = Integer.signum(Integer.parseInt(f[1]));
            assertEquals(expected, oracle.value(p[0], p[1]), file + ": " + line);
            assertEquals(expected >= 0, oracle.atLeast(p[0], p[1], 0), file + " (null window): " + line);
            if (++n == count) break;
        }
    }

    @Test void connectFourEndEasy() throws IOException { pons("Test_L3_R1", 300); }

    @Test void connectFourMiddleEasy() throws IOException { pons("Test_L2_R1", 100); }

    /** Weak certificates of Pons' end-game positions carry the known WDL value as root value. */
    @Test void connectFourCertificatesCarryTheKnownValue(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        int n = 0;
        for (String line : lines("connect4-pons/Test_L3_R1")) {
            String[] f = line.trim().split("\\s+");
            Path out = dir.resolve("p" + n + ".gsc");
            for (String mode : new String[]{"weak", "semi-strong"}) {
                int rc = org.gamecert.producer.cli.ProduceMain.run(new String[]{"solve", "--game", "connect4:7x6", "--moves", f[0],
                        "--mode", mode, "--out", out.toString(), "-q", "--force"}, new java.io.PrintStream(new java.io.ByteArrayOutputStream()), System.err);
                assertEquals(0, rc);
                assertEquals(Integer.signum(Integer.parseInt(f[1])), org.gamecert.producer.cert.CertificateReader.read(out).rootValue, line);
            }
            if (++n == 10) break;
        }
    }

    /** FFO endgames: the best move's score is the exact value (first listed move). */
    @Test void othelloFfoShallowestPositions() throws IOException {
        Othello g = new Othello(8);
        Oracle oracle = new Oracle(g, 64);
        int checked = 0;
        for (String line : lines("othello8-ffo/fforum-1-19.obf")) {
            String[] parts = line.split(";");
            long[] p = g.parseBoard(parts[0] + ";");
            int empties = 64 - Long.bitCount(p[0] | p[1]);
            if (empties > 16) continue;
            int expected = Integer.parseInt(parts[1].trim().split(":")[1].replace("+", ""));
            assertEquals(expected, oracle.value(p[0], p[1]), line);
            checked++;
        }
        for (String line : lines("othello8-ffo/fforum-20-39.obf")) {
            String[] parts = line.split(";");
            long[] p = g.parseBoard(parts[0] + ";");
            int empties = 64 - Long.bitCount(p[0] | p[1]);
            if (empties > 16) continue;
            int expected = Integer.parseInt(parts[1].trim().split(":")[1].replace("+", ""));
            assertEquals(expected, oracle.value(p[0], p[1]), line);
            checked++;
        }
        assertTrue(checked > 0, "no FFO position with at most 16 empties");
    }
}
