package org.gamecert.spark.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.gamecert.spark.SparkTestContext;
import org.gamecert.verifier.peer.PeerOptions;
import org.gamecert.verifier.peer.PeerReport;
import org.gamecert.verifier.peer.PeerResult;
import org.gamecert.verifier.peer.PeerVerifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * The peer 6×6 test tables of the audit corpus (testdata/manifest.tsv, format `peer`: valid
 * tables, every mutant, the crafted ones) on Spark in local[2], one task per slice of a table, against
 * PeerVerifier on one machine: the listed verdict and rule, and the same report (verdict, first
 * violation with its table, record and position, per-table tallies, root), seconds and heap aside.
 * Also with child ranges and slices forced small: each table checked in several slices, each a
 * Spark task, against table n+1 in several key ranges.
 */
@Tag("slow")
class SparkPeerEquivalenceTest {
    static final Path ROOT = Paths.get("..").toAbsolutePath().normalize();
    static JavaSparkContext sc;

    @BeforeAll
    static void start() {
        sc = SparkTestContext.open(2);
    }

    @AfterAll
    static void stop() {
        if (sc != null) sc.stop();
    }

    static String stable(String json) {
        return json.replaceAll("\"(seconds|peak_heap_bytes|peak_heap_mib)\":[0-9.Ee+-]+", "")
                .replaceAll("\"seconds\":\"[^\"]*\"", "");
    }

    static PeerOptions options(Path dir, long rangeRecords, long sliceRecords) {
        PeerOptions o = new PeerOptions();
        o.input = dir;
        o.threads = 1;
        o.rangeRecords = rangeRecords;
        o.sliceRecords = sliceRecords;
        return o;
    }

    /** Child ranges and slices: as sized (one slice per table), small ranges and slices, tiny ones. */
    static final long[][] SIZES = {{0, 0}, {500, 150}, {0, 37}};

    @TestFactory
    List<DynamicTest> peerTables() throws IOException {
        List<DynamicTest> t = new ArrayList<>();
        for (String line : Files.readAllLines(ROOT.resolve("testdata/manifest.tsv"))) {
            if (line.isBlank() || line.startsWith("#")) continue;
            String[] f = line.split("\t");
            if (!f[1].equals("peer")) continue;
            t.add(DynamicTest.dynamicTest(f[0] + " -> " + f[2] + " " + f[3], () -> {
                Path dir = ROOT.resolve("testdata").resolve(f[0]);
                int mostSlices = 0;
                long biggest = 0;
                for (long[] size : SIZES) {
                    long range = size[0];
                    PeerResult one = PeerVerifier.verify(options(dir, range, 0));
                    PeerResult spark = SparkPeer.verify(sc, options(dir, range, size[1]), 0);
                    for (var table : spark.tables) {
                        mostSlices = Math.max(mostSlices, table.slices);
                        if (size[1] > 0) biggest = Math.max(biggest, table.records);
                    }
                    assertEquals(f[2], spark.verdict().text(), () -> dir + ": " + spark.violation + " " + spark.error);
                    if (f[2].equals("rejected")) assertEquals(f[3], spark.violation.rule);
                    assertEquals(one.verdict(), spark.verdict());
                    assertEquals(String.valueOf(one.violation), String.valueOf(spark.violation));
                    assertEquals(one.exitCode(), spark.exitCode());
                    assertEquals(stable(PeerReport.json(one)), stable(PeerReport.json(spark)),
                            dir + " range " + range + " slices of " + size[1]);
                }
                // a table reported with 3 slices' records or more was checked in 3 slices or more
                if (biggest >= 3 * 37) assertTrue(mostSlices >= 3, dir + ": at most " + mostSlices + " slices");
            }));
        }
        assertTrue(t.size() >= 15, "peer rows: " + t.size());
        return t;
    }
}
