package org.gamecert.verifier.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Genuine tables made by exhaustive solving in test code, verified, then mutated. */
class PeerSyntheticTest {
    static PeerTableGenerator gen;
    static long[] root;
    static int rootValue;
    static TreeMap<Integer, byte[]> tables;

    @TempDir
    Path tmp;

    @BeforeAll
    static void generate() {
        gen = new PeerTableGenerator();
        root = PeerTableGenerator.randomPosition(gen.rules, 42, 10);
        rootValue = gen.solve(root[0], root[1]);
        gen.certify(root[0], root[1]);
        tables = gen.tables();
    }

    static PeerResult verify(Path input, long rangeRecords, String rootText) {
        PeerOptions o = new PeerOptions();
        o.input = input;
        o.threads = 2;
        o.rangeRecords = rangeRecords;
        o.root = rootText;
        return PeerVerifier.verify(o);
    }

    Path dir(TreeMap<Integer, byte[]> t) throws IOException {
        Path d = Files.createTempDirectory(tmp, "tables");
        PeerTableGenerator.writeDirectory(t, d);
        return d;
    }

    static TreeMap<Integer, byte[]> copy() {
        TreeMap<Integer, byte[]> c = new TreeMap<>();
        tables.forEach((k, v) -> c.put(k, v.clone()));
        return c;
    }

    static long records(TreeMap<Integer, byte[]> t) {
        long s = 0;
        for (byte[] b : t.values()) s += b.length / 13;
        return s;
    }

    @Test
    void genuineTablesVerifyWithTheirRootValue() throws IOException {
        PeerResult r = verify(dir(tables), 0, null);
        assertNull(r.violation, () -> String.valueOf(r.violation));
        assertEquals(PeerResult.Verdict.VERIFIED, r.verdict());
        assertEquals(records(tables), r.entries());
        assertEquals(1, r.rootCount);
        assertEquals("PV", r.roots.get(0).kind);
        assertEquals(Integer.valueOf(rootValue), r.rootValue);
        assertTrue(r.region() > 0 && r.entries() > r.region(), "both exact and CUT/ALL records present");
    }

    @Test
    void wideBucketIndexGivesTheSameResult() throws IOException {
        Path d = dir(tables);
        PeerResult narrow = verify(d, 0, null);
        long saved = PairChecker.wideIndexAbove;
        PairChecker.wideIndexAbove = 0;
        try {
            PeerResult wide = verify(d, 0, null);
            assertEquals(PeerResult.Verdict.VERIFIED, wide.verdict(), () -> String.valueOf(wide.violation));
            assertEquals(narrow.region(), wide.region());
            TreeMap<Integer, byte[]> t = copy();
            int n = t.firstKey() + 2;
            set(t, n, 0, PeerCodec.CUT, 36, 36);
            PeerResult bad = verify(dir(t), 0, null);
            assertEquals(PeerResult.Verdict.REJECTED, bad.verdict());
            assertEquals(n, bad.violation.layer);
        } finally {
            PairChecker.wideIndexAbove = saved;
        }
    }

    @Test
    void manyPassesGiveTheSameResult() throws IOException {
        Path d = dir(tables);
        PeerResult one = verify(d, 0, null);
        PeerResult many = verify(d, 7, null);
        assertEquals(PeerResult.Verdict.VERIFIED, many.verdict(), () -> String.valueOf(many.violation));
        assertTrue(many.tables.stream().anyMatch(t -> t.passes > 10));
        for (int i = 0; i < one.tables.size(); i++) {
            assertEquals(one.tables.get(i).region, many.tables.get(i).region);
            assertEquals(one.tables.get(i).auxiliary, many.tables.get(i).auxiliary);
        }
    }

