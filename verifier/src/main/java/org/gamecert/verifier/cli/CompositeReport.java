package org.gamecert.verifier.cli;

import java.io.PrintStream;
import java.util.Locale;
import org.gamecert.verifier.engine.CompositeVerifier;
import org.gamecert.verifier.kernel.Composition;
import org.gamecert.verifier.kernel.Kinds;
import org.gamecert.verifier.kernel.PartConclusion;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.Violation;
import org.gamecert.verifier.kernel.format.Manifest;

/**
 * Human and JSON renderings of a composite's check (SPEC §15). As for one certificate, every line
 * says no more than was checked: the composite id and "proven" only on verified; a claim otherwise.
 */
final class CompositeReport {
    private CompositeReport() {}

    /** How many parts the human report lists (the others are counted). */
    static final int PARTS_LISTED = 20;
    /** How many still-open entries the JSON lists (all are counted). */
    static final int STILL_OPEN_LISTED = 100;

    /** A part whose header gives the game: part 0 when given, else the first part given. */
    private static PartConclusion gameOf(CompositeVerifier.Outcome c) {
        for (int i = 0; c.composition != null && i < c.parts.size(); i++)
            if (c.composition.part(i) != null) return c.composition.part(i);
        return null;
    }

    /**
     * The composite's mode as the first part gives it, saying so when some certificate in it is
     * of mode 5: those prove optimal, not canonical, moves at A' entries (SPEC §12).
     */
    private static String modeOf(CompositeVerifier.Outcome c, PartConclusion g) {
        for (int i = 0; c.composition != null && i < c.parts.size(); i++) {
            PartConclusion p = c.composition.part(i);
            if (p != null && p.baseMode == 5 && g.baseMode != 5)
                return PositionText.mode(g.baseMode) + ", with mode-5 certificates: "
                        + PositionText.MODE_5;
        }
        return PositionText.mode(g.baseMode);
    }

    /** Part 0 as composition took it, or null (not given, rejected, or no composition). */
    private static PartConclusion rootPart(CompositeVerifier.Outcome c) {
        return c.composition == null || c.parts.isEmpty() ? null : c.composition.part(0);
    }

    private static String position(PartConclusion g, long mover, long opp) {
        if (g == null) return String.format("key occ %016x mover %016x", mover | opp, mover);
        return PositionText.text(g.family, g.width, g.height, mover, opp);
    }

    private static String symmetry(PartConclusion g) {
        return g.symmetry == 0 ? "no symmetry" : g.symmetry == 1 ? "dihedral-8 symmetry" : "mirror symmetry";
    }

