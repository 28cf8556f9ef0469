package org.gamecert.verifier.peer;

import java.io.PrintStream;
import java.util.Locale;

/** Prints a {@link PeerResult} as human text or as one JSON object (field names as the main verifier's). */
public final class PeerReport {
    private PeerReport() {}

    public static void printText(PeerResult r, PrintStream out) {
        show(out, "input:    " + r.input + (r.inputKind == null ? "" : " (" + r.inputKind + ")"));
        if (r.sumsNote != null) show(out, "          " + r.sumsNote);
        show(out, "game:     othello:6x6, peer semi-strong tablebase format (Zenodo 18843225)");
        if (!r.tables.isEmpty()) {
            show(out, String.format(Locale.ROOT, "records:  %,d in %d table(s) (%d..%d discs)%s", r.entries(), r.tables.size(),
                    r.tables.get(0).discs, r.tables.get(r.tables.size() - 1).discs,
                    r.skippedTables.isEmpty() ? "" : ", tables " + r.skippedTables + " verified before (--state)"));
            show(out, "census:   discs  region (PV/ALL'/PV')  auxiliary (CUT/ALL only)");
            for (TableResult t : r.tables) show(out, String.format(Locale.ROOT, "          %5d  %,20d  %,24d", t.discs, t.region, t.auxiliary));
        }
        if (r.rootCount > 0 || !r.roots.isEmpty()) {
            show(out, "roots:    " + r.rootCount + (r.rootCount > r.roots.size() ? " (first " + r.roots.size() + " shown)" : ""));
            // A record's bounds are its claim; only what the kernel proved is printed as proven.
            for (PeerResult.Root root : r.roots) {
                show(out, "          " + root.position + "  " + (!root.found ? "no record"
                        : "record " + root.kind + " [" + root.lower + ", " + root.upper + "]; " + proven(r, root)));
            }
        }
        if (r.frontierRecords() > 0) {
            show(out, String.format(Locale.ROOT, "frontier: %,d records left open, %,d children in tables not given", r.frontierRecords(), r.frontierChildren()));
        }
        if (r.rootOpen != null) show(out, "open:     " + r.rootOpen);
        if (!r.unread.isEmpty())
            show(out, "not read: " + r.unread.size() + " file(s) in the input that are not tables of this format, so nothing in them "
                    + "was checked: " + String.join(", ", r.unread.subList(0, Math.min(20, r.unread.size())))
                    + (r.unread.size() > 20 ? ", …" : ""));
        for (String note : r.notes) show(out, "note:     " + note);
        if (r.violation != null) {
            PeerViolation v = r.violation;
            show(out, "violation: " + org.gamecert.verifier.cli.Rules.withStatement(v.rule) + (v.layer >= 0 ? " in table " + v.layer : "") + (v.entry >= 0 ? ", record " + v.entry : ""));
            if (v.position != null) show(out, "          position " + v.position);
            show(out, "          " + v.message);
        }
        if (r.error != null) show(out, "error:    " + r.error);
        show(out, "verdict:  " + r.verdict().text());
    }

    /** One line of the text report: the input's file names are in it (TerminalText). */
    private static void show(PrintStream out, String line) {
        out.println(org.gamecert.verifier.cli.TerminalText.printable(line));
    }

    private static String proven(PeerResult r, PeerResult.Root root) {
        if (root.valueProven()) return "proven value " + root.provenLower;
        if (root.boundsProven()) return "proven only " + root.provenLower + " <= value <= " + root.provenUpper + " (PEER-ROOT-4)";
        if (r.verdict() == PeerResult.Verdict.REJECTED) return "nothing proven: a rule is broken";
        if (r.frontierRecords() > 0) return "nothing proven: records it rests on are left open";
        return "nothing proven";
    }

