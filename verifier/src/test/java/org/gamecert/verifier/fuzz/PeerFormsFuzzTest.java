package org.gamecert.verifier.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.gamecert.verifier.peer.PeerCodec;
import org.gamecert.verifier.peer.PeerOptions;
import org.gamecert.verifier.peer.PeerResult;
import org.gamecert.verifier.peer.PeerVerifier;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole peer verification (PeerVerifier.verify) of the tablebase's two other input forms,
 * seeded with the valid weak 12-empties set (testdata/peer/valid/, as in {@link PeerFuzzTest}):
 * <ul>
 * <li>a CSV ({@code obf,disccount,nodekindcode,lowerbound,upperbound}, CsvSource): the fuzzer's
 * bytes are the whole file, or are spliced into a seed CSV — that set written as CSV (verified),
 * its tables 24..27 alone, or testdata/known-answers/othello6-peer/opening-table.csv;</li>
 * <li>a .tar.zst (streamed, SpoolSource), built here with Commons Compress and zstd-jni: the
 * fuzzer's bytes are the whole archive, or one table's content inside the valid archive (whole or
 * spliced into the seed table), or are spliced into the archive's tar or its compressed bytes.</li>
 * </ul>
 *
 * <p>Property: a verdict, never an exception escaping and no internal error; a rule id with every
 * rejection; and "verified" only for what the seed proves: read here without the verifier's code
 * (CSV rows parsed here, positions compared up to the board's 8 symmetries; the archive's table
 * entries read with Commons Compress and zstd-jni), every claim must be a claim of a seed that
 * verifies as it is, on the same position, with a subset of its kinds and no tighter bound of
 * those its kinds oblige ({@link #weaker}; RULES.md: a bound no kind obliges is never checked, so
 * it claims nothing). Every such claim is true, so "verified" is right for it; any other claim is
 * one the fuzzer made up.
 */
class PeerFormsFuzzTest {
    static final String HEADER = "obf,disccount,nodekindcode,lowerbound,upperbound";
    static final Pattern TABLE = Pattern.compile("(?:.*/)?optimal_reopening_ab_table_all_(\\d+)\\.txt");

    /** A seed CSV, its verdict as it is. */
    record CsvSeed(String name, byte[] csv, PeerResult.Verdict verdict) {}

    private static List<CsvSeed> csvSeeds;
    /** Claims of the CSV seeds that verify: canonical position to {discs, kind, lb, ub}. */
    private static Map<Pos, int[]> trueClaims;
    private static byte[] tar, tarZst;

    record Pos(long mover, long opp) {}

    // ---- seeds ----

    /** The seed tables as CSV rows (the rows in table order), tables from..to. */
    static byte[] csvOf(int from, int to) {
        StringBuilder s = new StringBuilder(HEADER).append('\n');
        long[] pos = new long[2];
        for (Map.Entry<Integer, byte[]> e : PeerFuzzTest.seedTables().entrySet()) {
            if (e.getKey() < from || e.getKey() > to) continue;
            byte[] t = e.getValue();
            for (int r = 0; r + PeerCodec.RECORD_BYTES <= t.length; r += PeerCodec.RECORD_BYTES) {
                assertTrue(PeerCodec.decodeKey(t, r, pos), "seed record");
                s.append(PeerCodec.obf(pos[0], pos[1])).append(',').append(e.getKey()).append(',').append(PeerCodec.symbol(t[r + 9]))
                        .append(',').append(PeerCodec.symbol(t[r + 10]) - PeerCodec.MAX_VALUE).append(',')
                        .append(PeerCodec.symbol(t[r + 11]) - PeerCodec.MAX_VALUE).append('\n');
            }
        }
        return s.toString().getBytes(StandardCharsets.US_ASCII);
    }

    static synchronized List<CsvSeed> csvSeeds() {
        if (csvSeeds == null) {
            try {
                List<CsvSeed> l = new ArrayList<>();
                Map<String, byte[]> given = new LinkedHashMap<>();
                given.put("the weak 12-empties set as CSV", csvOf(0, 99));
                given.put("its tables 24..27 as CSV", csvOf(24, 27));
                given.put("opening-table.csv", Files.readAllBytes(CertificateFuzzTest.ROOT.resolve("testdata/known-answers/othello6-peer/opening-table.csv")));
                Map<Pos, int[]> claims = new HashMap<>();
                for (Map.Entry<String, byte[]> e : given.entrySet()) {
                    PeerResult.Verdict v = verify(e.getValue(), "tables.csv").verdict();
                    l.add(new CsvSeed(e.getKey(), e.getValue(), v));
                    if (v != PeerResult.Verdict.VERIFIED) continue;
                    List<Row> rows = rows(e.getValue());
                    assertNotNull(rows, e.getKey());
                    for (Row r : rows) claims.put(r.pos, new int[] {r.discs, r.kind, r.lb, r.ub});
                }
                trueClaims = claims;
                csvSeeds = l;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return csvSeeds;
    }

    /** The seed tables in a tar, ascending, under a folder. */
    static synchronized byte[] tar() {
        if (tar == null) {
            try {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                try (TarArchiveOutputStream t = new TarArchiveOutputStream(out)) {
                    for (Map.Entry<Integer, byte[]> e : PeerFuzzTest.seedTables().entrySet()) {
                        TarArchiveEntry te = new TarArchiveEntry("othello6-12empties-weak/optimal_reopening_ab_table_all_" + e.getKey() + ".txt");
                        te.setSize(e.getValue().length);
                        te.setModTime(0);
                        t.putArchiveEntry(te);
                        t.write(e.getValue());
                        t.closeArchiveEntry();
                    }
                }
                tar = out.toByteArray();
                tarZst = zstd(tar);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return tar;
    }

    static synchronized byte[] tarZst() {
        tar();
        return tarZst;
    }

    static byte[] zstd(byte[] b) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZstdOutputStream z = new ZstdOutputStream(out, 3)) {
            z.write(b);
        }
        return out.toByteArray();
    }

    /** The seed tar.zst with table n's content replaced. */
    static byte[] tarZstWith(int n, byte[] content) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream t = new TarArchiveOutputStream(out)) {
            for (Map.Entry<Integer, byte[]> e : PeerFuzzTest.seedTables().entrySet()) {
                byte[] b = e.getKey() == n ? content : e.getValue();
                TarArchiveEntry te = new TarArchiveEntry("othello6-12empties-weak/optimal_reopening_ab_table_all_" + e.getKey() + ".txt");
                te.setSize(b.length);
                te.setModTime(0);
                t.putArchiveEntry(te);
                t.write(b);
                t.closeArchiveEntry();
            }
        }
        return zstd(out.toByteArray());
    }

    // ---- the check ----

    static PeerResult verify(byte[] input, String fileName) throws IOException {
        Path dir = Files.createTempDirectory("fuzz-peer-forms-");
        try {
            Path in = dir.resolve(fileName);
            Files.write(in, input);
            PeerOptions o = new PeerOptions();
            o.input = in;
            o.threads = 1;
            o.maxMemory = 64L << 20;
            o.tmp = dir.resolve("tmp");
            return PeerVerifier.verify(o);
        } finally {
            CompositeFuzzTest.deleteTree(dir);
        }
    }

    /** The verdict's own properties: a rule with every rejection, no internal error. */
    static void soundResult(PeerResult r, String where) {
        assertNotNull(r.verdict(), where);
        if (r.verdict() == PeerResult.Verdict.REJECTED) {
            assertNotNull(r.violation, "rejected without a rule id: " + where);
            assertNotNull(r.violation.rule, "rejected without a rule id: " + where);
        }
        if (r.verdict() == PeerResult.Verdict.ERROR) {
            assertNotNull(r.error, "error without a message: " + where);
            assertTrue(!r.error.startsWith("internal error"), where + ": " + r.error);
        }
    }

    static void csvProperty(byte[] csv) throws IOException {
        csvSeeds();
        PeerResult r = verify(csv, "tables.csv");
        soundResult(r, "CSV");
        if (r.verdict() == PeerResult.Verdict.VERIFIED) {
            List<Row> rows = rows(csv);
            assertNotNull(rows, "verified a CSV that does not parse as one");
            for (Row row : rows) {
                int[] c = trueClaims.get(row.pos);
                assertTrue(c != null && weaker(row.discs, row.kind, row.lb, row.ub, c),
                        "verified a CSV row that claims more than a seed proves: " + row);
            }
        }
    }

    static void tarZstProperty(byte[] archive) throws IOException {
        PeerResult r = verify(archive, "tables.tar.zst");
        soundResult(r, "tar.zst");
        if (r.verdict() == PeerResult.Verdict.VERIFIED) {
            Map<Integer, byte[]> tables = tables(archive);
            assertNotNull(tables, "verified an archive whose tables cannot be read here");
            Map<Integer, byte[]> seed = PeerFuzzTest.seedTables();
            for (Map.Entry<Integer, byte[]> e : tables.entrySet()) {
                byte[] s = seed.get(e.getKey());
                assertTrue(s != null && (Arrays.equals(e.getValue(), s) || onlyImpliedClaims(e.getKey(), e.getValue(), s)),
                        "verified an archive whose table " + e.getKey() + " claims more than the seed's");
            }
        }
    }

    /**
     * A claim implied by the seed's true one {discs, kind, lb, ub}: the same disc count, kind ⊆ the
     * seed's, and each bound the kind obliges no tighter than the seed's. RULES.md (PEER-ROOT-4):
     * the lower bound is obliged by PV, ALL', PV' and CUT, the upper by PV, ALL', PV' and ALL; a
     * bound no kind obliges is never checked, so it claims nothing, whatever it says.
     */
    static boolean weaker(int discs, int kind, int lb, int ub, int[] seed) {
        if (discs != seed[0] || (kind & ~seed[1]) != 0) return false;
        boolean lower = (kind & (PV | ALLP | PVP | CUT)) != 0, upper = (kind & (PV | ALLP | PVP | ALL)) != 0;
        return (!lower || lb <= seed[2]) && (!upper || ub >= seed[3]);
    }

    static final int PV = 1, ALLP = 2, PVP = 4, ALL = 8, CUT = 16;
    /** The format's symbols (shared/docs/peer-6x6-tablebase-format.md): kind, lb + 36, ub + 36 by index. */
    static final String ALPHABET = "56789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#_";

    /**
     * A table (13-byte records: 9 key characters, kind, lb, ub, newline) each of whose records is a
     * record of the seed table with the same key and a claim {@link #weaker} than its.
     */
    static boolean onlyImpliedClaims(int n, byte[] content, byte[] seed) {
        if (content.length % 13 != 0) return false;
        Map<String, int[]> byKey = new HashMap<>();
        for (int r = 0; r + 13 <= seed.length; r += 13)
            byKey.put(new String(seed, r, 9, StandardCharsets.ISO_8859_1),
                    new int[] {n, ALPHABET.indexOf(seed[r + 9]), ALPHABET.indexOf(seed[r + 10]) - 36, ALPHABET.indexOf(seed[r + 11]) - 36});
        for (int r = 0; r < content.length; r += 13) {
            int[] s = byKey.get(new String(content, r, 9, StandardCharsets.ISO_8859_1));
            int k = ALPHABET.indexOf(content[r + 9]), lb = ALPHABET.indexOf(content[r + 10]), ub = ALPHABET.indexOf(content[r + 11]);
            if (s == null || k < 0 || lb < 0 || ub < 0 || content[r + 12] != '\n' || !weaker(n, k, lb - 36, ub - 36, s)) return false;
        }
        return true;
    }

    // ---- the CSV and the archive read here ----

    record Row(Pos pos, int discs, int kind, int lb, int ub) {}

    /** The data rows of a CSV, or null when it is not one (header, five fields, an obf board and four integers per row). */
    static List<Row> rows(byte[] csv) {
        String[] lines = new String(csv, StandardCharsets.US_ASCII).split("\r\n|\r|\n", -1);
        if (!lines[0].trim().equals(HEADER)) return null;
        List<Row> out = new ArrayList<>();
        try {
            for (int i = 1; i < lines.length; i++) {
                if (lines[i].isBlank()) continue;
                String[] f = lines[i].split(",", -1);
                if (f.length != 5) return null;
                String obf = f[0].trim();
                if (obf.length() != 67 || !obf.endsWith(" X;")) return null;
                long x = 0, o = 0;
                for (int s = 0; s < 64; s++) {
                    char ch = obf.charAt(s);
                    if (ch == 'X' || ch == 'x') x |= 1L << s;
                    else if (ch == 'O' || ch == 'o') o |= 1L << s;
                    else if (ch != '-' && ch != '.') return null;
                }
                out.add(new Row(canonical(x, o), Integer.parseInt(f[1].trim()), Integer.parseInt(f[2].trim()), Integer.parseInt(f[3].trim()),
                        Integer.parseInt(f[4].trim())));
                if (Long.bitCount(x | o) != out.get(out.size() - 1).discs || (x & o) != 0) return null;
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return out;
    }

    /** The least of the position's 8 images under the 8×8 board's symmetries (the 6×6 area B2..G7 is centred). */
    static Pos canonical(long x, long o) {
        Pos best = null;
        for (int s = 0; s < 8; s++) {
            long tx = transform(x, s), to = transform(o, s);
            if (best == null || Long.compareUnsigned(tx, best.mover) < 0 || tx == best.mover && Long.compareUnsigned(to, best.opp) < 0)
                best = new Pos(tx, to);
        }
        return best;
    }

    static long transform(long bits, int s) {
        long out = 0;
        for (int i = 0; i < 64; i++) {
            if ((bits >>> i & 1) == 0) continue;
            int r = i >> 3, c = i & 7;
            if ((s & 1) != 0) c = 7 - c;
            if ((s & 2) != 0) r = 7 - r;
            if ((s & 4) != 0) { int t = r; r = c; c = t; }
            out |= 1L << (r * 8 + c);
        }
        return out;
    }

    /** The archive's table entries (regular files named as tables) as Commons Compress reads them; null: unreadable or a table twice. */
    static Map<Integer, byte[]> tables(byte[] archive) {
        Map<Integer, byte[]> out = new TreeMap<>();
        try (InputStream z = new ZstdInputStream(new ByteArrayInputStream(archive)); TarArchiveInputStream t = new TarArchiveInputStream(z)) {
            TarArchiveEntry e;
            while ((e = t.getNextEntry()) != null) {
                if (!e.isFile()) continue;
                Matcher m = TABLE.matcher(e.getName());
                if (!m.matches()) continue;
                int n = m.group(1).length() > 3 ? Integer.MAX_VALUE : Integer.parseInt(m.group(1));
                if (out.put(n, t.readAllBytes()) != null) return null;
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return out;
    }

    // ---- fuzzing ----

    /**
     * Consumed: CSV or tar.zst; for a CSV the seed, whole or spliced (where, how many bytes cut);
     * for a tar.zst the mode (0 the whole archive, 1 one table's content — the table, whole or
     * spliced —, 2 spliced into the seed's tar, 3 spliced into its compressed bytes); the rest of
     * the input is the bytes put in.
     */
    @FuzzTest
    void anyCsvOrTarZstGetsASoundVerdict(FuzzedDataProvider data) throws IOException {
        boolean csv = data.consumeBoolean();
        if (csv) {
            int seed = data.consumeInt(0, 255);
            boolean splice = data.consumeBoolean();
            int at = splice ? data.consumeInt() : 0, cut = splice ? data.consumeInt(0, 1024) : 0;
            byte[] bytes = data.consumeRemainingAsBytes();
            List<CsvSeed> seeds = csvSeeds();
            csvProperty(splice ? CompositeFuzzTest.splice(seeds.get(seed % seeds.size()).csv, at, cut, bytes) : bytes);
            return;
        }
        int mode = data.consumeInt(0, 3);
        int table = mode == 1 ? data.consumeInt(0, 255) : 0;
        boolean splice = mode >= 2 || mode == 1 && data.consumeBoolean();
        int at = splice ? data.consumeInt() : 0, cut = splice ? data.consumeInt(0, 1024) : 0;
        byte[] bytes = data.consumeRemainingAsBytes();
        switch (mode) {
            case 0 -> tarZstProperty(bytes);
            case 1 -> {
                Integer[] ns = PeerFuzzTest.seedTables().keySet().toArray(new Integer[0]);
                int n = ns[table % ns.length];
                tarZstProperty(tarZstWith(n, splice ? CompositeFuzzTest.splice(PeerFuzzTest.seedTables().get(n), at, cut, bytes) : bytes));
            }
            case 2 -> tarZstProperty(zstd(CompositeFuzzTest.splice(tar(), at, cut, bytes)));
            default -> tarZstProperty(CompositeFuzzTest.splice(tarZst(), at, cut, bytes));
        }
    }

    /**
     * Regression run: each seed CSV as it is (the set's verified), without its last character
     * (an upper bound's digit), without its last row, with a row's lower bound raised, with a
     * row's board mirrored (the same position, another key);
     * the seed tar.zst as it is (verified), each table cut by one byte, the archive cut short,
     * its tar cut short, and a CSV given as a tar.zst.
     */
    @TestFactory
    List<DynamicTest> replaySeeds() throws IOException {
        List<DynamicTest> t = new ArrayList<>();
        for (CsvSeed s : csvSeeds()) {
            byte[] b = s.csv;
            t.add(DynamicTest.dynamicTest(s.name + " as is: " + s.verdict, () -> {
                if (s.name.startsWith("the weak")) assertEquals(PeerResult.Verdict.VERIFIED, s.verdict, s.name);
                csvProperty(b);
            }));
            t.add(DynamicTest.dynamicTest(s.name + " without its last character", () -> csvProperty(Arrays.copyOf(b, b.length - 2))));
            String text = new String(b, StandardCharsets.US_ASCII);
            int last = text.lastIndexOf('\n', text.length() - 2);
            t.add(DynamicTest.dynamicTest(s.name + " without its last row", () -> csvProperty(text.substring(0, last + 1).getBytes(StandardCharsets.US_ASCII))));
            String[] lines = text.split("\n");
            if (lines.length > 2) {
                String[] f = lines[lines.length / 2].split(",");
                String raised = f[0] + "," + f[1] + "," + f[2] + "," + (Integer.parseInt(f[3].trim()) + 2) + "," + f[4];
                String[] mutant = lines.clone();
                mutant[lines.length / 2] = raised;
                t.add(DynamicTest.dynamicTest(s.name + " with a lower bound raised",
                        () -> csvProperty((String.join("\n", mutant) + "\n").getBytes(StandardCharsets.US_ASCII))));
                String[] turned = lines.clone();
                turned[lines.length / 2] = turned(f[0].trim(), 1) + "," + f[1] + "," + f[2] + "," + f[3] + "," + f[4];
                t.add(DynamicTest.dynamicTest(s.name + " with a row's board mirrored",
                        () -> csvProperty((String.join("\n", turned) + "\n").getBytes(StandardCharsets.US_ASCII))));
            }
        }
        byte[] zst = tarZst();
        t.add(DynamicTest.dynamicTest("the seed tar.zst is verified", () -> {
            PeerResult r = verify(zst, "tables.tar.zst");
            assertEquals(PeerResult.Verdict.VERIFIED, r.verdict(), r.violation + " " + r.error);
            tarZstProperty(zst);
            assertEquals(PeerFuzzTest.seedTables().keySet(), tables(zst).keySet(), "the archive read here");
        }));
        for (Map.Entry<Integer, byte[]> e : PeerFuzzTest.seedTables().entrySet()) {
            byte[] cut = Arrays.copyOf(e.getValue(), e.getValue().length - 1);
            t.add(DynamicTest.dynamicTest("the tar.zst with table " + e.getKey() + " cut by one byte", () -> tarZstProperty(tarZstWith(e.getKey(), cut))));
        }
        t.add(DynamicTest.dynamicTest("the tar.zst cut short", () -> tarZstProperty(Arrays.copyOf(zst, zst.length / 2))));
        t.add(DynamicTest.dynamicTest("the tar.zst of a tar cut short", () -> tarZstProperty(zstd(Arrays.copyOf(tar(), tar().length / 2)))));
        t.add(DynamicTest.dynamicTest("a CSV seed given as a tar.zst", () -> tarZstProperty(csvSeeds().get(0).csv)));
        return t;
    }

    /** An obf board (64 squares, then " X;") under symmetry s. */
    static String turned(String obf, int s) {
        long x = 0, o = 0;
        for (int i = 0; i < 64; i++) {
            if (obf.charAt(i) == 'X') x |= 1L << i;
            else if (obf.charAt(i) == 'O') o |= 1L << i;
        }
        long tx = transform(x, s), to = transform(o, s);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 64; i++) b.append((tx >>> i & 1) != 0 ? 'X' : (to >>> i & 1) != 0 ? 'O' : '-');
        return b.append(obf.substring(64)).toString();
    }
}
