package org.gamecert.producer;

import org.gamecert.producer.cert.CertificateReader;
import org.gamecert.producer.cli.ProduceMain;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Certificates of small games checked against brute force (see {@link BruteForceCheck}). */
class BruteForceTest {
    @TempDir Path dir;

    static CertificateReader produce(Path file, String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        String[] all = new String[args.length + 4];
        all[0] = "solve";
        System.arraycopy(args, 0, all, 1, args.length);
        all[args.length + 1] = "--out";
        all[args.length + 2] = file.toString();
        all[args.length + 3] = "-q";
        int rc = ProduceMain.run(all, new PrintStream(out), new PrintStream(err));
        assertEquals(0, rc, "producer failed: " + err);
        return CertificateReader.read(file);
    }

    @Test void othello4x4FromTheStart() throws Exception {
        RefGame.Othello g = new RefGame.Othello(4);
        long[] s = g.start();
        BruteForceCheck.check(g, s[0], s[1], produce(dir.resolve("s.gsc"), "--game", "othello:4x4"), false);
        BruteForceCheck.check(g, s[0], s[1], produce(dir.resolve("w.gsc"), "--game", "othello:4x4", "--mode", "weak"), true);
    }

    @Test void othello4x4FromLaterPositionsAndBoards() throws Exception {
        RefGame.Othello g = new RefGame.Othello(4);
        CertificateReader r = produce(dir.resolve("a.gsc"), "--game", "othello:4x4", "--board", "-----OX--XXX---- O");
        long[] p = new org.gamecert.producer.game.Othello(4).parseBoard("-----OX--XXX---- O");
        BruteForceCheck.check(g, p[0], p[1], r, false);
    }

    @Test void connectFour4x4() throws Exception {
        RefGame.ConnectFour g = new RefGame.ConnectFour(4, 4);
        BruteForceCheck.check(g, 0, 0, produce(dir.resolve("s.gsc"), "--game", "connect4:4x4"), false);
        BruteForceCheck.check(g, 0, 0, produce(dir.resolve("w.gsc"), "--game", "connect4:4x4", "--mode", "weak"), true);
    }

    @Tag("slow") @Test void connectFour5x4() throws Exception {
        RefGame.ConnectFour g = new RefGame.ConnectFour(5, 4);
        BruteForceCheck.check(g, 0, 0, produce(dir.resolve("s.gsc"), "--game", "connect4:5x4"), false);
        BruteForceCheck.check(g, 0, 0, produce(dir.resolve("w.gsc"), "--game", "connect4:5x4", "--mode", "weak"), true);
    }

    @Tag("slow") @Test void connectFourPositionsWithWinsAndLosses() throws Exception {
        RefGame.ConnectFour g = new RefGame.ConnectFour(5, 3);
        BruteForceCheck.check(g, 0, 0, produce(dir.resolve("53.gsc"), "--game", "connect4:5x3"), false);
        // Random 5x4 positions whose value is decisive: exercises wins, losses and terminal census rows.
        RefGame.ConnectFour g54 = new RefGame.ConnectFour(5, 4);
        org.gamecert.producer.game.ConnectFour c54 = new org.gamecert.producer.game.ConnectFour(5, 4);
        SplittableRandom rnd = new SplittableRandom(7);
        int wins = 0, losses = 0, tries = 0;
        while ((wins < 2 || losses < 2) && tries++ < 500) {
            StringBuilder seq = new StringBuilder();
            for (int i = 0; i < 6; i++) seq.append(1 + rnd.nextInt(5));
            long[] p;
            try { p = c54.parseMoves(seq.toString()); } catch (IllegalArgumentException e) { continue; }
            if (g54.terminal(p[0], p[1])) continue;
            int v = g54.value(p[0], p[1]);
            if (v > 0 && wins < 2) wins++; else if (v < 0 && losses < 2) losses++; else continue;
            BruteForceCheck.check(g54, p[0], p[1], produce(dir.resolve("p" + tries + ".gsc"), "--game", "connect4:5x4", "--moves", seq.toString()), false);
            BruteForceCheck.check(g54, p[0], p[1], produce(dir.resolve("q" + tries + ".gsc"), "--game", "connect4:5x4", "--moves", seq.toString(), "--mode", "weak"), true);
        }
        assertEquals(2, wins);
        assertEquals(2, losses);
    }

    @Tag("slow") @Test void othello6x6WithTwelveEmpties() throws Exception {
        RefGame.Othello g = new RefGame.Othello(6);
        SplittableRandom rnd = new SplittableRandom(20261122);
        int done = 0;
        while (done < 2) {
            long[] s = g.start();
            long m = s[0], o = s[1];
            StringBuilder seq = new StringBuilder();
            while (Long.bitCount(m | o) < 24) {
                List<Integer> ms = g.moves(m, o);
                if (ms.isEmpty()) { long t = m; m = o; o = t; ms = g.moves(m, o); if (ms.isEmpty()) break; }
                int mv = ms.get(rnd.nextInt(ms.size()));
                seq.append((char) ('a' + mv % 6)).append(mv / 6 + 1);
                long[] p = g.play(m, o, mv);
                m = p[1]; o = p[0];
            }
            if (Long.bitCount(m | o) < 24 || g.moves(m, o).isEmpty()) continue;
            BruteForceCheck.check(g, m, o, produce(dir.resolve("s" + done + ".gsc"), "--game", "othello:6x6", "--moves", seq.toString()), false);
            BruteForceCheck.check(g, m, o, produce(dir.resolve("w" + done + ".gsc"), "--game", "othello:6x6", "--moves", seq.toString(), "--mode", "weak"), true);
            done++;
        }
    }
}
