package org.gamecert.producer;

import org.gamecert.producer.cli.ProduceMain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/** The same game, position and mode give byte-identical files whatever --threads and --tt-mb. */
class DeterminismTest {
    @TempDir Path dir;

    private byte[] produce(String name, String... args) throws Exception {
        Path f = dir.resolve(name);
        String[] all = new String[args.length + 5];
        all[0] = "solve";
        System.arraycopy(args, 0, all, 1, args.length);
        all[args.length + 1] = "--out";
        all[args.length + 2] = f.toString();
        all[args.length + 3] = "-q";
        all[args.length + 4] = "--force"; // each comparison writes a.gsc, b.gsc, c.gsc again
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, ProduceMain.run(all, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err)), err.toString());
        return Files.readAllBytes(f);
    }

    private void same(String[] base) throws Exception {
        byte[] a = produce("a.gsc", concat(base, "--threads", "1", "--tt-mb", "1"));
        byte[] b = produce("b.gsc", concat(base, "--threads", "2", "--tt-mb", "64"));
        byte[] c = produce("c.gsc", concat(base, "--threads", "3", "--tt-mb", "4"));
        assertArrayEquals(a, b, "threads 1 / tt 1 vs threads 2 / tt 64");
        assertArrayEquals(a, c, "threads 1 / tt 1 vs threads 3 / tt 4");
    }

    static String[] concat(String[] a, String... b) {
        String[] r = new String[a.length + b.length];
        System.arraycopy(a, 0, r, 0, a.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    @Test void othello6x6SemiStrongAndWeak() throws Exception {
        // 14 empties: large enough that a 1 MiB table thrashes and threads interleave.
        String moves = "e4c5b4e3d6a4e2f2a3b6c2e1c6b2c1a5f3a1";
        same(new String[]{"--game", "othello:6x6", "--moves", moves});
        same(new String[]{"--game", "othello:6x6", "--moves", moves, "--mode", "weak"});
    }

    @Test void othello8x8WeakWithSixEmptyLeaves() throws Exception {
        // 16 empties: the cuts above the leaves come from the search's records (an 8-empty
        // position's children) where a table still holds them, from searches elsewhere.
        String board = "--OOOO--X-OOOO--XXOOXOOOXXXOXOOOXXXXOXOOXXXXXOOOX-XXXO-----XXO-- X";
        same(new String[]{"--game", "othello:8x8", "--board", board, "--mode", "weak", "--leaf-empties", "6"});
    }

    @Test void connectFour() throws Exception {
        same(new String[]{"--game", "connect4:5x4"});
        same(new String[]{"--game", "connect4:7x6", "--moves", "4453632233552", "--mode", "weak"});
    }

    @Test void noGo() throws Exception {
        same(new String[]{"--game", "nogo:1x15"});
        same(new String[]{"--game", "nogo:1x19", "--moves", "10,2,17", "--mode", "weak"});
        // the same root as moves and as board text
        assertArrayEquals(produce("m.gsc", "--game", "nogo:1x9", "--moves", "2,5"),
                produce("b.gsc", "--game", "nogo:1x9", "--board", "-X--O---- X"));
    }

    @Test void sameBytesWhetherGivenAsMovesOrBoard() throws Exception {
        org.gamecert.producer.game.Othello g = new org.gamecert.producer.game.Othello(4);
        long[] p = g.parseMoves("b1a1");
        byte[] a = produce("m.gsc", "--game", "othello:4x4", "--moves", "b1a1");
        byte[] b = produce("b.gsc", "--game", "othello:4x4", "--board", g.boardText(p[0], p[1]));
        assertArrayEquals(a, b);
    }
}