    /** Record fields of table n, record i: {mover, opp, kind, lb, ub}. */
    static long[] rec(TreeMap<Integer, byte[]> t, int n, int i) {
        long[] pos = new long[2];
        byte[] b = t.get(n);
        PeerCodec.decodeKey(b, i * 13, pos);
        return new long[] {pos[0], pos[1], PeerCodec.symbol(b[i * 13 + 9]), PeerCodec.symbol(b[i * 13 + 10]) - 36, PeerCodec.symbol(b[i * 13 + 11]) - 36};
    }

    static void set(TreeMap<Integer, byte[]> t, int n, int i, int kind, int lb, int ub) {
        long[] r = rec(t, n, i);
        PeerCodec.encodeRecord(r[0], r[1], kind, lb, ub, t.get(n), i * 13);
    }

    @Test
    @Tag("slow")
    void boundsPushedBeyondTheTruthAreRejectedAtThatRecord() throws IOException {
        SplittableRandom rnd = new SplittableRandom(9);
        int cuts = 0, alls = 0;
        for (int attempt = 0; attempt < 400 && (cuts < 6 || alls < 6); attempt++) {
            int n = tables.firstKey() + 1 + rnd.nextInt(tables.size() - 2);
            int i = rnd.nextInt(tables.get(n).length / 13);
            long[] r = rec(tables, n, i);
            int kind = (int) r[2];
            int truth = gen.solve(r[0], r[1]); // the test's own exhaustive value
            TreeMap<Integer, byte[]> t = copy();
            String expect;
            if (kind == PeerCodec.CUT && truth + 2 <= 36 && cuts < 6) {
                set(t, n, i, kind, truth + 2, (int) r[4]);
                expect = PeerRules.CUT_1;
                cuts++;
            } else if (kind == PeerCodec.ALL && truth - 2 >= -36 && alls < 6) {
                set(t, n, i, kind, (int) r[3], truth - 2);
                expect = PeerRules.ALL_1;
                alls++;
            } else {
                continue;
            }
            // Every other mutant with small child ranges: the violation may then surface in a later pass.
            PeerResult res = verify(dir(t), (cuts + alls) % 2 == 0 ? 0 : 5, null);
            assertEquals(PeerResult.Verdict.REJECTED, res.verdict());
            assertEquals(expect, res.violation.rule, res.violation::toString);
            assertEquals(n, res.violation.layer);
            assertEquals(i, res.violation.entry);
        }
        assertEquals(6, cuts);
        assertEquals(6, alls);
    }

    @Test
    void changedExactValuesAndDroppedRecordsAreRejected() throws IOException {
        SplittableRandom rnd = new SplittableRandom(10);
        int exact = 0, dropped = 0;
        for (int attempt = 0; attempt < 300 && (exact < 6 || dropped < 4); attempt++) {
            int n = tables.firstKey() + rnd.nextInt(tables.size());
            int count = tables.get(n).length / 13;
            int i = rnd.nextInt(count);
            long[] r = rec(tables, n, i);
            TreeMap<Integer, byte[]> t = copy();
            if ((r[2] & 7) != 0 && exact < 6) {
                int v = (int) r[3] + (rnd.nextBoolean() ? 2 : -2);
                if (v < -36 || v > 36) continue;
                set(t, n, i, (int) r[2], v, v);
                exact++;
            } else if (n > tables.firstKey() && dropped < 4) {
                byte[] b = t.get(n);
                byte[] nb = new byte[b.length - 13];
                System.arraycopy(b, 0, nb, 0, i * 13);
                System.arraycopy(b, (i + 1) * 13, nb, i * 13, b.length - (i + 1) * 13);
                t.put(n, nb);
                dropped++;
            } else {
                continue;
            }
            PeerResult res = verify(dir(t), 0, null);
            assertEquals(PeerResult.Verdict.REJECTED, res.verdict(), "mutation at table " + n + " record " + i);
        }
        assertEquals(6, exact);
        assertEquals(4, dropped);
    }

