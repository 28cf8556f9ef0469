package org.gamecert.integration;

import org.gamecert.producer.cli.ProduceMain;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.engine.Verifier;
import org.gamecert.verifier.peer.PeerOptions;
import org.gamecert.verifier.peer.PeerResult;
import org.gamecert.verifier.peer.PeerVerifier;
import org.gamecert.verifier.peer.TableResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A semi-strong 6×6 solve from a midgame position, exported as tables of the published peer
 * tablebase format: it verifies in both formats with the same region census, as a directory and
 * as a split .tar.zst with SHA256SUMS; a damaged part is named.
 */
class PeerExportRoundTripTest {

    @Test
    void exportedSolveVerifiesInBothFormatsWithTheSameCensus(@TempDir Path dir) throws IOException {
        String line = ProducedCertificatesVerifyTest.randomLine("othello:6x6", 36 - 13, 42);
        Path cert = dir.resolve("s.gsc");
        produce("solve", "--game", "othello:6x6", "--moves", line, "--tt-mb", "64", "-q", "--out", cert.toString());
        Result ours = Verifier.verify(cert, new Options());
        assertEquals(Result.Verdict.VERIFIED, ours.verdict, () -> String.valueOf(ours.firstViolation()));
        TreeMap<Integer, long[]> ourCensus = new TreeMap<>();
        for (long[] row : ours.census) if (row[1] != 0 || row[2] != 0) ourCensus.put((int) row[0], new long[] {row[1], row[2]});

        Path tables = dir.resolve("tables");
        produce("export", "--format", "peer-6x6", "--in", cert.toString(), "--out", tables.toString());
        PeerResult asDir = peer(tables);
        assertEquals(PeerResult.Verdict.VERIFIED, asDir.verdict(), () -> asDir.error + " " + asDir.violation);
        assertEquals(ours.entries, asDir.entries());
        assertEquals(ourCensus.size(), asDir.tables.size());
        for (TableResult t : asDir.tables) {
            long[] row = ourCensus.get(t.discs);
            assertEquals(row[0], t.region, "region at " + t.discs + " discs");
            assertEquals(row[1], t.auxiliary, "auxiliary at " + t.discs + " discs");
        }
        assertEquals(ours.header.rootValue, (int) asDir.rootValue);

        Path archive = dir.resolve("postprocess3.tar.zst");
        produce("export", "--format", "peer-6x6", "--in", cert.toString(), "--out", archive.toString(), "--split-size", "20k");
        Path first = dir.resolve("postprocess3.tar.zst.00"); // as the published tablebase's parts are named
        assertTrue(Files.exists(dir.resolve("SHA256SUMS")) && Files.exists(dir.resolve("postprocess3.tar.zst.01")));
        PeerResult asParts = peer(first);
        assertEquals(PeerResult.Verdict.VERIFIED, asParts.verdict(), () -> asParts.error + " " + asParts.violation);
        assertEquals(asDir.region(), asParts.region());
        assertEquals(asDir.entries(), asParts.entries());

        // One flipped byte in the second part: SHA256SUMS names it before anything is read.
        try (RandomAccessFile f = new RandomAccessFile(dir.resolve("postprocess3.tar.zst.01").toFile(), "rw")) {
            f.seek(100);
            int b = f.read();
            f.seek(100);
            f.write(b ^ 0x40);
        }
        PeerResult damaged = peer(first);
        assertTrue(damaged.verdict() == PeerResult.Verdict.REJECTED || damaged.verdict() == PeerResult.Verdict.ERROR);
        String said = damaged.error + " " + damaged.violation;
        assertTrue(said.contains("postprocess3.tar.zst.01"), said);
    }

    private static PeerResult peer(Path input) {
        PeerOptions o = new PeerOptions();
        o.input = input;
        o.threads = 2;
        return PeerVerifier.verify(o);
    }

    private static void produce(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = ProduceMain.run(args, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, rc, err.toString(StandardCharsets.UTF_8));
    }
}
