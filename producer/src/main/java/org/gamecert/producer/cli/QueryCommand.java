package org.gamecert.producer.cli;

import org.gamecert.producer.command.CommandSupport;

import org.gamecert.producer.cert.CertificateReader;
import org.gamecert.producer.cert.Kinds;
import org.gamecert.producer.cert.LayerEntries;
import org.gamecert.producer.compose.SplitDir;
import org.gamecert.producer.game.Game;
import org.gamecert.verifier.kernel.format.Manifest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(exitCodeListHeading = org.gamecert.producer.command.CommandSupport.EXIT_HEADING, exitCodeList = {org.gamecert.producer.command.CommandSupport.EXIT_0, org.gamecert.producer.command.CommandSupport.EXIT_1, org.gamecert.producer.command.CommandSupport.EXIT_2},
        name = "query", mixinStandardHelpOptions = true,
        description = {"Answer from a certificate (after checking its hash chain): whether a position is in the certified "
                + "region, its exact value or bounds, its kinds, and the canonical move with the value or bounds of every "
                + "move that the certificate knows. Moves are shown in the orientation of the position as given.",
                "Every game and mode: a weak-ranked certificate (LOA, SPEC 9.2) is looked up by key in every rank, and its "
                        + "entry's rank is shown; in a weak certificate with endgame leaves (SPEC 9.1) a leaf has no entry, "
                        + "and its value is found by an exhaustive search, as the verifier decides it (shown as such).",
                "A composite (a folder holding composite.gscm and its parts, SPEC 15) is queried through its parts: a position's "
                        + "entry is the first one that is not open, the root part first, then the parts in the manifest's order."})
public final class QueryCommand implements Callable<Integer>, CommandSupport.Streams {
    @Parameters(index = "0", paramLabel = "CERT|COMPOSITE_DIR", description = "Certificate file, or a composite's folder (composite.gscm and its parts).")
    Path cert;
    @Option(names = "--moves", description = "Position as a move sequence from the start.")
    String moves;
    @Option(names = "--board", description = "Position as board text (SPEC 7.5).")
    String board;
    @Option(names = "--json", description = "One JSON object on stdout.")
    boolean json;

    private PrintStream stdout = System.out;

    @Override public void streams(PrintStream out, PrintStream err) { stdout = out; }

    /** Where a position's entry is: the certificate (or part) and its layer and index there. */
    record Hit(CertificateReader cert, LayerEntries layer, int index) {
        int kinds() { return layer.kinds[index]; }
    }

    /** What query reads: one certificate, or the parts of a composite, the root part first. */
    static final class Source {
        final List<CertificateReader> parts = new ArrayList<>();
        /** The composite id, or null for a single certificate. */
        String compositeId;

        CertificateReader root() { return parts.get(0); }

        /**
         * The entry of a canonical position: the first that is not open (a part's open entry claims
         * what another part proves), else the first open one, else null.
         */
        Hit find(long m, long o) {
            Hit open = null;
            for (CertificateReader r : parts) {
                LayerEntries l = r.layerOf(m, o);
                int i = l == null ? -1 : l.find(m, o);
                if (i < 0) continue;
                Hit h = new Hit(r, l, i);
                if (!Kinds.isOpen(h.kinds())) return h;
                if (open == null) open = h;
            }
            return open;
        }
    }

    static CertificateReader readCertificate(Path file) {
        try { return CertificateReader.read(file); }
        catch (NoSuchFileException e) { throw new CommandSupport.UserError("cannot read " + file + ": no such file"); }
        catch (CertificateReader.FormatException e) {
            // As scripts/verify answers: not a certificate at all is an error (exit 2); a broken rule is a rejection (exit 1), named by its id.
            if (e.rule == null) throw new CommandSupport.UserError(file + ": " + e.getMessage());
            String statement = org.gamecert.verifier.cli.Rules.statement(e.rule);
            throw new CommandSupport.UserError(file + " is rejected: " + e.rule + (statement == null ? "" : " (" + statement + ")") + ": "
                    + e.getMessage().substring(e.rule.length() + 2) + " (scripts/verify " + file + " checks every rule)", CommandSupport.EXIT_FAILURE);
        }
        catch (IOException | RuntimeException e) { throw new CommandSupport.UserError("cannot read " + file + ": " + e.getMessage(), CommandSupport.EXIT_FAILURE); }
    }

