package org.gamecert.verifier.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PEER-ROOT-4 for every root, whatever their number. Without a named root, every record of the
 * lowest table is a root; a root relabelled to a kind that obliges only one of its bounds (CUT
 * [v−2, v−2] or ALL [v+2, v+2] where the true value is v: the obliged bound is true, the other is
 * false) must leave the verdict incomplete and print no value for it, with 1, 2 and 4 roots and
 * every combination of settled and unsettled roots. A run that leaves records open proves no
 * root's bounds at all.
 */
class PeerSeveralRootsTest {
    static final int EMPTIES = 8;

    @TempDir Path tmp;

    /** Genuine tables of n distinct roots with EMPTIES empties; values[i] the i-th root's (table order). */
    static TreeMap<Integer, byte[]> genuine(int n, List<Integer> values) {
        return genuine(n, values, EMPTIES);
    }

    static TreeMap<Integer, byte[]> genuine(int n, List<Integer> values, int empties) {
        TreeMap<Integer, byte[]> t = PeerTableGenerator.severalRoots(n, empties);
        byte[] lowest = t.firstEntry().getValue();
        assertEquals(n * PeerCodec.RECORD_BYTES, lowest.length, "the lowest table holds the roots alone");
        for (int i = 0; i < n; i++) {
            assertEquals(PeerCodec.PV, PeerCodec.symbol(lowest[i * 13 + 9]), "a genuine root is PV");
            values.add(PeerCodec.symbol(lowest[i * 13 + 10]) - PeerCodec.MAX_VALUE);
        }
        return t;
    }

    /** Root i's record rewritten to an unsettled but sound claim: its obliged bound is true. */
    static void unsettle(byte[] lowest, int i, int value) {
        assertEquals(value, PeerCodec.symbol(lowest[i * 13 + 10]) - PeerCodec.MAX_VALUE);
        PeerTableGenerator.unsettleRoot(lowest, i);
    }

    PeerResult verify(TreeMap<Integer, byte[]> tables) throws IOException {
        return verify(tables, false);
    }

    /** sliced: every table in slices of one record, each checked by a kernel of its own (as on Spark). */
    PeerResult verify(TreeMap<Integer, byte[]> tables, boolean sliced) throws IOException {
        Path d = Files.createTempDirectory(tmp, "tables");
        PeerTableGenerator.writeDirectory(tables, d);
        PeerOptions o = new PeerOptions();
        o.input = d;
        o.threads = 1;
        if (sliced) {
            o.sliceRecords = 1;
            o.runner = (opt, input, slices) -> {
                List<SliceRun> runs = new ArrayList<>();
                for (int i = slices.size() - 1; i >= 0; i--) runs.add(PeerVerifier.checkSlice(opt, input, slices.get(i)));
                return runs;
            };
        }
        return PeerVerifier.verify(o);
    }

    @Test
    void slicedTablesCountEveryUnsettledRoot() throws IOException {
        List<Integer> values = new ArrayList<>();
        TreeMap<Integer, byte[]> t = new TreeMap<>(genuine(4, values, 5));
        PeerResult whole = verify(t, true);
        assertEquals(PeerResult.Verdict.VERIFIED, whole.verdict(), () -> whole.error + " " + whole.violation);
        byte[] lowest = t.firstEntry().getValue().clone();
        unsettle(lowest, 1, values.get(1));
        unsettle(lowest, 3, values.get(3));
        t.put(t.firstKey(), lowest);
        PeerResult r = verify(t, true);
        assertNull(r.violation, () -> String.valueOf(r.violation));
        assertEquals(PeerResult.Verdict.INCOMPLETE, r.verdict(), () -> r.error + " " + r.violation);
        assertTrue(r.rootOpen.contains("2 of the 4 roots"), r.rootOpen);
        assertNull(r.rootValue);
    }

