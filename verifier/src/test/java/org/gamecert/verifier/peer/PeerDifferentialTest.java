package org.gamecert.verifier.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.gamecert.verifier.peer.kernel.PeerKernel;
import org.gamecert.verifier.peer.kernel.TableCheck;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The peer kernel fed by PairChecker against the checker as it was before the split
 * (LegacyPairChecker): every table of every peer test set (testdata/peer: the valid sets and the
 * mutation corpus) and of seeded byte mutations of the valid sets, checked against the next table,
 * with 1 and 2 threads, the next table whole and in small key ranges, the new checker in small and
 * large chunks (the old one's are fixed): the same records, region, auxiliary, frontier, passes, child records and first
 * violation (rule, table, record, position, message).
 */
@Tag("slow")
class PeerDifferentialTest {
    static final Path PEER = Path.of("../testdata/peer");

    @TempDir
    Path tmp;

    static TreeMap<Integer, byte[]> read(Path dir) throws IOException {
        TreeMap<Integer, byte[]> t = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.sorted().toList()) {
                int n = PeerSource.tableNumber(p.getFileName().toString());
                if (n >= 0) t.put(n, Files.readAllBytes(p));
            }
        }
        return t;
    }

    static List<Path> sets() throws IOException {
        List<Path> dirs = new ArrayList<>();
        for (String kind : new String[] {"valid", "mutants"})
            try (Stream<Path> s = Files.list(PEER.resolve(kind))) {
                s.filter(Files::isDirectory).sorted().forEach(dirs::add);
            }
        return dirs;
    }

    @TestFactory
    List<DynamicTest> sameOutcomeAsBeforeTheKernel() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        List<Path> dirs = sets();
        assertTrue(dirs.size() >= 14, "the valid sets and the mutation corpus: " + dirs);
        for (Path d : dirs)
            tests.add(DynamicTest.dynamicTest(PEER.relativize(d).toString(), () -> compareAllWays(read(d))));
        // Seeded byte mutations of the valid sets: any rule of a record's form or obligations.
        for (Path d : dirs) {
            if (!d.getParent().getFileName().toString().equals("valid")) continue;
            for (int seed = 0; seed < 12; seed++) {
                int s = seed;
                tests.add(DynamicTest.dynamicTest(PEER.relativize(d) + " mutant " + s, () -> compareAllWays(mutate(read(d), s))));
            }
        }
        return tests;
    }

    /** One byte of one record of one table changed, or one record dropped or repeated. */
    static TreeMap<Integer, byte[]> mutate(TreeMap<Integer, byte[]> t, int seed) {
        SplittableRandom rnd = new SplittableRandom(1000 + seed);
        List<Integer> ns = new ArrayList<>(t.keySet());
        int n = ns.get(rnd.nextInt(ns.size()));
        byte[] b = t.get(n);
        int recs = b.length / 13, i = rnd.nextInt(recs);
        switch (seed % 4) {
            case 0, 1 -> { // a key, kind or bound character changed
                byte[] c = b.clone();
                c[i * 13 + rnd.nextInt(12)] = PeerCodec.symbolChar(rnd.nextInt(81));
                t.put(n, c);
            }
            case 2 -> { // a record dropped
                byte[] c = new byte[b.length - 13];
                System.arraycopy(b, 0, c, 0, i * 13);
                System.arraycopy(b, (i + 1) * 13, c, i * 13, b.length - (i + 1) * 13);
                t.put(n, c);
            }
            default -> { // a record repeated
                byte[] c = new byte[b.length + 13];
                System.arraycopy(b, 0, c, 0, (i + 1) * 13);
                System.arraycopy(b, i * 13, c, (i + 1) * 13, b.length - i * 13);
                t.put(n, c);
            }
        }
        return t;
    }

    void compareAllWays(TreeMap<Integer, byte[]> tables) throws Exception {
        MemorySource src = new MemorySource(tables, "test");
        int savedChunk = PairChecker.chunkRecords;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int n : tables.keySet()) {
                boolean childGiven = tables.containsKey(n + 1);
                // {threads, range records, chunk records}: whole and in ranges, big and small chunks
                for (long[] way : new long[][] {{1, 1 << 20, 16384}, {2, 1 << 20, 50}, {1, 37, 16384}, {2, 37, 50}}) {
                    int threads = (int) way[0], chunk = (int) way[2];
                    long range = way[1];
                    PairChecker.chunkRecords = chunk;
                    String how = "table " + n + ", " + threads + " thread(s), ranges of " + range + ", chunks of " + chunk;
                    TableResult before = new LegacyPairChecker(n, src, childGiven ? src : null, range, pool, threads, tmp, null).run();
                    TableCheck check = new PeerKernel(null, null).beginTable(n, childGiven);
                    TableResult now = new PairChecker(check, src, src, range, pool, threads, tmp, null).run();
                    assertEquals(describe(before), describe(now), how);
                }
            }
        } finally {
            PairChecker.chunkRecords = savedChunk;
            pool.shutdownNow();
        }
    }

    static String describe(TableResult r) {
        return "table " + r.discs + " records=" + r.records + " region=" + r.region + " auxiliary=" + r.auxiliary
                + " frontier=" + r.frontierRecords + "/" + r.frontierChildren + " passes=" + r.passes
                + " childRecords=" + r.childRecords + " violation=" + r.violation;
    }
}