    static void human(CompositeVerifier.Outcome c, String path, PrintStream out) {
        Result.Verdict verdict = c.verdict();
        boolean verified = verdict == Result.Verdict.VERIFIED;
        Composition.Outcome k = c.composition;
        Manifest m = c.manifest;
        PartConclusion g = gameOf(c);
        PartConclusion root = rootPart(c);
        out.println("gamecert verifier (SPEC v1): composite " + path);
        if (m != null) out.printf("manifest    %s: %,d parts, %,d links%n", c.manifestPath, m.partCount(), m.linkCount());
        if (g != null) out.printf("game        %s, %s, %s%n", PositionText.game(g.family, g.width, g.height), modeOf(c, g), symmetry(g));
        if (root != null) {
            out.printf("root        %s (%s)%n", position(g, root.rootMover, root.rootOpponent),
                    initial(root) ? "the game's initial position" : "not the game's initial position");
            out.printf("claim       %s at the root (part 0's)%n", PositionText.claim(root.claimKinds, root.claimLo, root.claimHi));
        }
        out.println("verdict     " + verdict.name());
        if (c.error != null) out.println("error       " + c.error);
        if (verified) {
            // "solved" only for a value: a bound claim proves that bound, no more (SPEC §12).
            String value = PositionText.provenValue(root.claimKinds, root.claimLo, root.claimHi);
            out.printf("proven      %s at the root%s%n", PositionText.claim(root.claimKinds, root.claimLo, root.claimHi),
                    !initial(root) ? ": " + value + " (of this root only, not of the game from its start)"
                            : solved(root) ? ": the game is solved from the start"
                            : ": " + value + " at the game's initial position (not solved: a bound, not the value)");
            out.println("            every part verified, every open entry discharged by a part whose claim implies it, no cycle (SPEC §15.3)");
            out.println("composite   " + k.compositeId);
            if (k.partsTakenAsGiven)
                out.println("            the parts were checked in other JVMs and their conclusions taken as given"
                        + " (a cluster: the check there detects faults; SPEC §11.1)");
        }
        if (m != null && !c.parts.isEmpty()) {
            int checked = 0, notGiven = 0, rejected = 0, open = 0;
            for (CompositeVerifier.PartReport p : c.parts) {
                if (p.status.equals("not given")) notGiven++;
                else if (p.status.equals("rejected")) rejected++;
                else checked++;
                if (p.status.equals("incomplete")) open++;
            }
            out.printf("parts       %,d checked (%,d of them with open entries), %,d not given, %,d rejected%n", checked, open, notGiven, rejected);
            int listed = 0;
            for (CompositeVerifier.PartReport p : c.parts) {
                boolean notable = !p.status.equals("verified") && !p.status.equals("incomplete");
                if (listed >= PARTS_LISTED && !(notable && listed < 2 * PARTS_LISTED)) continue;
                listed++;
                out.printf("  part %-4d %s.gsc  %s%s%n", p.index, p.commitment.substring(7, 23) + "…", p.status, partDetail(g, p));
            }
            if (listed < c.parts.size()) out.printf("  ... %,d parts more%n", c.parts.size() - listed);
        }
        if (k != null && verdict == Result.Verdict.INCOMPLETE) {
            out.printf("still open  %,d open entries wait for parts not given:%n", k.stillOpenCount());
            for (int i = 0; i < Math.min(Report.OPEN_LISTED * 2, k.stillOpenCount()); i++) {
                int j = k.stillOpenLink(i);
                out.printf("            part %d's %s -> part %d%n", m.linkParent(j),
                        position(g, m.linkMover(j), m.linkOcc(j) & ~m.linkMover(j)), m.linkPart(j));
            }
            if (k.stillOpenCount() > Report.OPEN_LISTED * 2) out.printf("            ... and %,d more%n", k.stillOpenCount() - Report.OPEN_LISTED * 2);
        }
        if (c.census.length > 0) {
            boolean terms = g != null && g.family != 1;
            out.println("census      summed over the parts checked (SPEC §15.4)" + (verified ? "" : ": a count only, the composite is not verified"));
            out.println("            discs       region    auxiliary" + (terms ? "  proof-terminals" : "") + (c.union != null ? "  region-union" : ""));
            for (int r = 0; r < c.census.length; r++) {
                long[] row = c.census[r];
                if (row[1] == 0 && row[2] == 0 && row[3] == 0) continue;
                out.printf("            %5d %12d %12d%s%s%n", row[0], row[1], row[2], terms ? String.format(" %16d", row[3]) : "",
                        c.union != null ? String.format(" %13d", c.union[r]) : "");
            }
            if (c.union == null && c.unionNote != null) out.println("            union of the parts' regions " + c.unionNote);
        }
        out.printf("time        %.2f s%n", c.nanos / 1e9);
        if (k != null && k.violation != null) {
            Violation v = k.violation;
            out.println();
            out.println("first violation: " + Rules.withStatement(v.rule()));
            if (k.violationPart >= 0) out.println("  part      " + k.violationPart + " (" + c.parts.get(k.violationPart).commitment + ")");
            if (v.hasPosition()) out.println("  position  " + position(g, v.mover(), v.opponent()));
            out.println("  " + v.message());
            if (k.partViolation != null) {
                Violation w = k.partViolation;
                out.println("  the part's first violation: " + Rules.withStatement(w.rule()) + (w.block() >= 0 ? " block " + w.block() : "")
                        + (w.layer() >= 0 ? " layer " + w.layer() : "") + (w.entry() >= 0 ? " entry " + w.entry() : ""));
                if (w.hasPosition()) out.println("    position  " + position(g, w.mover(), w.opponent()));
                out.println("    " + w.message());
            }
        }
    }

    /** The root's value is the claim's (exact, or lo = hi) and the root is the game's start. */
    private static boolean solved(PartConclusion root) {
        return initial(root) && PositionText.exactClaim(root.claimKinds, root.claimLo, root.claimHi);
    }

    private static boolean initial(PartConclusion p) {
        return PositionText.isInitialPosition(p.family, p.width, p.rootMover, p.rootOpponent);
    }

    private static String partDetail(PartConclusion g, CompositeVerifier.PartReport p) {
        if (p.note != null) return ": " + p.note;
        Result r = p.result;
        if (r == null) return "";
        if (r.conclusion == null) {
            Violation v = r.firstViolation();
            return v == null ? "" : ": " + v.rule() + " " + v.message();
        }
        PartConclusion c = r.conclusion;
        return String.format(": root %s, %s, %,d open entries, %,d entries", position(g, c.rootMover, c.rootOpponent),
                PositionText.claim(c.claimKinds, c.claimLo, c.claimHi), c.openCount(), c.entries);
    }

