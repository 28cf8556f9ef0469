package org.gamecert.verifier.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.gamecert.verifier.kernel.rules.OthelloRules;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real root-run table of the published solution (positions with 4..10 discs), and corrupted copies. */
class PeerRealCsvTest {
    static final Path CSV = Path.of("../testdata/known-answers/othello6-peer/opening-table.csv");
    static List<String> lines;

    @TempDir
    Path tmp;

    @BeforeAll
    static void load() throws IOException {
        lines = Files.readAllLines(CSV);
    }

    static PeerResult verify(Path input) {
        PeerOptions o = new PeerOptions();
        o.input = input;
        o.threads = 2;
        return PeerVerifier.verify(o);
    }

    /** Row fields: obf, discs, kind, lb, ub. */
    static String[] row(int i) {
        return lines.get(i).split(",");
    }

    int find(int discs, int kind) {
        for (int i = 1; i < lines.size(); i++) {
            String[] f = row(i);
            if (Integer.parseInt(f[1]) == discs && Integer.parseInt(f[2]) == kind) return i;
        }
        throw new AssertionError("no row with " + discs + " discs and kind " + kind);
    }

    PeerResult verifyMutated(int rowIndex, String newRow) throws IOException {
        List<String> copy = new ArrayList<>(lines);
        if (newRow == null) copy.remove(rowIndex);
        else copy.set(rowIndex, newRow);
        Path p = tmp.resolve("mutated.csv");
        Files.write(p, copy);
        return verify(p);
    }

    static String withFields(String[] f, int kind, int lb, int ub) {
        return f[0] + "," + f[1] + "," + kind + "," + lb + "," + ub;
    }

    @Test
    void realTableIsIncompleteWithItsTenDiscFrontierAndNoViolation() {
        PeerResult r = verify(CSV);
        assertNull(r.violation, () -> String.valueOf(r.violation));
        assertEquals(PeerResult.Verdict.INCOMPLETE, r.verdict());
        assertEquals(3, r.exitCode());
        TreeMap<Integer, long[]> byDiscs = new TreeMap<>(); // discs -> {rows, exact rows}
        for (int i = 1; i < lines.size(); i++) {
            String[] f = row(i);
            long[] c = byDiscs.computeIfAbsent(Integer.parseInt(f[1]), k -> new long[2]);
            c[0]++;
            if ((Integer.parseInt(f[2]) & 7) != 0) c[1]++;
        }
        assertEquals(lines.size() - 1, r.entries());
        for (TableResult t : r.tables) {
            assertEquals(byDiscs.get(t.discs)[0], t.records);
            assertEquals(byDiscs.get(t.discs)[1], t.region);
            assertEquals(t.records - t.region, t.auxiliary);
            // Only the 10-disc records lack their children; each of them needs some.
            assertEquals(t.discs == 10 ? t.records : 0, t.frontierRecords, "frontier of table " + t.discs);
        }
        assertTrue(r.frontierChildren() >= r.frontierRecords());
        // The initial position's record claims PV −4, but 10-disc records it rests on are open:
        // nothing is proven, so no value is reported (PEER-ROOT-4).
        assertNull(r.rootValue);
        assertEquals("PV", r.roots.get(0).kind);
        assertEquals(-4, r.roots.get(0).lower);
        assertFalse(r.roots.get(0).valueProven());
        assertFalse(r.roots.get(0).boundsProven());
        String json = PeerReport.json(r);
        assertTrue(json.contains("\"root_value\":null") && json.contains("\"value_proven\":false")
                && json.contains("\"proven_lower\":null"), json);
    }

    @Test
    void cutLowerBoundRaisedAboveTheTruthIsRejected() throws IOException {
        int i = find(9, 16);
        String[] f = row(i);
        PeerResult r = verifyMutated(i, withFields(f, 16, 36, 36));
        assertEquals(PeerResult.Verdict.REJECTED, r.verdict());
        assertEquals(PeerRules.CUT_1, r.violation.rule);
        assertEquals(9, r.violation.layer);
    }

    @Test
    void allUpperBoundLoweredBelowTheTruthIsRejected() throws IOException {
        int i = find(9, 8);
        String[] f = row(i);
        PeerResult r = verifyMutated(i, withFields(f, 8, -36, -36));
        assertEquals(PeerResult.Verdict.REJECTED, r.verdict());
        assertEquals(PeerRules.ALL_1, r.violation.rule);
        assertEquals(9, r.violation.layer);
    }

