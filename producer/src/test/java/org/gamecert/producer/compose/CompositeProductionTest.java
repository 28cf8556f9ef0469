package org.gamecert.producer.compose;

import org.gamecert.producer.cert.CertificateReader;
import org.gamecert.producer.cert.Claim;
import org.gamecert.producer.cert.Kinds;
import org.gamecert.producer.cert.LayerEntries;
import org.gamecert.producer.cli.ProduceMain;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The producer's side of compositional certificates (SPEC §15): solve --split-at, solve-part and
 * compose. The parts together must prove what the monolithic certificate proves (the same region
 * positions with the same values and canonical moves), and the composite id must not depend on
 * jobs, table size or a killed run.
 */
class CompositeProductionTest {
    @TempDir Path dir;

    private String run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = ProduceMain.run(args, new PrintStream(out), new PrintStream(err));
        assertEquals(0, rc, String.join(" ", args) + ": " + err);
        return out.toString(StandardCharsets.UTF_8);
    }

    private int runRc(ByteArrayOutputStream err, String... args) {
        return ProduceMain.run(args, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err));
    }

    /** Splits, makes every part, composes; returns the composite id. */
    private String composite(Path d, String game, String moves, String mode, int split, String... partArgs) {
        String[] solve = moves == null
                ? new String[] {"solve", "--game", game, "--mode", mode, "--split-at", "" + split, "--out", d.toString(), "-q"}
                : new String[] {"solve", "--game", game, "--moves", moves, "--mode", mode, "--split-at", "" + split, "--out",
                        d.toString(), "-q"};
        run(solve);
        String[] part = new String[3 + partArgs.length];
        part[0] = "solve-part"; part[1] = d.toString(); part[2] = "-q";
        System.arraycopy(partArgs, 0, part, 3, partArgs.length);
        run(part);
        String out = run("compose", d.toString());
        return out.lines().filter(l -> l.startsWith("composite")).findFirst().orElseThrow().split("\\s+")[1];
    }

    /** Every exact (region) entry of every certificate in the directory: key -> value and stored move. */
    private static Map<String, String> exactEntries(Path d) throws Exception {
        Map<String, String> all = new TreeMap<>();
        try (Stream<Path> files = Files.list(d)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                if (!f.getFileName().toString().endsWith(".gsc")) continue;
                addExact(CertificateReader.read(f), all);
            }
        }
        return all;
    }

    private static void addExact(CertificateReader r, Map<String, String> into) {
        for (LayerEntries e : r.layers.values())
            for (int i = 0; i < e.count; i++) {
                int k = e.kinds[i] & 0xFF;
                if (!Kinds.isExact(k) || Kinds.isOpen(k)) continue;
                String key = Long.toHexString(e.mover[i]) + "/" + Long.toHexString(e.opponent[i]);
                String what = e.value1[i] + " " + e.move[i];
                String before = into.putIfAbsent(key, what);
                assertTrue(before == null || before.equals(what), "one position, two answers: " + key + " " + before + " " + what);
            }
    }

    @Tag("slow") @Test void semiStrongPartsProveTheMonolithicRegion() throws Exception {
        for (String[] c : new String[][] {{"othello:4x4", null, "8"}, {"othello:6x6", "e4e3b2c5e2f2f3a1f1b4b6d6a4a3b3e5b5f4", "25"},
                {"connect4:5x4", null, "6"}}) {
            Path d = dir.resolve(c[0].replace(':', '-'));
            composite(d, c[0], c[1], "semi-strong", Integer.parseInt(c[2]), "--parts", "all", "--jobs", "2");
            Path mono = dir.resolve(c[0].replace(':', '-') + ".gsc");
            if (c[1] == null) run("solve", "--game", c[0], "--out", mono.toString(), "-q");
            else run("solve", "--game", c[0], "--moves", c[1], "--out", mono.toString(), "-q");
            Map<String, String> monolithic = new TreeMap<>();
            addExact(CertificateReader.read(mono), monolithic);
            // The union of the parts' regions is the monolithic region, with the same values and moves.
            assertEquals(monolithic, exactEntries(d), c[0]);
            // Open entries only in the root part, only at the split, one task each, claims as stored.
            SplitDir sd = SplitDir.read(d);
            CertificateReader root = CertificateReader.read(sd.certificate(sd.rootPart));
            assertTrue(root.part);
            assertEquals(Kinds.P, root.rootKinds);
            int open = 0;
            for (LayerEntries e : root.layers.values())
                for (int i = 0; i < e.count; i++)
                    if (Kinds.isOpen(e.kinds[i])) {
                        open++;
                        assertEquals(sd.splitDiscs, e.layer);
                        SplitDir.Task t = sd.tasks.get(open - 1);
                        assertEquals(e.mover[i], t.mover);
                        assertEquals(e.opponent[i], t.opponent);
                        assertEquals(Claim.ofEntry(e.kinds[i] & 0xFF, e.value1[i], e.value2[i], root.game.uMin, root.game.uMax)
                                .toString(), t.claim.toString());
                        CertificateReader part = CertificateReader.read(sd.certificate(sd.done(t)));
                        assertTrue(part.part);
                        assertEquals(t.claim.kinds, part.rootKinds);
                        assertEquals(t.claim.lo, part.rootValue);
                        assertEquals(t.claim.hi, part.rootUpper);
                    }
            assertEquals(sd.tasks.size(), open);
            assertTrue(open > 1, c[0] + ": a split with a single task shows little");
        }
    }

    @Test void compositeIdIsTheSameWhateverJobsTableOrKills() throws Exception {
        String moves = "e4e3b2c5e2f2f3a1f1b4b6d6a4a3b3e5b5f4";
        Path a = dir.resolve("a"), b = dir.resolve("b");
        String idA = composite(a, "othello:6x6", moves, "weak", 26, "--parts", "all", "--jobs", "1", "--tt-mb", "1");
        String idB = composite(b, "othello:6x6", moves, "weak", 26, "--parts", "all", "--jobs", "3", "--tt-mb", "64");
        assertEquals(idA, idB);
        assertArrayEquals(Files.readAllBytes(a.resolve(SplitDir.MANIFEST)), Files.readAllBytes(b.resolve(SplitDir.MANIFEST)));
        // A killed run: some parts lost (their done marks and files); running again makes just those.
        SplitDir sd = SplitDir.read(b);
        int lost = 0;
        for (SplitDir.Task t : sd.tasks)
            if (t.number % 3 == 0) {
                Files.delete(sd.certificate(sd.done(t)));
                Files.delete(b.resolve(SplitDir.DONE).resolve("" + t.number));
                lost++;
            }
        assertTrue(lost > 0);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(1, runRc(err, "compose", b.toString()));
        assertTrue(err.toString().contains(lost + " of " + sd.tasks.size() + " parts are not made yet"), err.toString());
        String out = run("solve-part", b.toString(), "--parts", "all", "-q");
        assertTrue(out.contains(lost + " made, " + (sd.tasks.size() - lost) + " already done"), out);
        assertTrue(run("compose", b.toString()).contains(idA));
    }

    @Test void manifestLayout() throws Exception {
        Path d = dir.resolve("m");
        run("solve", "--game", "connect4:4x4", "--mode", "weak", "--split-at", "5", "--out", d.toString(), "-q");
        SplitDir sd = SplitDir.read(d);
        assertTrue(sd.tasks.size() > 3);
        // Tasks given by number: only those are made, and compose refuses until all are.
        assertTrue(run("solve-part", d.toString(), "1", "2", "3", "-q").contains("3 made, 0 already done"));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(1, runRc(err, "compose", d.toString()));
        assertTrue(run("solve-part", d.toString(), "--parts", "all", "-q").contains((sd.tasks.size() - 3) + " made, 3 already done"));
        run("compose", d.toString());
        byte[] m = Files.readAllBytes(d.resolve(SplitDir.MANIFEST));
        ByteBuffer b = ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0x184D2A53, b.getInt());
        assertEquals(m.length - 8, b.getInt());
        assertEquals('G', b.get()); assertEquals('S', b.get()); assertEquals('C', b.get()); assertEquals('M', b.get());
        assertEquals(1, b.getShort());
        int n = b.getInt();
        byte[][] parts = new byte[n][32];
        for (byte[] p : parts) b.get(p);
        assertEquals(sd.rootPart, java.util.HexFormat.of().formatHex(parts[0]));
        for (int i = 2; i < n; i++) assertTrue(java.util.Arrays.compareUnsigned(parts[i - 1], parts[i]) < 0, "parts in order");
        int k = b.getInt();
        assertEquals(sd.tasks.size(), k);
        Map<Integer, Integer> used = new HashMap<>();
        long prevOcc = 0, prevMover = 0;
        for (int i = 0; i < k; i++) {
            assertEquals(0, b.getInt(), "every parent is the root part");
            long occ = b.getLong(), mover = b.getLong();
            int part = b.getInt();
            assertTrue(i == 0 || Long.compareUnsigned(prevOcc, occ) < 0 || (prevOcc == occ && Long.compareUnsigned(prevMover, mover) < 0));
            prevOcc = occ; prevMover = mover;
            used.merge(part, 1, Integer::sum);
        }
        assertEquals(n - 1, used.size(), "every part but the root is used");
        assertEquals(32, b.remaining());
    }

    @Test void splitUsageErrors() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, runRc(err, "solve", "--game", "othello:4x4", "--split-at", "4", "--out", dir.resolve("x").toString(), "-q"));
        assertTrue(err.toString().contains("--split-at must be more than the root's 4 discs"), err.toString());
        err.reset();
        assertEquals(2, runRc(err, "solve-part", dir.toString(), "--parts", "all"));
        assertTrue(err.toString().contains("no tasks.tsv"), err.toString());
        err.reset();
        assertEquals(2, runRc(err, "compose", dir.resolve("none").toString()));
    }
}