    @Test
    void tablesBeyondTheLastGivenLeaveAnOpenFrontier() throws IOException {
        TreeMap<Integer, byte[]> t = new TreeMap<>(tables.headMap(tables.firstKey() + 4, true));
        PeerResult r = verify(dir(t), 0, null);
        assertNull(r.violation, () -> String.valueOf(r.violation));
        assertEquals(PeerResult.Verdict.INCOMPLETE, r.verdict());
        TableResult last = r.tables.get(r.tables.size() - 1);
        assertTrue(last.frontierRecords > 0 && last.frontierRecords <= last.records);
        assertEquals(last.frontierRecords, r.frontierRecords());
    }

    @Test
    void severalRootsInTheLowestTableAndAGivenRoot() throws IOException {
        PeerTableGenerator g = new PeerTableGenerator();
        // Two sub-solves rooted at positions with the same disc count, merged as the peer merges.
        long[] a = PeerTableGenerator.randomPosition(g.rules, 5, 9);
        long[] b = PeerTableGenerator.randomPosition(g.rules, 6, 9);
        g.certify(a[0], a[1]);
        g.certify(b[0], b[1]);
        TreeMap<Integer, byte[]> t = g.tables();
        Path d = dir(t);
        PeerResult r = verify(d, 0, null);
        assertEquals(PeerResult.Verdict.VERIFIED, r.verdict(), () -> String.valueOf(r.violation));
        long[] ca = new long[2], cb = new long[2];
        PeerCodec.canonical(a[0], a[1], ca);
        PeerCodec.canonical(b[0], b[1], cb);
        int expectRoots = ca[0] == cb[0] && ca[1] == cb[1] ? 1 : 2;
        assertEquals(expectRoots, r.rootCount);
        PeerResult given = verify(d, 0, PeerCodec.board(b[0], b[1]));
        assertEquals(PeerResult.Verdict.VERIFIED, given.verdict());
        assertEquals(1, given.rootCount);
        assertEquals(PeerCodec.obf(cb[0], cb[1]), given.roots.get(0).position);
        assertEquals(Integer.valueOf(g.solve(b[0], b[1])), given.rootValue);
        // A root that has no record: rejected with PEER-ROOT-2.
        long[] other = PeerTableGenerator.randomPosition(g.rules, 77, 9);
        PeerCodec.canonical(other[0], other[1], ca);
        if (g.records.get(PeerCodec.orderKey(ca[0], ca[1])) == PeerTableGenerator.LongMap.MISSING) {
            PeerResult missing = verify(d, 0, PeerCodec.board(other[0], other[1]));
            assertEquals(PeerRules.ROOT_2, missing.violation.rule);
        }
    }

