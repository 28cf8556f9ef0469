package org.gamecert.producer.cli;

import org.gamecert.producer.command.CommandSupport;

import org.gamecert.producer.cert.CertificateReader;
import org.gamecert.producer.cert.Kinds;
import org.gamecert.producer.cert.LayerEntries;
import org.gamecert.producer.game.Game;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(name = "query", mixinStandardHelpOptions = true,
        description = {"Answer from a certificate (after checking its hash chain): whether a position is in the certified "
                + "region, its exact value or bounds, its kinds, and the canonical move with the value or bounds of every "
                + "move that the certificate knows. Moves are shown in the orientation of the position as given."})
public final class QueryCommand implements Callable<Integer>, CommandSupport.Streams {
    @Parameters(index = "0", description = "Certificate file.")
    Path cert;
    @Option(names = "--moves", description = "Position as a move sequence from the start.")
    String moves;
    @Option(names = "--board", description = "Position as board text (SPEC 7.5).")
    String board;
    @Option(names = "--json", description = "One JSON object on stdout.")
    boolean json;

    private PrintStream stdout = System.out;

    @Override public void streams(PrintStream out, PrintStream err) { stdout = out; }

    @Override public Integer call() {
        if (moves == null && board == null) throw new CommandSupport.UserError("give the position with --moves or --board");
        CertificateReader r;
        try { r = CertificateReader.read(cert); }
        catch (NoSuchFileException e) { throw new CommandSupport.UserError("cannot read " + cert + ": no such file"); }
        catch (CertificateReader.FormatException e) { throw new CommandSupport.UserError("bad certificate " + cert + ": " + e.getMessage(), CommandSupport.EXIT_FAILURE); }
        catch (IOException | RuntimeException e) { throw new CommandSupport.UserError("cannot read " + cert + ": " + e.getMessage(), CommandSupport.EXIT_FAILURE); }
        Game game = r.game;
        long[] p = Positions.parse(game, moves, board);
        long m = p[0], o = p[1];
        StringBuilder js = new StringBuilder("{\"commitment\":\"" + r.commitmentId + "\",\"game\":\"" + game.name() + "\"");
        PrintStream out = stdout;
        if (!json) {
            out.println("certificate   " + r.commitmentId + " (hash chain checked)");
            out.println("game          " + game.name() + (r.mode == 1 ? " semi-strong" : " weak") + ", root value " + r.rootValue);
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
        LayerEntries layer = r.layerOf(c[0], c[1]);
        int idx = layer == null ? -1 : layer.find(c[0], c[1]);
        int kinds = idx < 0 ? 0 : layer.kinds[idx];
        boolean inRegion = Kinds.isExact(kinds);
        int lo = idx < 0 ? game.uMin : layer.lowerBound(idx, game.uMin), hi = idx < 0 ? game.uMax : layer.upperBound(idx, game.uMax);
        String move = idx >= 0 && kinds != Kinds.A ? game.moveName(game.transformMove(inv, layer.move[idx] & 0xFF)) : null;
        if (json) {
            js.append(",\"terminal\":false,\"passed\":").append(passed).append(",\"in_certificate\":").append(idx >= 0)
                    .append(",\"in_region\":").append(inRegion).append(",\"kinds\":\"").append(Kinds.text(kinds)).append('"')
                    .append(",\"lower\":").append(lo).append(",\"upper\":").append(hi);
            if (move != null) js.append(inRegion ? ",\"canonical_move\":\"" : ",\"cut_move\":\"").append(move).append('"');
            js.append(",\"moves\":[");
        } else {
            if (passed) out.println("note          the side to move must pass; answering for the position after the pass");
            if (idx < 0) out.println("position      not in the certificate (no claim about it)");
            else {
                out.println("position      " + (inRegion ? "in the certified region" : "auxiliary entry (bounds only)") + ", kinds " + Kinds.text(kinds));
                out.println(inRegion ? "value         " + lo : "bounds        [" + lo + ", " + hi + "]");
                if (move != null) out.println((inRegion ? "canonical move " : "cut move      ") + move);
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
                LayerEntries cl = r.layerOf(cc[0], cc[1]);
                int ci = cl == null ? -1 : cl.find(cc[0], cc[1]);
                int clo = ci < 0 ? game.uMin : cl.lowerBound(ci, game.uMin), chi = ci < 0 ? game.uMax : cl.upperBound(ci, game.uMax);
                if (ch.sign < 0) { mlo = -chi; mhi = -clo; } else { mlo = clo; mhi = chi; }
                how = ci < 0 ? "unknown" : Kinds.isExact(cl.kinds[ci]) ? "exact" : "bounds";
                if (ch.sign > 0) how += ", opponent passes";
            }
            if (json) {
                if (!first) js.append(',');
                js.append("{\"move\":\"").append(game.moveName(um)).append("\",\"lower\":").append(mlo).append(",\"upper\":").append(mhi).append('}');
            } else {
                String val = mlo == mhi ? Integer.toString(mlo) : "[" + mlo + ", " + mhi + "]";
                out.printf("  %-4s %-12s %s%n", game.moveName(um), val, "(" + how + ")");
            }
            first = false;
        }
        if (json) stdout.println(js.append("]}"));
        return CommandSupport.EXIT_OK;
    }
}