    /** A certificate, or a composite's folder: its manifest (not verified here: scripts/verify does that) and every part it names. */
    static Source read(Path in) {
        Source s = new Source();
        if (!Files.isDirectory(in)) {
            s.parts.add(readCertificate(in));
            return s;
        }
        Path manifest = in.resolve(SplitDir.MANIFEST);
        if (!Files.isRegularFile(manifest))
            throw new CommandSupport.UserError(in + " is a folder without " + SplitDir.MANIFEST + ": give a certificate file or a composite's folder");
        Manifest man;
        try { man = Manifest.read(manifest); }
        catch (IOException | Manifest.NotAManifest | org.gamecert.verifier.kernel.format.FormatException e) {
            throw new CommandSupport.UserError("bad manifest " + manifest + ": " + e.getMessage(), CommandSupport.EXIT_FAILURE);
        }
        s.compositeId = man.compositeId();
        for (int i = 0; i < man.partCount(); i++) {
            Path part = in.resolve(man.partHex(i) + ".gsc");
            if (!Files.isRegularFile(part))
                throw new CommandSupport.UserError("part " + man.partHex(i) + ".gsc of the composite is not in " + in
                        + " (a bundle made with --parts-by-reference holds the manifest only)");
            CertificateReader r = readCertificate(part);
            if (!r.commitmentId.equals("sha256:" + man.partHex(i)))
                throw new CommandSupport.UserError(part + " is not the part its name says (its commitment is " + r.commitmentId + ")", CommandSupport.EXIT_FAILURE);
            if (!s.parts.isEmpty() && r.game.family != s.root().game.family)
                throw new CommandSupport.UserError(part + " is a part of another game (" + r.game.name() + ")", CommandSupport.EXIT_FAILURE);
            s.parts.add(r);
        }
        return s;
    }

