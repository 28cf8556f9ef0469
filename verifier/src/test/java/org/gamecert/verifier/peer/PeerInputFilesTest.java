package org.gamecert.verifier.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every file of a peer input is read or named (issue 22 item 4). */
class PeerInputFilesTest {
    static final Path VALID = Path.of("../testdata/peer/valid/othello6-10empties");

    @TempDir Path dir;

    private Path copy(String name) throws IOException { return PeerRootClaimTest.copyValid(dir.resolve(name)); }

    private static PeerResult verify(Path input) { return PeerRootClaimTest.verify(input); }

    @Test
    void twoFilesForOneTableAreRejectedWhicheverIsListedFirst() throws IOException {
        Path d = copy("dup");
        // A false table 26 (the root's value moved) under the three-digit name beside the genuine one.
        byte[] b = Files.readAllBytes(d.resolve("optimal_reopening_ab_table_all_26.txt"));
        long[] pos = new long[2];
        assertTrue(PeerCodec.decodeKey(b, 0, pos));
        PeerCodec.encodeRecord(pos[0], pos[1], PeerCodec.PV, 30, 30, b, 0);
        Files.write(d.resolve("optimal_reopening_ab_table_all_026.txt"), b);
        PeerResult r = verify(d);
        assertEquals(PeerResult.Verdict.REJECTED, r.verdict());
        assertEquals(PeerRules.TABLE_1, r.violation.rule);
        assertTrue(r.violation.message.contains("appears twice"), r.violation.message);
    }

    @Test
    void filesThatAreNotTablesAreNamedAsNotRead() throws IOException {
        Path d = copy("extra");
        Files.writeString(d.resolve("README.txt"), "not a table\n");
        Files.createDirectories(d.resolve("more"));
        Files.writeString(d.resolve("optimal_reopening_ab_table_all_26.txt.bak"), "x");
        PeerResult r = verify(d);
        assertEquals(PeerResult.Verdict.VERIFIED, r.verdict(), "the tables themselves are genuine");
        assertEquals(List.of("README.txt", "more/", "optimal_reopening_ab_table_all_26.txt.bak"), r.unread);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        PeerReport.printText(r, new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
        assertTrue(out.toString(java.nio.charset.StandardCharsets.UTF_8).contains("not read: 3 file(s)"), out.toString());
        assertTrue(PeerReport.json(r).contains("\"unread\":[\"README.txt\",\"more/\",\"optimal_reopening_ab_table_all_26.txt.bak\"]"),
                PeerReport.json(r));
    }

    /** Issue 22 item 3: a checkpoint vouches for content, not for a path and a size. */
    @Test
    void aTableReplacedInPlaceBySameSizeFalseOneIsCheckedAgainUnderState() throws IOException {
        Path d = copy("state-input"), state = dir.resolve("state");
        PeerOptions o = new PeerOptions();
        o.input = d;
        o.threads = 1;
        o.state = state;
        PeerResult first = PeerVerifier.verify(o);
        assertEquals(PeerResult.Verdict.VERIFIED, first.verdict());
        assertEquals(10, first.rootValue);
        PeerResult unchanged = PeerVerifier.verify(o); // the checkpoints are of use: nothing checked again
        assertEquals(PeerResult.Verdict.VERIFIED, unchanged.verdict());
        assertEquals(first.tables.size(), unchanged.skippedTables.size(), "skipped: " + unchanged.skippedTables);
        // The root's table replaced by a false one of the same size: PV +30 instead of +10.
        Path root = d.resolve("optimal_reopening_ab_table_all_26.txt");
        byte[] b = Files.readAllBytes(root);
        long[] pos = new long[2];
        PeerCodec.decodeKey(b, 0, pos);
        PeerCodec.encodeRecord(pos[0], pos[1], PeerCodec.PV, 30, 30, b, 0);
        Files.write(root, b);
        assertEquals(b.length, Files.size(root));
        PeerResult again = PeerVerifier.verify(o);
        assertTrue(!again.skippedTables.contains(26), "table 26 changed: not skipped");
        assertEquals(PeerResult.Verdict.REJECTED, again.verdict());
        assertTrue(again.violation.rule.startsWith("PEER-PV"), again.violation.rule);
    }

    @Test
    void aCsvThatWouldNotFitInMemoryIsRefusedUpFront() {
        PeerOptions o = new PeerOptions();
        o.input = Path.of("../testdata/known-answers/othello6-peer/opening-table.csv");
        o.threads = 1;
        o.maxMemory = 40_000; // the file is 37 KB: about 74 KB in memory
        PeerResult r = PeerVerifier.verify(o);
        assertEquals(PeerResult.Verdict.ERROR, r.verdict());
        assertTrue(r.error.contains("held in memory"), r.error);
        o.maxMemory = 0; // the default budget holds it
        assertEquals(PeerResult.Verdict.INCOMPLETE, PeerVerifier.verify(o).verdict());
    }

    @Test
    void aCleanInputNamesNothing() {
        assertEquals(List.of(), verify(VALID).unread);
    }
}