    static String json(CompositeVerifier.Outcome c, String input) {
        Result.Verdict verdict = c.verdict();
        Composition.Outcome k = c.composition;
        Manifest m = c.manifest;
        PartConclusion g = gameOf(c);
        PartConclusion root = rootPart(c);
        Json j = new Json().open(null, '{');
        j.raw(JsonHead.of(input, "composite", verdict.name().toLowerCase(Locale.ROOT), VerifyMain.exitCode(verdict)));
        j.put("composite", k == null ? null : k.compositeId); // only when verified
        j.put("parts_taken_as_given", k != null && k.partsTakenAsGiven);
        j.put("manifest", c.manifestPath == null ? null : c.manifestPath.toString());
        if (m != null) {
            j.put("part_count", m.partCount());
            j.put("link_count", m.linkCount());
        }
        if (g != null) {
            j.put("game", PositionText.game(g.family, g.width, g.height));
            j.put("mode", modeOf(c, g));
        }
        if (root != null) {
            j.put("root", position(g, root.rootMover, root.rootOpponent));
            j.put("root_is_initial_position", initial(root));
            j.put("claim", PositionText.claim(root.claimKinds, root.claimLo, root.claimHi));
            j.put("claim_kinds", Kinds.kindName(root.claimKinds));
            j.put("claim_lo", root.claimLo);
            j.put("claim_hi", root.claimHi);
        }
        j.put("claim_proven", verdict == Result.Verdict.VERIFIED);
        j.put("solved_from_start", verdict == Result.Verdict.VERIFIED && root != null && solved(root));
        if (c.error != null) j.put("error", c.error);
        if (k != null && k.violation != null) {
            Violation v = k.violation;
            j.open("violation", '{').put("rule", v.rule()).put("statement", Rules.statement(v.rule())).put("message", v.message());
            j.putCount("part", k.violationPart);
            j.put("position", v.hasPosition() ? position(g, v.mover(), v.opponent()) : null);
            if (k.partViolation != null) violation(j.open("part_violation", '{'), g, k.partViolation).close('}');
            j.close('}');
        }
        j.open("parts", '[');
        for (CompositeVerifier.PartReport p : c.parts) {
            j.open(null, '{').put("index", p.index).put("commitment", p.commitment).put("file", p.file.toString());
            j.put("verdict", p.status);
            j.put("note", p.note);
            PartConclusion pc = p.result == null ? null : p.result.conclusion;
            if (pc != null && p.note == null) {
                j.put("root", position(g, pc.rootMover, pc.rootOpponent));
                j.put("claim", PositionText.claim(pc.claimKinds, pc.claimLo, pc.claimHi));
                j.putCount("open_entries", pc.openCount());
                j.put("entries", pc.entries);
            } else if (p.result != null && p.result.firstViolation() != null) {
                violation(j.open("violation", '{'), g, p.result.firstViolation()).close('}');
            }
            j.close('}');
        }
        j.close(']');
        if (k != null && m != null) {
            j.put("still_open_count", k.stillOpenCount());
            j.open("still_open", '['); // the first STILL_OPEN_LISTED
            for (int i = 0; i < Math.min(STILL_OPEN_LISTED, k.stillOpenCount()); i++) {
                int l = k.stillOpenLink(i);
                j.open(null, '{').put("parent", m.linkParent(l)).put("position", position(g, m.linkMover(l), m.linkOcc(l) & ~m.linkMover(l)))
                        .put("part", m.linkPart(l)).close('}');
            }
            j.close(']');
        }
        j.open("census", '[');
        for (int r = 0; r < c.census.length; r++) {
            long[] row = c.census[r];
            j.open(null, '{').put("discs", row[0]).put("region", row[1]).put("auxiliary", row[2]);
            if (g != null && g.family != 1) j.put("proof_terminals", row[3]);
            if (c.union != null) j.put("region_union", c.union[r]);
            j.close('}');
        }
        j.close(']');
        j.put("union_counted", c.union != null);
        j.put("seconds", c.nanos / 1e9);
        return j.close('}').toString();
    }

    private static Json violation(Json j, PartConclusion g, Violation v) {
        j.put("rule", v.rule());
        j.put("statement", Rules.statement(v.rule()));
        j.putCount("block", v.block());
        j.putCount("layer", v.layer());
        j.putCount("entry", v.entry());
        j.put("position", v.hasPosition() ? position(g, v.mover(), v.opponent()) : null);
        j.put("message", v.message());
        return j;
    }
}