    @Test
    void rootValueChangedIsRejected() throws IOException {
        int i = find(4, 1);
        String[] f = row(i);
        PeerResult lower = verifyMutated(i, withFields(f, 1, -6, -6));
        assertEquals(PeerRules.PV_2, lower.violation.rule, () -> lower.violation.toString());
        assertEquals(4, lower.violation.layer);
        PeerResult higher = verifyMutated(i, withFields(f, 1, -2, -2));
        assertEquals(PeerRules.PV_3, higher.violation.rule, () -> higher.violation.toString());
        assertEquals(4, higher.violation.layer);
    }

    @Test
    void pvBitRemovedIsRejectedAtTheParent() throws IOException {
        int i = find(8, 1);
        String[] f = row(i);
        PeerResult r = verifyMutated(i, withFields(f, 2, Integer.parseInt(f[3]), Integer.parseInt(f[4])));
        assertEquals(PeerResult.Verdict.REJECTED, r.verdict());
        assertEquals(PeerRules.PV_3, r.violation.rule, () -> r.violation.toString());
        assertEquals(7, r.violation.layer);
    }

    @Test
    void exactBitRemovedFromANeededChildIsRejected() throws IOException {
        // An ALL' record at 9 discs turned into a CUT/ALL record with the same bounds: its parent
        // needed it exact (ALL' or PV, or PV' through a pass), so the parent's check fails.
        int i = find(9, 2);
        String[] f = row(i);
        PeerResult r = verifyMutated(i, withFields(f, 24, Integer.parseInt(f[3]), Integer.parseInt(f[4])));
        assertEquals(PeerResult.Verdict.REJECTED, r.verdict());
        assertEquals(8, r.violation.layer);
        assertTrue(r.violation.rule.startsWith("PEER-PV") || r.violation.rule.startsWith("PEER-PP") || r.violation.rule.startsWith("PEER-AP"),
                r.violation.toString());
    }

    @Test
    void nonCanonicalKeyIsRejected() throws IOException {
        int i = find(4, 1);
        String[] f = row(i);
        long[] p = PeerCodec.parsePosition(f[0]);
        OthelloRules rules = new OthelloRules(6);
        String moved = null;
        for (int s = 1; s < 8 && moved == null; s++) {
            long m = rules.transform(p[0], s), o = rules.transform(p[1], s);
            if (!PeerCodec.isCanonical(m, o)) moved = PeerCodec.obf(m, o);
        }
        assertNotNull(moved);
        PeerResult r = verifyMutated(i, moved + "," + f[1] + "," + f[2] + "," + f[3] + "," + f[4]);
        assertEquals(PeerRules.KEY_1, r.violation.rule);
        assertEquals(4, r.violation.layer);
    }

    @Test
    void repeatedRowIsAnOrderViolation() throws IOException {
        List<String> copy = new ArrayList<>(lines);
        int i = find(9, 16);
        copy.add(lines.get(i));
        Path p = tmp.resolve("dup.csv");
        Files.write(p, copy);
        PeerResult r = verify(p);
        assertEquals(PeerRules.ORDER_1, r.violation.rule);
        assertEquals(9, r.violation.layer);
    }

    @Test
    void brokenOrderInTheTableFormIsRejected() throws IOException, PeerInputException {
        // The same data as 13-byte tables; two records of table 9 swapped.
        MemorySource m = CsvSource.read(CSV);
        Path dir = tmp.resolve("tables");
        Files.createDirectories(dir);
        for (int n : m.tables()) {
            byte[] b = m.open(n).readAllBytes();
            if (n == 9) {
                byte[] a = java.util.Arrays.copyOfRange(b, 13 * 5, 13 * 6);
                System.arraycopy(b, 13 * 6, b, 13 * 5, 13);
                System.arraycopy(a, 0, b, 13 * 6, 13);
            }
            Files.write(dir.resolve(PeerSource.tableFileName(n)), b);
        }
        PeerResult r = verify(dir);
        assertEquals(PeerResult.Verdict.REJECTED, r.verdict());
        assertEquals(PeerRules.ORDER_1, r.violation.rule);
        assertEquals(9, r.violation.layer);
        assertEquals(6, r.violation.entry);
    }

    @Test
    void malformedRowIsRejectedWithItsLine() throws IOException {
        int i = find(9, 16);
        PeerResult r = verifyMutated(i, "not,a,row");
        assertEquals(PeerRules.CSV_1, r.violation.rule);
        assertTrue(r.violation.message.contains("line " + (i + 1)));
    }
}
