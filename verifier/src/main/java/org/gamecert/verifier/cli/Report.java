package org.gamecert.verifier.cli;

import java.io.PrintStream;
import java.util.Map;
import org.gamecert.verifier.engine.Figures;
import org.gamecert.verifier.kernel.PartConclusion;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.Violation;
import org.gamecert.verifier.kernel.format.Header;
import org.gamecert.verifier.kernel.format.Payload;

/** Human and JSON renderings of a {@link Result}. */
final class Report {
    private Report() {}

    static String verdictName(Result.Verdict v) {
        return v.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The root's move when verification established it as the canonical move (a P entry: R-TB-1), else null. */
    static String canonicalRootMove(Result r) {
        return r.verdict == Result.Verdict.VERIFIED && r.rootMove >= 0 && (r.rootKind & Payload.P) != 0 ? PositionText.moveName(r, r.rootMove) : null;
    }

    /**
     * A verified weak root's cut move (a C entry: R-CUT-1 with the root's bounds equal to its value,
     * R-ROOT-3, so it achieves the value), else null. Not checked to be the canonical move.
     */
    static String cutRootMove(Result r) {
        return r.verdict == Result.Verdict.VERIFIED && r.rootMove >= 0 && (r.rootKind & Payload.P) == 0 && (r.rootKind & Payload.C) != 0
                ? PositionText.moveName(r, r.rootMove) : null;
    }

    /**
     * Every line says no more than was checked: "proven", "canonical" and "certified" only on
     * verified, and only for what the certificate's mode proves (SPEC §12); the header's value
     * otherwise is a claim.
     */
    static void human(Result r, Figures f, String path, int threads, PrintStream out) {
        boolean verified = r.verdict == Result.Verdict.VERIFIED;
        out.println("gamecert verifier (SPEC v1): " + path);
        if (r.header != null) {
            String sym = r.header.symmetry == 0 ? "no symmetry" : r.header.symmetry == 1 ? "dihedral-8 symmetry" : "mirror symmetry";
            out.printf("game        %s, %s%s, %s%n", PositionText.game(r), PositionText.mode(r),
                    r.header.leafEmpties > 0 ? " (positions with at most " + r.header.leafEmpties
                            + " empty cells are leaves the verifier searches, SPEC §9.1)" : "", sym);
            out.printf("root        %s (%s)%n", PositionText.text(r, r.header.rootMover, r.header.rootOpponent),
                    PositionText.isInitialPosition(r) ? "the game's initial position" : "not the game's initial position");
            if (r.header.part)
                out.printf("claim       part: %s at the root%n", PositionText.claim(r.header.rootKinds, r.header.rootValue, r.header.rootUpper));
            else
                out.printf("claim       root value %+d%n", r.header.rootValue);
        }
        out.println("verdict     " + verdictName(r.verdict).toUpperCase(java.util.Locale.ROOT));
        if (r.verdict == Result.Verdict.ERROR) out.println("error       " + r.errorMessage);
        if (r.conclusion != null && r.header.part) partLines(r, out);
        if (verified && r.header != null && r.header.part) {
            int kinds = r.header.rootKinds, lo = r.header.rootValue, hi = r.header.rootUpper;
            out.printf("proven      part: %s at the root, %s (%s)%n", PositionText.claim(kinds, lo, hi), PositionText.provenValue(kinds, lo, hi),
                    PositionText.isInitialPosition(r) ? "the game's initial position" : "this root only, not the game from its start");
        } else if (verified && r.header != null) {
            out.printf("proven      root value %+d%s%n", r.header.rootValue,
                    PositionText.isInitialPosition(r) ? ": the game is solved from the start" : " (of this root only, not of the game from its start)");
            String canonical = canonicalRootMove(r), cut = cutRootMove(r);
            if (canonical != null) out.println("root move   " + canonical + ", the canonical move (the earliest optimal move in the header's tie-breaking order)");
            if (cut != null) out.println("root move   " + cut + " achieves the value (a cut move; weak mode does not check that it is the canonical move)");
        }
        if (r.commitment != null) out.println("commitment  " + r.commitment);
        out.printf("entries     %,d in %,d blocks%s%n", r.entries, r.blocks, verified ? ", all checked" : " read");
        if (r.region >= 0) {
            if (!verified)
                out.printf("region      %,d positions counted (a count only: the certificate is not verified); %,d unreached entries%n", r.region, r.unreached);
            else if (!r.header.semiStrong)
                out.printf("region      none: a weak certificate proves the root's value and the bounds it stores, no region (SPEC §12); %,d unreached entries%n", r.unreached);
            else if (r.header.baseMode == Header.SEMI_STRONG_OPTIMAL) // SPEC §12, mode 5
                out.printf("region      %,d positions certified with their exact value and an optimal move (the canonical move at P"
                        + " and P' entries; at A' entries not proven the earliest in TB order, SPEC §12) (R of SPEC §10.1, counted by"
                        + " §10.3); %,d unreached entries%n", r.region, r.unreached);
            else
                out.printf("region      %,d positions certified with their exact value and canonical move (R of SPEC §10.1, counted by §10.3); %,d unreached entries%n",
                        r.region, r.unreached);
            // Connect Four: also the terminal positions only the proof reaches (SPEC §10.3), so that
            // region + auxiliary + these compare with the semi-strong paper's tables.
            boolean c4 = r.header.family != Header.OTHELLO; // Connect Four and NoGo
            out.println("census      discs       region    auxiliary" + (c4 ? "  proof-terminals" : ""));
            long terms = 0;
            for (long[] row : r.census) {
                terms += row[3];
                if (row[1] != 0 || row[2] != 0 || row[3] != 0)
                    out.printf("            %5d %12d %12d%s%n", row[0], row[1], row[2], c4 ? String.format(" %16d", row[3]) : "");
            }
            if (c4) out.printf("            %,d terminal positions outside the region reached by the proof%n", terms);
        }
        double s = f.nanos / 1e9;
        if (r.entries > 0) // figures only when there are figures: an unreadable file has none
            out.printf("throughput  %.2f s, %,.0f entries/s with %d thread%s%s%n", s, s > 0 ? r.entries / s : 0.0, threads,
                    threads == 1 ? "" : "s", f.peakTableBytes == 0 ? "" // an engine without tables (Spark's) has no figure here
                            : String.format("; tables peak %,d bytes (%d bytes per entry held)", f.peakTableBytes, f.bytesPerEntryHeld));
        if (f.splitLayers > 0)
            out.printf("memory      %d layer%s too big for --max-memory, looked up in up to %d segments%n",
                    f.splitLayers, f.splitLayers == 1 ? " was" : "s were", f.maxSegments);
        Violation v = r.firstViolation();
        if (v != null) {
            out.println();
            out.println("first violation: " + Rules.withStatement(v.rule()));
            if (v.block() >= 0) out.println("  block     " + v.block());
            if (v.layer() >= 0) out.println("  layer     " + v.layer() + " discs");
            if (v.entry() >= 0) out.println("  entry     " + v.entry() + " (index within its layer)");
            if (v.hasPosition()) {
                out.println("  position  " + PositionText.text(r, v.mover(), v.opponent()));
                out.print(PositionText.diagram(r, v.mover(), v.opponent(), "            "));
            }
            out.println("  " + v.message());
            if (r.violations.size() > 1 || r.violationCounts.size() > 1) {
                out.println();
                out.println("violations by rule (up to the cap listed per rule):");
                for (Map.Entry<String, Long> e : r.violationCounts.entrySet()) {
                    out.printf("  %-11s %,d%n", e.getKey(), e.getValue());
                    for (Violation w : r.violations)
                        if (w.rule().equals(e.getKey())) out.println("      " + w);
                }
            }
        }
    }

    /** A part checked on its own (SPEC §15.1): its open entries, and its id to name it in a manifest. */
    private static void partLines(Result r, PrintStream out) {
        PartConclusion c = r.conclusion;
        if (c.openCount() == 0) return;
        out.printf("open        %,d open entries: claims this part takes from other parts (SPEC §15); checked with them in a composite%n", c.openCount());
        int listed = Math.min(OPEN_LISTED, c.openKept()); // alone, every open entry is kept
        for (int i = 0; i < listed; i++)
            out.printf("            %s  %s%n", PositionText.text(r, c.openMover(i), c.openOcc(i) & ~c.openMover(i)),
                    PositionText.claim(c.openKind(i), c.openLo(i), c.openHi(i)));
        if (c.openCount() > listed) out.printf("            ... and %,d more%n", c.openCount() - listed);
        out.println("part id     " + c.commitmentId() + " (names this part in a manifest; not the id of a proven certificate: its open entries are not proven here)");
    }

    /** How many open entries a report lists. */
    static final int OPEN_LISTED = 5;

    static String json(Result r, Figures f, String input) {
        Json j = new Json().open(null, '{');
        j.raw(JsonHead.of(input, "certificate", verdictName(r.verdict), VerifyMain.exitCode(r.verdict)));
        j.put("game", PositionText.game(r));
        j.put("mode", PositionText.mode(r));
        if (r.header != null && r.header.leafEmpties > 0) j.put("leaf_empties", r.header.leafEmpties);
        if (r.header != null) {
            j.put("root", PositionText.text(r, r.header.rootMover, r.header.rootOpponent));
            j.put("root_is_initial_position", PositionText.isInitialPosition(r));
            // The header's claim; proven only when verified. A part claiming a bound has no value
            // to give: its claim_kinds, claim_lo, claim_hi say what it proves (SPEC §12, §15.1).
            if (!r.header.part || PositionText.exactClaim(r.header.rootKinds, r.header.rootValue, r.header.rootUpper)) {
                j.put("root_value", r.header.rootValue);
                j.put("root_value_proven", r.verdict == Result.Verdict.VERIFIED);
            }
            j.put("root_move", canonicalRootMove(r)); // the canonical move, only when established (P)
            j.put("root_cut_move", cutRootMove(r));   // weak: a move proven to achieve the value, not checked canonical
        }
        j.put("commitment", r.commitment);
        if (r.header != null && r.header.part) {
            j.put("part", true);
            j.put("claim", PositionText.claim(r.header.rootKinds, r.header.rootValue, r.header.rootUpper));
            j.put("claim_kinds", org.gamecert.verifier.kernel.Kinds.kindName(r.header.rootKinds));
            j.put("claim_lo", r.header.rootValue);
            j.put("claim_hi", r.header.rootUpper);
            j.put("claim_proven", r.verdict == Result.Verdict.VERIFIED);
        }
        if (r.conclusion != null && r.header.part) {
            j.put("part_commitment", r.conclusion.commitmentId()); // names it in a manifest; proven only when verified
            j.putCount("open_entries", r.conclusion.openCount());
            openEntries(j, r.header, r.conclusion, OPEN_LISTED);
        }
        j.putCount("entries", r.entries);
        j.putCount("blocks", r.blocks);
        j.putCount("region", r.region); // null: not counted (nothing read)
        j.put("region_proven", r.verdict == Result.Verdict.VERIFIED && r.header != null && r.header.semiStrong);
        j.putCount("unreached", r.unreached);
        j.open("census", '[');
        for (long[] row : r.census)
        {
            j.open(null, '{').put("discs", row[0]).put("region", row[1]).put("auxiliary", row[2]);
            if (r.header != null && r.header.family != Header.OTHELLO) j.put("proof_terminals", row[3]);
            j.close('}');
        }
        j.close(']');
        if (r.errorMessage != null) j.put("error", r.errorMessage);
        Violation v = r.firstViolation();
        if (v != null) {
            violation(j.open("violation", '{'), r, v).close('}');
            j.open("violation_counts", '{');
            for (Map.Entry<String, Long> e : r.violationCounts.entrySet()) j.put(e.getKey(), e.getValue());
            j.close('}');
            j.open("violations", '[');
            for (Violation w : r.violations) violation(j.open(null, '{'), r, w).close('}');
            j.close(']');
        }
        double s = f.nanos / 1e9;
        j.put("seconds", s);
        j.put("entries_per_second", s > 0 ? r.entries / s : 0.0);
        // null where the engine kept no table (Spark's, mode 4's), as the text prints none
        j.putCount("peak_table_bytes", f.peakTableBytes > 0 ? f.peakTableBytes : -1);
        j.putCount("bytes_per_entry_held", f.peakTableBytes > 0 ? f.bytesPerEntryHeld : -1);
        j.put("split_layers", f.splitLayers);
        j.put("max_segments", f.maxSegments);
        return j.close('}').toString();
    }

    /** The first open entries of a part: position, kinds, bounds. */
    static void openEntries(Json j, Header h, PartConclusion c, int max) {
        j.open("open", '[');
        for (int i = 0; i < Math.min(max, c.openKept()); i++)
            j.open(null, '{').put("position", PositionText.text(h, c.openMover(i), c.openOcc(i) & ~c.openMover(i)))
                    .put("claim", PositionText.claim(c.openKind(i), c.openLo(i), c.openHi(i))).close('}');
        j.close(']');
    }

    private static Json violation(Json j, Result r, Violation v) {
        j.put("rule", v.rule());
        j.put("statement", Rules.statement(v.rule()));
        j.putCount("block", v.block());
        j.putCount("layer", v.layer());
        j.putCount("entry", v.entry());
        j.put("position", v.hasPosition() ? PositionText.text(r, v.mover(), v.opponent()) : null);
        j.put("message", v.message());
        return j;
    }
}