    @Test
    void archivesAndSplitPartsVerifyAndABadPartIsNamed() throws IOException {
        Path d = Files.createTempDirectory(tmp, "tar");
        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(d.resolve("postprocess3.tar")))) {
            PeerTableGenerator.writeTar(tables, o);
        }
        PeerResult tar = verify(d.resolve("postprocess3.tar"), 0, null);
        assertEquals(PeerResult.Verdict.VERIFIED, tar.verdict(), () -> tar.error + " " + tar.violation);
        assertEquals("tar archive", tar.inputKind);

        Path z = Files.createTempDirectory(tmp, "zst");
        PeerTableGenerator.writeTarZst(tables, z.resolve("postprocess3.tar.zst"));
        PeerResult zst = verify(z.resolve("postprocess3.tar.zst"), 0, null);
        assertEquals(PeerResult.Verdict.VERIFIED, zst.verdict(), () -> zst.error + " " + zst.violation);
        assertEquals(records(tables), zst.entries());

        Path s = Files.createTempDirectory(tmp, "split");
        PeerTableGenerator.writeTarZst(tables, s.resolve("postprocess3.tar.zst"));
        List<Path> parts = PeerTableGenerator.split(s.resolve("postprocess3.tar.zst"), 4096);
        assertTrue(parts.size() >= 3);
        PeerResult split = verify(parts.get(0), 23, null);
        assertEquals(PeerResult.Verdict.VERIFIED, split.verdict(), () -> split.error + " " + split.violation);
        assertEquals(parts.size(), split.sumsChecked);
        assertTrue(split.inputKind.contains(parts.size() + " parts"), split.inputKind);
        assertEquals(zst.region(), split.region());
        assertTrue(split.tempBytesPeak > 0);

        // One byte changed in the middle part: named by the SHA256SUMS check.
        Path bad = parts.get(parts.size() / 2);
        byte[] b = Files.readAllBytes(bad);
        b[b.length / 2] ^= 1;
        Files.write(bad, b);
        PeerResult rej = verify(parts.get(0), 0, null);
        assertEquals(PeerResult.Verdict.REJECTED, rej.verdict());
        assertEquals(PeerRules.SUMS_1, rej.violation.rule);
        assertTrue(rej.violation.message.contains(bad.getFileName().toString()), rej.violation.message);
        // A missing part in the middle: an input error naming the gap.
        Files.delete(bad);
        PeerResult gap = verify(parts.get(0), 0, null);
        assertEquals(PeerResult.Verdict.ERROR, gap.verdict());
    }

    /** The text report shows the names of files the input holds without their control characters. */
    @Test
    void theTextReportShowsNoControlCharacterFromTheInputsNames() throws IOException {
        Path d = dir(tables);
        Files.writeString(d.resolve("notes\u001b[2K.txt"), "not a table\n");
        PeerResult r = verify(d, 0, null);
        assertEquals(PeerResult.Verdict.VERIFIED, r.verdict(), () -> r.error + " " + r.violation);
        java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
        PeerReport.printText(r, new java.io.PrintStream(text, true, java.nio.charset.StandardCharsets.UTF_8));
        String shown = text.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(shown.contains("notes?[2K.txt"), shown);
        assertFalse(shown.chars().anyMatch(c -> c < 0x20 && c != '\n'), shown);
    }

    /**
     * SHA256SUMS beside split parts names only plain files beside it: a line naming another
     * folder (a path out of the input, whose hash the report would print) or a device (/dev/zero
     * never ends), a link or a folder, or a list that is not UTF-8, is rejected at PEER-SUMS-1.
     */
    @Test
    void theChecksumListNamesOnlyRegularFilesBesideIt() throws IOException {
        Path s = Files.createTempDirectory(tmp, "sums");
        PeerTableGenerator.writeTarZst(tables, s.resolve("postprocess3.tar.zst"));
        List<Path> parts = PeerTableGenerator.split(s.resolve("postprocess3.tar.zst"), 4096);
        Path sums = s.resolve("SHA256SUMS");
        String honest = Files.readString(sums);
        Files.createDirectory(s.resolve("folder"));
        List<String> names = new java.util.ArrayList<>(List.of("../" + s.getFileName() + "/SHA256SUMS",
                "/dev/zero", s.resolve(parts.get(0).getFileName()).toString(), "folder", "."));
        try {
            Files.createSymbolicLink(s.resolve("zero"), Path.of("/dev/zero"));
            names.add("zero");
        } catch (UnsupportedOperationException | IOException e) {
            // a file system without links: the other names still hold the rule
        }
        String zeros = "0".repeat(64);
        for (String name : names) {
            Files.writeString(sums, honest + zeros + "  " + name + "\n");
            PeerResult r = verify(parts.get(0), 0, null);
            assertEquals(PeerResult.Verdict.REJECTED, r.verdict(), name + ": " + r.error);
            assertEquals(PeerRules.SUMS_1, r.violation.rule, name);
            assertFalse(r.violation.message.contains("found"), name + ": " + r.violation.message);
        }
        Files.write(sums, new byte[] {(byte) 0xFF, (byte) 0xFE, '\n'});
        PeerResult notText = verify(parts.get(0), 0, null);
        assertEquals(PeerResult.Verdict.REJECTED, notText.verdict(), notText.error);
        assertEquals(PeerRules.SUMS_1, notText.violation.rule);
        Files.writeString(sums, honest);
        assertEquals(PeerResult.Verdict.VERIFIED, verify(parts.get(0), 0, null).verdict());
    }

    @Test
    @Tag("slow")
    void streamedArchiveInNameOrderVerifies() throws IOException {
        // Name order (…_30, _31, …, _35 before …_4 … _9 in a real bundle): tables arrive out of disc order.
        List<Integer> order = new java.util.ArrayList<>(tables.keySet());
        order.sort(java.util.Comparator.comparing(PeerSource::tableFileName));
        java.util.Collections.swap(order, 0, order.size() - 1);
        Path z = Files.createTempDirectory(tmp, "order");
        try (OutputStream o = new com.github.luben.zstd.ZstdOutputStream(Files.newOutputStream(z.resolve("postprocess3.tar.zst")))) {
            PeerTableGenerator.writeTar(tables, o, order);
        }
        PeerResult r = verify(z.resolve("postprocess3.tar.zst"), 11, null);
        assertEquals(PeerResult.Verdict.VERIFIED, r.verdict(), () -> r.error + " " + r.violation);
        assertEquals(records(tables), r.entries());
        assertEquals(Integer.valueOf(rootValue), r.rootValue);
    }

    @Test
    void truncatedTableIsRejected() throws IOException {
        TreeMap<Integer, byte[]> t = copy();
        int n = t.lastKey();
        byte[] b = t.get(n);
        t.put(n, java.util.Arrays.copyOf(b, b.length - 5));
        PeerResult r = verify(dir(t), 0, null);
        assertEquals(PeerResult.Verdict.REJECTED, r.verdict());
        assertEquals(PeerRules.REC_1, r.violation.rule);
    }

    @Test
    void stateDirectorySkipsVerifiedTablesOnRestart() throws IOException {
        Path d = dir(tables);
        PeerOptions o = new PeerOptions();
        o.input = d;
        o.state = tmp.resolve("state");
        PeerResult first = PeerVerifier.verify(o);
        assertEquals(PeerResult.Verdict.VERIFIED, first.verdict());
        assertTrue(first.skippedTables.isEmpty());
        PeerResult second = PeerVerifier.verify(o);
        assertEquals(PeerResult.Verdict.VERIFIED, second.verdict());
        assertEquals(tables.size(), second.skippedTables.size());
        assertEquals(first.region(), second.region());
        // A changed table is not skipped.
        Files.write(d.resolve(PeerSource.tableFileName(tables.lastKey())), new byte[0]);
        PeerResult third = PeerVerifier.verify(o);
        assertNotEquals(PeerResult.Verdict.VERIFIED, third.verdict());
    }

    @Test
    void commandLineExitCodesAndJson() throws IOException {
        Path d = dir(tables);
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = PeerMain.run(new String[] {d.toString(), "--json", "--max-memory", "256m"}, new PrintStream(out), new PrintStream(err));
        assertEquals(PeerMain.EXIT_VERIFIED, code);
        String json = out.toString(StandardCharsets.UTF_8);
        assertTrue(json.startsWith("{\"input\":\"" + d + "\",\"kind\":\"peer\",\"verdict\":\"verified\",\"exit_code\":0,"), json);
        assertTrue(json.contains("\"root_value\":" + rootValue));
        assertTrue(json.contains("\"census\":[{\"discs\":" + tables.firstKey()));
        out.reset();
        assertEquals(PeerMain.EXIT_ERROR, PeerMain.run(new String[] {tmp.resolve("nothing-here").toString()}, new PrintStream(out), new PrintStream(err)));
        assertEquals(PeerMain.EXIT_ERROR, PeerMain.run(new String[] {d.toString(), "--max-memory", "lots"}, new PrintStream(out), new PrintStream(err)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--max-memory"));
    }
}
