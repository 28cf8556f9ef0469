package org.gamecert.verifier.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import org.gamecert.verifier.peer.PeerOptions;
import org.gamecert.verifier.peer.PeerResult;
import org.gamecert.verifier.peer.PeerVerifier;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole peer verification of a small table set: the fuzzer's bytes replace one table of the
 * valid weak 12-empties corpus set (testdata/peer/valid/). Property: a verdict, never an exception
 * escaping, a rule id with every rejection, and "verified" only when the replaced table is
 * byte-for-byte the seed's own (any other content of a present table changes a claim or breaks
 * the set; the seeds are the only valid inputs we know).
 */
@Tag("slow")
class PeerFuzzTest {
    static final Path SEED_DIR = CertificateFuzzTest.ROOT.resolve("testdata/peer/valid/othello6-12empties-weak");
    private static Map<Integer, byte[]> seedTables;

    static synchronized Map<Integer, byte[]> seedTables() {
        if (seedTables == null) {
            Map<Integer, byte[]> m = new TreeMap<>();
            try (Stream<Path> s = Files.list(SEED_DIR)) {
                for (Path p : s.toList()) {
                    String n = p.getFileName().toString();
                    if (n.startsWith("optimal_reopening_ab_table_all_") && n.endsWith(".txt"))
                        m.put(Integer.parseInt(n.substring(31, n.length() - 4)), Files.readAllBytes(p));
                }
            } catch (IOException e) { throw new UncheckedIOException(e); }
            seedTables = m;
        }
        return seedTables;
    }

    static void verifyProperty(int table, byte[] content) throws IOException {
        Map<Integer, byte[]> seeds = seedTables();
        assertTrue(seeds.size() >= 2, "seed tables in " + SEED_DIR);
        Integer[] ns = seeds.keySet().toArray(new Integer[0]);
        int n = ns[Math.floorMod(table, ns.length)];
        Path dir = Files.createTempDirectory("fuzz-peer-");
        try {
            for (Map.Entry<Integer, byte[]> e : seeds.entrySet())
                Files.write(dir.resolve("optimal_reopening_ab_table_all_" + e.getKey() + ".txt"), e.getKey() == n ? content : e.getValue());
            PeerOptions o = new PeerOptions();
            o.input = dir;
            o.threads = 1;
            o.tmp = dir.resolve("tmp");
            PeerResult r = PeerVerifier.verify(o);
            assertNotNull(r.verdict());
            if (r.verdict() == PeerResult.Verdict.REJECTED) assertNotNull(r.violation, "rejected without a rule id");
            if (r.verdict() == PeerResult.Verdict.VERIFIED)
                assertTrue(Arrays.equals(content, seeds.get(n)) || onlyWeakerClaims(content, seeds.get(n)), "verified a modified table " + n);
        } finally {
            try (Stream<Path> w = Files.walk(dir)) {
                for (Path p : w.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
            }
        }
    }

    private static final String ALPHABET = "56789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#_";

    /**
     * Whole records, each a seed record (same key) with a subset of its kinds and bounds no
     * tighter: every claim is implied by a true one, so "verified" is right for it.
     */
    static boolean onlyWeakerClaims(byte[] content, byte[] seed) {
        if (content.length % 13 != 0) return false;
        Map<String, byte[]> byKey = new TreeMap<>();
        for (int r = 0; r + 13 <= seed.length; r += 13) byKey.put(new String(seed, r, 9, java.nio.charset.StandardCharsets.ISO_8859_1), Arrays.copyOfRange(seed, r, r + 13));
        for (int r = 0; r < content.length; r += 13) {
            byte[] s = byKey.get(new String(content, r, 9, java.nio.charset.StandardCharsets.ISO_8859_1));
            if (s == null) return false;
            int k = ALPHABET.indexOf(content[r + 9]), lb = ALPHABET.indexOf(content[r + 10]), ub = ALPHABET.indexOf(content[r + 11]);
            int sk = ALPHABET.indexOf(s[9]), slb = ALPHABET.indexOf(s[10]), sub = ALPHABET.indexOf(s[11]);
            if (k < 0 || lb < 0 || ub < 0 || (k & ~sk) != 0 || lb > slb || ub < sub || content[r + 12] != '\n') return false;
        }
        return true;
    }

    @FuzzTest
    void verifyAnyPeerTable(FuzzedDataProvider data) throws IOException {
        verifyProperty(data.consumeInt(), data.consumeRemainingAsBytes());
    }

    /** Regression run: each seed table unchanged, and each cut by one byte. */
    @TestFactory
    List<DynamicTest> replaySeeds() {
        List<DynamicTest> t = new ArrayList<>();
        int i = 0;
        for (Map.Entry<Integer, byte[]> e : seedTables().entrySet()) {
            final int k = i++;
            byte[] same = e.getValue();
            t.add(DynamicTest.dynamicTest("table " + e.getKey() + " as is", () -> verifyProperty(k, same)));
            if (same.length >= 13) {
                byte[] changed = Arrays.copyOf(same, same.length - 1); // no longer whole records
                t.add(DynamicTest.dynamicTest("table " + e.getKey() + " cut by one byte", () -> verifyProperty(k, changed)));
            }
        }
        return t;
    }
}