    public static String json(PeerResult r) {
        StringBuilder sb = new StringBuilder(1024);
        sb.append('{');
        sb.append(org.gamecert.verifier.cli.JsonHead.of(r.input, "peer", r.verdict().text(), r.exitCode())).append(',');
        field(sb, "game", "othello:6x6").append(',');
        field(sb, "mode", "semi-strong").append(',');
        field(sb, "format", "peer-6x6").append(',');
        field(sb, "input_kind", r.inputKind).append(',');
        sb.append("\"root_value\":").append(r.rootValue == null ? "null" : r.rootValue.toString()).append(','); // proven only
        field(sb, "root_open", r.rootOpen).append(',');
        sb.append("\"unread\":[");
        for (int i = 0; i < r.unread.size(); i++) {
            if (i > 0) sb.append(',');
            field(sb, null, r.unread.get(i));
        }
        sb.append("],");
        sb.append("\"commitment\":null,");
        sb.append("\"entries\":").append(r.entries()).append(',');
        sb.append("\"region\":").append(r.region()).append(',');
        sb.append("\"census\":[");
        for (int i = 0; i < r.tables.size(); i++) {
            TableResult t = r.tables.get(i);
            if (i > 0) sb.append(',');
            sb.append("{\"discs\":").append(t.discs).append(",\"region\":").append(t.region).append(",\"auxiliary\":").append(t.auxiliary).append('}');
        }
        sb.append("],\"frontier\":{\"records\":").append(r.frontierRecords()).append(",\"children\":").append(r.frontierChildren()).append("},");
        sb.append("\"roots\":{\"count\":").append(r.rootCount).append(",\"shown\":[");
        for (int i = 0; i < r.roots.size(); i++) {
            PeerResult.Root root = r.roots.get(i);
            if (i > 0) sb.append(',');
            sb.append('{');
            field(sb, "position", root.position).append(',');
            sb.append("\"discs\":").append(root.discs).append(',');
            field(sb, "kind", root.found ? root.kind : null).append(',');
            sb.append("\"lower\":").append(root.found ? Integer.toString(root.lower) : "null").append(',');
            sb.append("\"upper\":").append(root.found ? Integer.toString(root.upper) : "null").append(',');
            // proven_* only what the kernel proved: null while nothing is (open records, a rejection)
            sb.append("\"proven_lower\":").append(root.boundsProven() ? Integer.toString(root.provenLower) : "null").append(',');
            sb.append("\"proven_upper\":").append(root.boundsProven() ? Integer.toString(root.provenUpper) : "null").append(',');
            sb.append("\"bounds_proven\":").append(root.boundsProven()).append(',');
            sb.append("\"value_proven\":").append(root.valueProven()).append('}');
        }
        sb.append("]},\"tables\":[");
        for (int i = 0; i < r.tables.size(); i++) {
            TableResult t = r.tables.get(i);
            if (i > 0) sb.append(',');
            sb.append("{\"discs\":").append(t.discs).append(",\"records\":").append(t.records).append(",\"passes\":").append(t.passes)
                    .append(",\"child_records\":").append(t.childRecords).append(",\"seconds\":").append(seconds(t.seconds))
                    .append(",\"frontier_records\":").append(t.frontierRecords).append('}');
        }
        sb.append("],\"skipped_tables\":").append(r.skippedTables).append(',');
        sb.append("\"sha256sums_checked\":").append(r.sumsChecked).append(',');
        sb.append("\"peak_heap_bytes\":").append(r.peakHeapBytes).append(',');
        sb.append("\"temp_bytes_peak\":").append(r.tempBytesPeak).append(',');
        sb.append("\"seconds\":").append(seconds(r.seconds)).append(',');
        sb.append("\"tb_canonicality_checked\":false,");
        sb.append("\"violation\":");
        if (r.violation == null) sb.append("null");
        else {
            PeerViolation v = r.violation;
            sb.append('{');
            field(sb, "rule", v.rule).append(',');
            field(sb, "statement", org.gamecert.verifier.cli.Rules.statement(v.rule)).append(',');
            sb.append("\"block\":null,");
            sb.append("\"layer\":").append(v.layer < 0 ? "null" : Integer.toString(v.layer)).append(',');
            sb.append("\"entry\":").append(v.entry < 0 ? "null" : Long.toString(v.entry)).append(',');
            field(sb, "position", v.position).append(',');
            field(sb, "message", v.message).append('}');
        }
        sb.append(',');
        field(sb, "error", r.error);
        sb.append('}');
        return sb.toString();
    }

    /** A time as a JSON number; null if not finite (NaN or Infinity would not be JSON). */
    private static String seconds(double s) {
        return Double.isFinite(s) ? String.format(Locale.ROOT, "%.3f", s) : "null";
    }

    private static StringBuilder field(StringBuilder sb, String name, String value) {
        if (name != null) sb.append('"').append(name).append("\":"); // null: an array element
        if (value == null) return sb.append("null");
        sb.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') sb.append('\\').append(c);
            else if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
            else sb.append(c);
        }
        return sb.append('"');
    }
}
