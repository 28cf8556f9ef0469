package org.gamecert.producer.export;

import org.gamecert.producer.command.CommandSupport;

import org.gamecert.producer.cert.CertificateReader;
import org.gamecert.producer.cert.LayerEntries;
import org.gamecert.producer.game.Game;
import org.gamecert.producer.release.BagFile;
import org.gamecert.producer.release.BagWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(exitCodeListHeading = org.gamecert.producer.command.CommandSupport.EXIT_HEADING, exitCodeList = {org.gamecert.producer.command.CommandSupport.EXIT_0, org.gamecert.producer.command.CommandSupport.EXIT_1, org.gamecert.producer.command.CommandSupport.EXIT_2},
        name = "export", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Write a certificate in another published format.",
                "--format peer-6x6: the tables of the published 6x6 Othello semi-strong tablebase (Zenodo record 18843225): "
                        + "one optimal_reopening_ab_table_all_{n}.txt per disc count, 13-byte records sorted by encode_bb, "
                        + "the same kind bits and bounds, passes contracted the same way. The stored moves are dropped "
                        + "(that format has none). Output: a directory, or a .tar / .tar.zst (deterministic), optionally "
                        + "split into parts OUT.00, OUT.01, ... with a SHA256SUMS file beside them, as the published tablebase is (and as "
                        + "'release --split-size' splits a bundle)."})
public final class ExportCommand implements Callable<Integer>, CommandSupport.Streams {
    @Option(names = "--format", required = true, description = "Target format: peer-6x6.")
    String format;
    @Option(names = "--in", required = true, paramLabel = "CERT", description = "Certificate to export: peer-6x6 takes othello:6x6, "
            + "semi-strong or weak (not with endgame leaves, not a part of a composite); anything else is refused (exit 2).")
    Path in;
    @Option(names = "--out", required = true, paramLabel = "PATH",
            description = "A directory (absent or empty), or a file ending .tar or .tar.zst.")
    Path out;
    @Option(names = "--split-size", paramLabel = "SIZE", description = "For .tar/.tar.zst: parts of at most SIZE bytes (e.g. 500m, 2g), plus SHA256SUMS.")
    String splitSize;

    private PrintStream stdout = System.out;

    @Override public void streams(PrintStream o, PrintStream e) { stdout = o; }

    @Override public Integer call() throws IOException {
        if (!format.equalsIgnoreCase("peer-6x6")) throw new CommandSupport.UserError("unknown --format '" + format + "' (supported: peer-6x6)");
        long split = splitSize == null ? 0 : parseSize(splitSize);
        BagWriter.Format f = BagWriter.formatOf(out);
        if (split > 0 && f == BagWriter.Format.DIRECTORY) throw new CommandSupport.UserError("--split-size needs a .tar or .tar.zst --out");
        if (f != BagWriter.Format.DIRECTORY) CommandSupport.requireWritable("--out", out); // a directory --out is made when missing
        if (Files.isDirectory(in))
            throw new CommandSupport.UserError(SUPPORTED + "a folder (" + in + "; a composite, SPEC 15, has open entries that its other parts prove)");
        CertificateReader cert;
        try { cert = CertificateReader.read(in); }
        catch (NoSuchFileException e) { throw new CommandSupport.UserError("cannot read " + in + ": no such file"); }
        catch (IOException | RuntimeException e) { throw new CommandSupport.UserError("cannot read " + in + ": " + e.getMessage(), CommandSupport.EXIT_FAILURE); }
        String why = peerRefusal(cert);
        if (why != null) throw new CommandSupport.UserError(why);

        List<BagFile> files = new ArrayList<>();
        long records = 0;
        for (Map.Entry<Integer, LayerEntries> e : cert.layers.entrySet()) {
            byte[] table = PeerTables.table(cert, e.getValue());
            files.add(BagFile.of(PeerTables.fileName(e.getKey()), table));
            records += e.getValue().count;
        }
        List<Path> written;
        try {
            written = BagWriter.write(out, files, 0, split);
        } catch (IOException e) {
            throw new CommandSupport.UserError("cannot write " + out + ": " + e.getMessage());
        }
        stdout.printf(Locale.ROOT, "exported %d records in %d tables (discs %d..%d) from %s (%s) to %s%n", records, files.size(),
                cert.layers.firstKey(), cert.layers.lastKey(), in, cert.commitmentId, split > 0 ? (written.size() - 1) + " parts " + written.get(0) + " ... with " + BagWriter.SUMS : out);
        return CommandSupport.EXIT_OK;
    }

    /**
     * Why the peer 6x6 format cannot hold this certificate, as one line naming what it supports, or
     * null when it can. Its tables are 6x6 Othello positions by disc count with the kinds and
     * bounds of SPEC §5.4, so: othello:6x6, semi-strong or weak, whole (not a part). Not endgame
     * leaves (mode 3): the peer check has no leaf search and would find the leaves' records
     * missing; not a part: an open entry's proof is in another part; not weak-ranked (mode 4):
     * the format has no ranks to order a proof whose moves need not add a disc.
     */
    static String peerRefusal(CertificateReader cert) {
        Game g = cert.game;
        if (g.family != Game.FAMILY_OTHELLO || g.width != 6) return SUPPORTED + g.name() + " " + cert.modeName();
        if (cert.part) return SUPPORTED + "a part of a composite (its open entries are proved in other parts)";
        if (cert.mode == 3) return SUPPORTED + "weak with endgame leaves (--leaf-empties: that format has no leaves)";
        if (cert.mode != 1 && cert.mode != 2) return SUPPORTED + cert.modeName();
        return null;
    }

    static final String SUPPORTED = "--format peer-6x6 supports othello:6x6 certificates, semi-strong or weak (the peer 6x6 Othello tablebase), not ";

    static long parseSize(String s) {
        try { return org.gamecert.producer.release.ReleaseCommand.parseSize(s); }
        catch (org.gamecert.producer.release.Release.ReleaseException e) { throw new CommandSupport.UserError(e.getMessage()); }
    }
}