    @Override public Integer call() {
        if (moves == null && board == null) throw new CommandSupport.UserError("give the position with --moves or --board");
        Source src = read(cert);
        CertificateReader r = src.root();
        Game game = r.game;
        long[] p = Positions.parse(game, moves, board);
        long m = p[0], o = p[1];
        StringBuilder js = new StringBuilder(src.compositeId == null ? "{\"commitment\":\"" + r.commitmentId + "\""
                : "{\"composite\":\"" + src.compositeId + "\",\"parts\":" + src.parts.size());
        js.append(",\"game\":\"").append(game.name()).append("\",\"mode\":\"").append(r.modeName()).append('"');
        PrintStream out = stdout;
        if (!json) {
            if (src.compositeId == null) out.println("certificate   " + r.commitmentId + " (hash chain checked)");
            else out.println("composite     " + src.compositeId + " (" + src.parts.size() + " parts, hash chains checked; "
                    + "scripts/verify checks the composition)");
            out.println("game          " + game.name() + " " + r.modeName() + ", root value " + r.rootValue);
        }
        if (game.isTerminal(m, o)) {
            int v = game.terminalValue(m, o);
            if (json) stdout.println(js.append(",\"terminal\":true,\"value\":").append(v).append('}'));
            else out.println("position      terminal, value " + v + " (side to move)");
            return CommandSupport.EXIT_OK;
        }
        boolean passed = false;
        if (game.moves(m, o) == 0) { long t = m; m = o; o = t; passed = true; }
        long[] c = new long[2];
        int g = game.canonical(m, o, c);
        int inv = game.inverse(g);
        Hit hit = src.find(c[0], c[1]);
        int kinds = hit == null ? 0 : hit.kinds();
        boolean inRegion = Kinds.isExact(kinds);
        boolean leaf = hit == null && isLeaf(r, m, o);
        int lo = hit == null ? game.uMin : hit.layer.lowerBound(hit.index, game.uMin);
        int hi = hit == null ? game.uMax : hit.layer.upperBound(hit.index, game.uMax);
        if (leaf) lo = hi = searchValue(game, m, o);
        // The stored move, in the stored (canonical) orientation, named in the orientation given.
        String move = hit != null && Kinds.hasMove(kinds) ? game.moveName(m, o, game.transformMove(inv, hit.layer.move[hit.index] & 0xFF)) : null;
        // mode 5 (SPEC §12): an A'-only entry's move is proven optimal, not the canonical one
        boolean optimalOnly = inRegion && hit.cert.mode == 5 && kinds == Kinds.AP;
        String where = hit == null ? "" : (hit.cert.ranked() ? ", rank " + hit.layer.layer : "")
                + (src.compositeId != null ? ", in part " + hit.cert.commitmentId.substring(7, 19) + "..." : "");
        if (json) {
            js.append(",\"terminal\":false,\"passed\":").append(passed).append(",\"in_certificate\":").append(hit != null)
                    .append(",\"in_region\":").append(inRegion).append(",\"kinds\":\"").append(Kinds.text(kinds)).append('"')
                    .append(",\"lower\":").append(lo).append(",\"upper\":").append(hi);
            if (leaf) js.append(",\"leaf\":true");
            if (hit != null && hit.cert.ranked()) js.append(",\"rank\":").append(hit.layer.layer);
            if (hit != null && src.compositeId != null) js.append(",\"part\":\"").append(hit.cert.commitmentId).append('"');
            if (move != null) js.append(optimalOnly ? ",\"optimal_move\":\"" : inRegion ? ",\"canonical_move\":\""
                    : ",\"cut_move\":\"").append(move).append('"');
            js.append(",\"moves\":[");
        } else {
            if (passed) out.println("note          the side to move must pass; answering for the position after the pass");
            if (leaf) {
                out.println("position      a leaf (at most " + r.leafEmpties + " empty cells): no entry, the verifier decides it by search (SPEC 9.1)");
                out.println("value         " + lo + " (by exhaustive search)");
            } else if (hit == null) out.println("position      not in the certificate (no claim about it)");
            else {
                out.println("position      " + (inRegion ? "in the certified region" : "auxiliary entry (bounds only)") + ", kinds " + Kinds.text(kinds) + where);
                out.println(inRegion ? "value         " + lo : "bounds        [" + lo + ", " + hi + "]");
                if (move != null) out.println((optimalOnly ? "optimal move  " : inRegion ? "canonical move " : "cut move      ") + move
                        + (optimalOnly ? " (mode 5: proven optimal, not proven the earliest in TB order)" : ""));
            }
            out.println("moves         (value for the side to move; bounds when only bounds are certified)");
        }
        Game.Child ch = new Game.Child();
        long mv = game.moves(m, o);
        boolean first = true;
        for (int t = 0; t < game.moveCodes; t++) {
            // list moves in TB order of the canonical orientation, named in the given orientation
            int cm = game.tbAt(t);
            int um = game.transformMove(inv, cm);
            if ((mv >>> um & 1) == 0) continue;
            game.child(m, o, um, ch);
            int mlo, mhi;
            String how;
            if (ch.sign == 0) { mlo = mhi = ch.terminalValue; how = "terminal"; }
            else {
                long[] cc = new long[2];
                game.canonical(ch.mover, ch.opponent, cc);
                Hit h = src.find(cc[0], cc[1]);
                int clo = h == null ? game.uMin : h.layer.lowerBound(h.index, game.uMin), chi = h == null ? game.uMax : h.layer.upperBound(h.index, game.uMax);
                boolean childLeaf = h == null && isLeaf(r, ch.mover, ch.opponent);
                if (childLeaf) clo = chi = searchValue(game, ch.mover, ch.opponent);
                if (ch.sign < 0) { mlo = -chi; mhi = -clo; } else { mlo = clo; mhi = chi; }
                how = childLeaf ? "leaf, by search" : h == null ? "unknown" : Kinds.isExact(h.kinds()) ? "exact" : "bounds";
                if (h != null && h.cert.ranked()) how += ", rank " + h.layer.layer;
                if (ch.sign > 0) how += ", opponent passes";
            }
            String name = game.moveName(m, o, um);
            if (json) {
                if (!first) js.append(',');
                js.append("{\"move\":\"").append(name).append("\",\"lower\":").append(mlo).append(",\"upper\":").append(mhi).append('}');
            } else {
                String val = mlo == mhi ? Integer.toString(mlo) : "[" + mlo + ", " + mhi + "]";
                out.printf("  %-4s %-12s %s%n", name, val, "(" + how + ")");
            }
            first = false;
        }
        if (json) stdout.println(js.append("]}"));
        return CommandSupport.EXIT_OK;
    }

    /**
     * A leaf of a certificate with endgame leaves (mode 3, SPEC 9.1): a non-terminal position
     * with at most leaf_empties empty cells, which has no entry; the verifier decides it by search.
     */
    static boolean isLeaf(CertificateReader r, long m, long o) {
        return r.mode == 3 && r.game.cells - r.game.discs(m, o) <= r.leafEmpties && !r.game.isTerminal(m, o);
    }

    /** The exact value for the side to move, by exhaustive negamax (leaves: at most 6 empty cells, at most 720 lines). */
    static int searchValue(Game g, long m, long o) {
        if (g.isTerminal(m, o)) return g.terminalValue(m, o);
        long moves = g.moves(m, o);
        if (moves == 0) return -searchValue(g, o, m); // the mover passes
        int best = Integer.MIN_VALUE;
        Game.Child ch = new Game.Child();
        for (long x = moves; x != 0; x &= x - 1) {
            g.child(m, o, Long.numberOfTrailingZeros(x), ch);
            int v = ch.sign == 0 ? ch.terminalValue : ch.sign < 0 ? -searchValue(g, ch.mover, ch.opponent) : searchValue(g, ch.mover, ch.opponent);
            best = Math.max(best, v);
        }
        return best;
    }
}