    static String text(PeerResult r) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        PeerReport.printText(r, new PrintStream(b, true, StandardCharsets.UTF_8));
        return b.toString(StandardCharsets.UTF_8);
    }

    @Test
    void everyRootMustHaveItsValueProvenWith1And2And4Roots() throws IOException {
        for (int n : new int[] {1, 2, 4}) {
            List<Integer> values = new ArrayList<>();
            TreeMap<Integer, byte[]> tables = genuine(n, values);
            for (int mask = 0; mask < 1 << n; mask++) {
                TreeMap<Integer, byte[]> t = new TreeMap<>(tables);
                byte[] lowest = t.firstEntry().getValue().clone();
                for (int i = 0; i < n; i++) if ((mask >> i & 1) != 0) unsettle(lowest, i, values.get(i));
                t.put(t.firstKey(), lowest);
                PeerResult r = verify(t);
                String at = n + " root(s), unsettled mask " + mask;
                assertNull(r.violation, () -> at + ": " + r.violation);
                assertEquals(n, r.rootCount, at);
                String text = text(r), json = PeerReport.json(r);
                if (mask == 0) {
                    assertEquals(PeerResult.Verdict.VERIFIED, r.verdict(), at);
                    assertNull(r.rootOpen, at);
                    assertEquals(n == 1 ? values.get(0) : null, r.rootValue, at);
                } else {
                    assertEquals(PeerResult.Verdict.INCOMPLETE, r.verdict(), at + "\n" + text);
                    assertEquals(3, r.exitCode(), at);
                    assertNull(r.rootValue, at);
                    assertTrue(r.rootOpen.startsWith(PeerRules.ROOT_4), at + ": " + r.rootOpen);
                    if (n > 1) assertTrue(r.rootOpen.contains(Integer.bitCount(mask) + " of the " + n + " roots"), r.rootOpen);
                    assertTrue(json.contains("\"root_value\":null"), json);
                }
                for (int i = 0; i < n; i++) {
                    PeerResult.Root root = r.roots.get(i);
                    boolean unsettled = (mask >> i & 1) != 0;
                    assertTrue(root.boundsProven(), at);
                    assertEquals(!unsettled, root.valueProven(), at + ", root " + i);
                    String line = text.lines().filter(l -> l.contains(root.position)).findFirst().orElseThrow();
                    if (unsettled) {
                        // the claimed equal bounds are a claim, never printed as a (proven) value
                        assertTrue(line.contains("proven only"), line);
                        assertFalse(line.contains("value " + root.lower) && !line.contains("<= value"), line);
                        assertNotEquals(root.provenLower, root.provenUpper, at);
                    } else {
                        assertTrue(line.contains("proven value " + values.get(i)), line);
                    }
                }
            }
        }
    }

    @Test
    void recordsLeftOpenProveNoRootsBounds() throws IOException {
        List<Integer> values = new ArrayList<>();
        TreeMap<Integer, byte[]> t = new TreeMap<>(genuine(2, values));
        t.remove(t.lastKey()); // the last table's parents are left open
        t.remove(t.lastKey());
        PeerResult r = verify(t);
        assertNull(r.violation, () -> String.valueOf(r.violation));
        assertTrue(r.frontierRecords() > 0, "records left open");
        assertEquals(PeerResult.Verdict.INCOMPLETE, r.verdict());
        assertNull(r.rootValue);
        String text = text(r), json = PeerReport.json(r);
        for (PeerResult.Root root : r.roots) {
            assertFalse(root.boundsProven());
            assertFalse(root.valueProven());
            assertEquals(-PeerCodec.MAX_VALUE, root.provenLower);
            assertEquals(PeerCodec.MAX_VALUE, root.provenUpper);
        }
        assertFalse(text.contains("proven value") || text.contains("proven only"), text);
        assertTrue(text.contains("nothing proven: records it rests on are left open"), text);
        assertFalse(json.contains("\"value_proven\":true") || json.contains("\"bounds_proven\":true"), json);
        assertTrue(json.contains("\"proven_lower\":null"), json);
    }
}
