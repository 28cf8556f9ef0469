package org.gamecert.verifier.bundle;

import java.util.List;
import java.util.Locale;

/**
 * The derived files of a release bundle: census JSON, census.svg, CITATION.cff, README.md. One
 * deterministic renderer, used by the producer's release command to write them and by the
 * verifier to re-render them from what it verified (the certificates) and from bag-info.txt, and
 * to require byte equality: a bundle's VERIFIED then vouches for every statement in them.
 * Outside the trusted core: it renders text; the numbers come from the core's results.
 */
public final class BundleTexts {
    private BundleTexts() {}

    /**
     * What the derived files say about one certificate. Census rows are the verifier's: {discs,
     * region, aux, term}, term being the terminal positions outside R that the proof reaches,
     * counted and shown for Connect Four only (SPEC §10.3). A weak-ranked certificate (mode 4,
     * SPEC §9.2: Lines of Action) has no census rows: see {@link #hasCensus()}.
     */
    public record Cert(String file, String game, String mode, int rootValue, String commitmentId, long entries, long[][] census) {
        public long regionTotal() { long t = 0; for (long[] r : census) t += r[1]; return t; }

        /**
         * The auxiliary entries: the census's total, or, for a certificate without census (weak-ranked),
         * every entry, since its entries are all {C}, {A} or {C, A} (R-KIND-2) and none is open.
         */
        public long auxTotal() {
            if (!hasCensus()) return entries;
            long t = 0;
            for (long[] r : census) t += r[2];
            return t;
        }

        /**
         * Whether the certificate has census rows (SPEC §10.3): every certificate but a weak-ranked
         * one (mode 4, §9.2), whose layers are ranks rather than disc counts and whose trailer holds
         * no rows (R-CENSUS-1); its region is empty, as for every weak certificate.
         */
        public boolean hasCensus() { return census.length > 0; }

        /** Connect Four: its census has the proof-only terminal column. */
        public boolean countsProofTerminals() { return game.startsWith("connect4:"); }

        public long proofTerminalTotal() { long t = 0; for (long[] r : census) t += r[3]; return t; }

        /** data/NAME.census.json for data/NAME.gsc. */
        public String censusJsonName() {
            String stem = file.endsWith(".gsc") ? file.substring(0, file.length() - 4) : file;
            return stem + ".census.json";
        }
    }

    /**
     * What the derived files say about one composite (SPEC §15) in data/NAME/: its manifest
     * data/NAME/composite.gscm, and every part data/NAME/HEX.gsc unless the parts are referenced by
     * commitment id only. Game, mode and claim are the root part's (part 0), as the kernel took
     * them; census rows are summed over the parts {discs, region, aux, term} (§15.4); union, per
     * row, the distinct positions of the parts' regions, or null when not shown (see
     * {@link #UNION_SHOWN_UP_TO}).
     */
    public record Composite(String name, String game, String mode, String claim, int rootValue, String compositeId, int parts,
                            boolean partsIncluded, long entries, long[][] census, long[] union) {
        public long regionTotal() { long t = 0; for (long[] r : census) t += r[1]; return t; }

        public long auxTotal() { long t = 0; for (long[] r : census) t += r[2]; return t; }

        public long unionTotal() { long t = 0; for (long u : union) t += u; return t; }

        public boolean countsProofTerminals() { return game.startsWith("connect4:"); }

        public long proofTerminalTotal() { long t = 0; for (long[] r : census) t += r[3]; return t; }

        /** data/NAME/composite.gscm */
        public String manifestPath() { return "data/" + name + "/composite.gscm"; }

        /** data/NAME.census.json */
        public String censusJsonName() { return name + ".census.json"; }

        /** The union as the texts show it: only when counted and the summed region is at most UNION_SHOWN_UP_TO. */
        public long[] shownUnion() { return union != null && union.length == census.length && regionTotal() <= UNION_SHOWN_UP_TO ? union : null; }
    }

    /**
     * The texts show a composite's union only when its parts' regions hold at most this many
     * positions summed: the verifier then counts it whatever its --threads (at most 256; each part
     * keeps its keys up to 2^26 / the parts checked at once), so that the producer's rendering
     * and the verifier's agree byte for byte. Larger composites show the summed census only.
     */
    public static final long UNION_SHOWN_UP_TO = (1L << 26) / 256;

    /**
     * What the derived files say about the release (bag-info.txt holds the same). Since 0.6.0 also
     * the pinned verifier's commit (Verifier-Commit: "HEX", "HEX modified" or "unknown"), the data's
     * licence (Data-License, an SPDX id) and the bundle's version (Bundle-Version); each is null
     * in a bundle made before, whose texts are then rendered as they were, byte for byte.
     */
    public record Meta(String title, List<String> authors, List<String> orcids, String date, String doi, String verifierVersion,
                       String verifierJarSha256, String fingerprint, String verifierCommit, String license, String version,
                       String repositoryCode) {
        /**
         * A bundle as made by 0.6.0: no Repository-Code (after 0.6.0, bag-info's Repository-Code
         * is where the code of the solve lives, CITATION.cff's repository-code; optional).
         */
        public Meta(String title, List<String> authors, List<String> orcids, String date, String doi, String verifierVersion,
                    String verifierJarSha256, String fingerprint, String verifierCommit, String license, String version) {
            this(title, authors, orcids, date, doi, verifierVersion, verifierJarSha256, fingerprint, verifierCommit, license, version, null);
        }

        /** A bundle as made before 0.6.0: no verifier commit, licence or version. */
        public Meta(String title, List<String> authors, List<String> orcids, String date, String doi, String verifierVersion,
                    String verifierJarSha256, String fingerprint) {
            this(title, authors, orcids, date, doi, verifierVersion, verifierJarSha256, fingerprint, null, null, null);
        }

        /** The commit of Verifier-Commit ("HEX" or "HEX modified"), or null when unknown or not recorded. */
        public String verifierCommitHex() {
            if (verifierCommit == null) return null;
            String c = verifierCommit.endsWith(" modified") ? verifierCommit.substring(0, verifierCommit.length() - 9) : verifierCommit;
            return org.gamecert.verifier.cli.BuildInfo.COMMIT.matcher(c).matches() ? c : null;
        }

        /** The pinned verifier was built from modified sources at its commit (a clean rebuild of that commit differs). */
        public boolean verifierModified() { return verifierCommit != null && verifierCommit.endsWith(" modified"); }
    }

    /** The software these texts cite (CITATION.cff's references): the toolchain whose verifier a bundle pins. */
    public static final String SOFTWARE_TITLE = "gamecert: proof certificates for solved games";
    public static final String SOFTWARE_AUTHOR = "gamecert developers";
    public static final String SOFTWARE_LICENSE = "Apache-2.0";

    /** A URL as CITATION.cff's repository-code takes it: http or https, no spaces or control characters. */
    public static boolean isRepositoryUrl(String url) {
        return url != null && url.matches("https?://[^\\s\\p{Cntrl}\"]{1,500}");
    }

    /** An SPDX licence identifier as CITATION.cff's license takes it (e.g. CC-BY-4.0, CC0-1.0). */
    public static boolean isLicenseId(String id) {
        return id != null && id.matches("[A-Za-z0-9][A-Za-z0-9.+-]{0,63}");
    }

    public static String censusJson(Cert c) {
        StringBuilder sb = new StringBuilder();
        sb.append("{\n  \"certificate\": \"data/").append(c.file()).append("\",\n  \"game\": \"").append(c.game())
                .append("\",\n  \"mode\": \"").append(c.mode()).append("\",\n  \"root_value\": ").append(c.rootValue())
                .append(",\n  \"commitment\": \"").append(c.commitmentId()).append("\",\n  \"entries\": ").append(c.entries())
                .append(",\n  \"region_total\": ").append(c.regionTotal()).append(",\n  \"aux_total\": ").append(c.auxTotal());
        if (c.countsProofTerminals()) sb.append(",\n  \"proof_terminals_total\": ").append(c.proofTerminalTotal());
        if (!c.hasCensus())
            return sb.append(",\n  \"census\": \"").append(NO_CENSUS).append("\",\n  \"rows\": []\n}\n").toString();
        sb.append(",\n  \"rows\": [");
        for (int i = 0; i < c.census().length; i++) {
            long[] r = c.census()[i];
            sb.append(i == 0 ? "\n" : ",\n").append("    {\"discs\": ").append(r[0]).append(", \"region\": ").append(r[1])
                    .append(", \"aux\": ").append(r[2]);
            if (c.countsProofTerminals()) sb.append(", \"proof_terminals\": ").append(r[3]);
            sb.append('}');
        }
        return sb.append("\n  ]\n}\n").toString();
    }

    /** What the texts say of a certificate without census rows (weak-ranked, SPEC §9.2). */
    static final String NO_CENSUS = "none: a weak-ranked certificate (SPEC 9.2) orders its entries by rank, not by disc count, "
            + "and has no census rows; its region is empty and every entry is auxiliary";

    /** A claim about a root (SPEC §15.1) as the texts write it, e.g. "P value +2", "C, A: value in [-1, +1]" (as the composite report). */
    public static String claim(int kinds, int lo, int hi) {
        String names = org.gamecert.verifier.kernel.Kinds.kindName(kinds);
        names = names.substring(1, names.length() - 1); // without the braces
        int exact = org.gamecert.verifier.kernel.format.Payload.P | org.gamecert.verifier.kernel.format.Payload.AP
                | org.gamecert.verifier.kernel.format.Payload.PP;
        if ((kinds & exact) != 0) return names + " value " + String.format(Locale.ROOT, "%+d", lo);
        if (kinds == org.gamecert.verifier.kernel.format.Payload.C) return names + ": value >= " + String.format(Locale.ROOT, "%+d", lo);
        if (kinds == org.gamecert.verifier.kernel.format.Payload.A) return names + ": value <= " + String.format(Locale.ROOT, "%+d", hi);
        if (lo == hi) return names + ": value " + String.format(Locale.ROOT, "%+d", lo);
        return names + ": value in [" + String.format(Locale.ROOT, "%+d", lo) + ", " + String.format(Locale.ROOT, "%+d", hi) + "]";
    }

    /** othello:WxH, connect4:WxH, nogo:1xN, from a header's family and size. */
    public static String game(int family, int width, int height) {
        if (family == 3) return "nogo:1x" + width;
        if (family == 4) return "loa:" + width + "x" + height;
        return (family == 1 ? "othello:" : "connect4:") + width + "x" + height;
    }

    /**
     * What the texts say about a composite the verifier verified (SPEC §15): its root part's game,
     * mode and claim, the composite id, the parts' summed census and union. Both `produce release`
     * and the bundle verifier make it here, from the verifier's own outcome.
     */
    public static Composite composite(String name, boolean partsIncluded, org.gamecert.verifier.engine.CompositeVerifier.Outcome o) {
        org.gamecert.verifier.kernel.PartConclusion root = o.composition.part(0);
        long entries = 0;
        for (int i = 0; i < o.parts.size(); i++) entries += o.composition.part(i).entries;
        return new Composite(name, game(root.family, root.width, root.height), root.baseMode == 1 ? "semi-strong" : root.baseMode == 5 ? BundleVerifier.MODE_5 : "weak",
                claim(root.claimKinds, root.claimLo, root.claimHi), root.claimLo, o.composition.compositeId, o.parts.size(), partsIncluded,
                entries, o.census, o.union);
    }

    public static String censusJson(Composite c) {
        long[] u = c.shownUnion();
        StringBuilder sb = new StringBuilder();
        sb.append("{\n  \"composite\": \"").append(c.manifestPath()).append("\",\n  \"composite_id\": \"").append(c.compositeId())
                .append("\",\n  \"game\": \"").append(c.game()).append("\",\n  \"mode\": \"").append(c.mode())
                .append("\",\n  \"claim\": \"").append(c.claim()).append("\",\n  \"root_value\": ").append(c.rootValue())
                .append(",\n  \"parts\": ").append(c.parts()).append(",\n  \"parts_in_bundle\": ").append(c.partsIncluded())
                .append(",\n  \"entries\": ").append(c.entries())
                .append(",\n  \"region_total\": ").append(c.regionTotal()).append(",\n  \"aux_total\": ").append(c.auxTotal());
        if (c.countsProofTerminals()) sb.append(",\n  \"proof_terminals_total\": ").append(c.proofTerminalTotal());
        sb.append(",\n  \"region_union_total\": ").append(u == null ? "null" : String.valueOf(c.unionTotal()));
        sb.append(",\n  \"rows\": [");
        for (int i = 0; i < c.census().length; i++) {
            long[] r = c.census()[i];
            sb.append(i == 0 ? "\n" : ",\n").append("    {\"discs\": ").append(r[0]).append(", \"region\": ").append(r[1])
                    .append(", \"aux\": ").append(r[2]);
            if (c.countsProofTerminals()) sb.append(", \"proof_terminals\": ").append(r[3]);
            if (u != null) sb.append(", \"region_union\": ").append(u[i]);
            sb.append('}');
        }
        return sb.append("\n  ]\n}\n").toString();
    }

    // ---- census.svg: one panel per certificate, bars per disc count, log scale ----
    //
    // Layout, top to bottom: the title; per panel its label (file, game, mode, root value), its
    // commitment id on a line of its own in a monospace font, the legend in a band of its own
    // (only the series with a non-zero total, flowed into rows), then the plot, its tick labels
    // and axis title. The canvas is as wide as the widest of these needs, each text's width taken
    // from an upper bound on its advance (AdvanceBound below), so no text runs off the canvas or
    // into another whatever the lengths of the counts, ids and names. Integers only (and
    // StrictMath for the bars' heights): the bytes are the same on every JVM.

    static final int PAD = 12, RIGHT = 16, LEFT = 78, BAR = 9, GAP = 6, PLOT_H = 200;
    static final int TITLE_SIZE = 14, LABEL_SIZE = 12, ID_SIZE = 10, TEXT_SIZE = 11;
    /** Vertical distances between baselines and bands (a font of size f reaches ~0.93 f above its baseline, ~0.24 f below). */
    private static final int TITLE_BASE = 22, FIRST_PANEL = 34, LABEL_BASE = 14, ID_STEP = 16, LEGEND_STEP = 18, LEGEND_ROW = 16,
            PLOT_BELOW = 20, SWATCH = 10, SWATCH_TEXT = 14, LEGEND_SPACING = 18, BETWEEN_PANELS = 18, BOTTOM = 12;

    /** One series of bars: its census column (1 region, 2 aux, 3 proof-only terminals), colour, legend, tooltip and total. */
    private record Series(int column, String colour, String legend, String tip, long total) {}

    /** One panel: its label, id line, rows {count, region, aux, term}, what the count counts, its series with a non-zero total. */
    private record Panel(String label, String id, long[][] rows, String unit, List<Series> series) {
        int slots() { return Math.max(1, series.size()); }

        int groupWidth() { return slots() * BAR + GAP; }

        int plotWidth() { return rows.length * groupWidth(); }

        String axisTitle() { return unit + " on the board"; }

        /** Every how many groups a tick label is drawn: one label's width (and some space) per label. */
        int labelStep() {
            int w = 0;
            for (long[] r : rows) w = Math.max(w, AdvanceBound.width(Long.toString(r[0]), TEXT_SIZE));
            return Math.max(1, (w + 6 + groupWidth() - 1) / groupWidth());
        }

        /** Centre of group i's tick label: under its bars. */
        int labelCentre(int i) { return LEFT + i * groupWidth() + slots() * BAR / 2; }

        int axisTitleCentre() { return Math.max(LEFT + plotWidth() / 2, PAD + (AdvanceBound.width(axisTitle(), TEXT_SIZE) + 1) / 2); }

        List<String> legendTexts() {
            List<String> l = new java.util.ArrayList<>();
            for (Series s : series) l.add(s.legend() + " (" + grouped(s.total()) + ")");
            return l;
        }

        /** The canvas width this panel needs, each text and the plot with their margins. */
        int widthNeeded() {
            int w = Math.max(PAD + AdvanceBound.width(label, LABEL_SIZE), PAD + AdvanceBound.monoWidth(id, ID_SIZE));
            for (String t : legendTexts()) w = Math.max(w, PAD + SWATCH_TEXT + AdvanceBound.width(t, TEXT_SIZE));
            if (rows.length == 0) return Math.max(w, PAD + AdvanceBound.width(NO_ROWS, TEXT_SIZE)) + RIGHT;
            w = Math.max(w, LEFT + plotWidth());
            int lw = 0;
            for (long[] r : rows) lw = Math.max(lw, AdvanceBound.width(Long.toString(r[0]), TEXT_SIZE));
            w = Math.max(w, labelCentre(rows.length - 1) + (lw + 1) / 2);
            w = Math.max(w, axisTitleCentre() + (AdvanceBound.width(axisTitle(), TEXT_SIZE) + 1) / 2);
            return w + RIGHT;
        }
    }

    static final String NO_ROWS = "no census rows to draw";

    /** What a census row's count counts: discs (Othello, Connect Four), stones (NoGo), pieces (Lines of Action, others). */
    static String unit(String game) {
        if (game.startsWith("othello:") || game.startsWith("connect4:")) return "discs";
        if (game.startsWith("nogo:")) return "stones";
        return "pieces";
    }

    /** 1,212,454,691: digits grouped by threes with commas, whatever the default locale. */
    static String grouped(long v) { return String.format(Locale.ROOT, "%,d", v); }

    private static Panel panel(String label, String id, String game, long[][] rows, boolean terms, String regionLegend, String regionTip,
                               long regionTotal, long auxTotal, long termTotal) {
        List<Series> series = new java.util.ArrayList<>();
        if (regionTotal != 0) series.add(new Series(1, "#1f77b4", regionLegend, regionTip, regionTotal));
        if (auxTotal != 0) series.add(new Series(2, "#ff7f0e", "auxiliary entries", "auxiliary entries", auxTotal));
        if (terms && termTotal != 0)
            series.add(new Series(3, "#2ca02c", "terminal positions only the proof reaches", "terminal positions only the proof reaches", termTotal));
        return new Panel(label, id, rows, unit(game), series);
    }

    public static String censusSvg(String title, List<Cert> certs) { return censusSvg(title, certs, List.of()); }

    /**
     * One panel per certificate, then one per composite (its union when shown, else its summed
     * region). A panel whose census has no rows (a weak-ranked certificate, SPEC §9.2) says so in
     * place of a plot.
     */
    public static String censusSvg(String title, List<Cert> certs, List<Composite> composites) {
        List<Panel> panels = new java.util.ArrayList<>();
        for (Cert c : certs)
            panels.add(panel("data/" + c.file() + " · " + c.game() + " " + c.mode() + " · root value " + c.rootValue(), c.commitmentId(), c.game(),
                    c.census(), c.countsProofTerminals(), "certified region", "certified-region positions", c.regionTotal(), c.auxTotal(),
                    c.countsProofTerminals() ? c.proofTerminalTotal() : 0));
        for (Composite c : composites) {
            long[] u = c.shownUnion();
            long[][] rows = new long[c.census().length][];
            for (int i = 0; i < rows.length; i++) {
                rows[i] = c.census()[i].clone();
                if (u != null) rows[i][1] = u[i];
            }
            panels.add(panel(c.manifestPath() + " · " + c.game() + " " + c.mode() + " · " + c.claim() + " · " + c.parts() + " parts",
                    "composite " + c.compositeId(), c.game(), rows, c.countsProofTerminals(),
                    u != null ? "certified region, union of the parts" : "certified region, summed over the parts",
                    u != null ? "positions of the union of the parts' regions" : "certified-region positions summed over the parts",
                    u != null ? c.unionTotal() : c.regionTotal(), c.auxTotal(), c.countsProofTerminals() ? c.proofTerminalTotal() : 0));
        }
        int width = PAD + AdvanceBound.boldWidth(title, TITLE_SIZE) + RIGHT;
        for (Panel p : panels) width = Math.max(width, p.widthNeeded());
        StringBuilder body = new StringBuilder();
        int y = FIRST_PANEL;
        for (Panel p : panels) y = drawPanel(body, p, width, y) + BETWEEN_PANELS;
        int height = y - BETWEEN_PANELS + BOTTOM;
        StringBuilder s = new StringBuilder();
        s.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(width).append(' ').append(height).append("\" font-family=\"sans-serif\" font-size=\"")
                .append(TEXT_SIZE).append("\">\n");
        s.append("<title>").append(xml(title)).append(" - census</title>\n");
        s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        s.append("<text x=\"").append(PAD).append("\" y=\"").append(TITLE_BASE).append("\" font-size=\"").append(TITLE_SIZE)
                .append("\" font-weight=\"bold\">").append(xml(title)).append("</text>\n");
        return s.append(body).append("</svg>\n").toString();
    }

    /** Draws a panel from y0 down; returns the y of its lowest text's bottom. */
    private static int drawPanel(StringBuilder s, Panel p, int width, int y0) {
        s.append("<g>\n");
        int yLabel = y0 + LABEL_BASE, yId = yLabel + ID_STEP;
        s.append("<text x=\"").append(PAD).append("\" y=\"").append(yLabel).append("\" font-size=\"").append(LABEL_SIZE).append("\">")
                .append(xml(p.label())).append("</text>\n");
        s.append("<text x=\"").append(PAD).append("\" y=\"").append(yId).append("\" font-size=\"").append(ID_SIZE)
                .append("\" font-family=\"monospace\" fill=\"#555\">").append(xml(p.id())).append("</text>\n");
        // The legend: its own band under the id, entries flowed left to right into rows.
        int bandBase = yId, x = PAD, rowBase = yId + LEGEND_STEP;
        for (int k = 0; k < p.series().size(); k++) {
            Series ser = p.series().get(k);
            String text = p.legendTexts().get(k);
            int w = SWATCH_TEXT + AdvanceBound.width(text, TEXT_SIZE);
            if (x > PAD && x + w > width - RIGHT) { x = PAD; rowBase += LEGEND_ROW; }
            s.append("<rect x=\"").append(x).append("\" y=\"").append(rowBase - 9).append("\" width=\"").append(SWATCH).append("\" height=\"")
                    .append(SWATCH).append("\" fill=\"").append(ser.colour()).append("\"/>")
                    .append("<text x=\"").append(x + SWATCH_TEXT).append("\" y=\"").append(rowBase).append("\">").append(xml(text)).append("</text>\n");
            x += w + LEGEND_SPACING;
            bandBase = rowBase;
        }
        if (p.rows().length == 0) {
            int yNote = bandBase + LEGEND_STEP;
            s.append("<text x=\"").append(PAD).append("\" y=\"").append(yNote).append("\" fill=\"#555\">").append(NO_ROWS).append("</text>\n");
            s.append("</g>\n");
            return yNote + 4;
        }
        long max = 1;
        for (long[] r : p.rows()) for (Series ser : p.series()) max = Math.max(max, r[ser.column()]);
        int decades = Long.toString(max).length(); // 10^decades > max >= 10^(decades-1)
        int tickStep = Math.max(1, (14 * decades + PLOT_H - 1) / PLOT_H); // tick labels at least 14 apart
        int gw = p.groupWidth(), plotW = p.plotWidth();
        int top = bandBase + PLOT_BELOW, base = top + PLOT_H;
        for (int d = 0; d <= decades; d++) {
            int y = base - d * PLOT_H / decades;
            s.append("<line x1=\"").append(LEFT).append("\" x2=\"").append(LEFT + plotW).append("\" y1=\"").append(y).append("\" y2=\"")
                    .append(y).append("\" stroke=\"#ddd\"/>\n");
            if (d % tickStep == 0)
                s.append("<text x=\"").append(LEFT - 6).append("\" y=\"").append(y + 4).append("\" text-anchor=\"end\">")
                        .append(d == 0 ? "1" : "1e" + d).append("</text>\n");
        }
        int step = p.labelStep();
        for (int i = 0; i < p.rows().length; i++) {
            long[] r = p.rows()[i];
            int gx = LEFT + i * gw;
            for (int k = 0; k < p.series().size(); k++) {
                Series ser = p.series().get(k);
                bar(s, gx + k * BAR, base, r[ser.column()], decades, ser.colour(), r[0] + " " + p.unit() + ": " + grouped(r[ser.column()]) + " " + ser.tip());
            }
            if (i % step == 0)
                s.append("<text x=\"").append(p.labelCentre(i)).append("\" y=\"").append(base + 14).append("\" text-anchor=\"middle\">")
                        .append(r[0]).append("</text>\n");
        }
        s.append("<line x1=\"").append(LEFT).append("\" x2=\"").append(LEFT + plotW).append("\" y1=\"").append(base).append("\" y2=\"")
                .append(base).append("\" stroke=\"black\"/>\n");
        s.append("<text x=\"").append(p.axisTitleCentre()).append("\" y=\"").append(base + 30).append("\" text-anchor=\"middle\">")
                .append(p.axisTitle()).append("</text>\n");
        s.append("<text transform=\"translate(18,").append(base - PLOT_H / 2).append(") rotate(-90)\" text-anchor=\"middle\">positions (log scale)</text>\n");
        s.append("</g>\n");
        return base + 34;
    }

    private static void bar(StringBuilder s, int x, int base, long v, int decades, String colour, String tip) {
        if (v <= 0) return;
        // log10(v) decades of height; a count of 1 gets a sliver so that it stays visible.
        int h = Math.max(2, (int) Math.round(StrictMath.log10(v) * PLOT_H / decades));
        s.append("<rect x=\"").append(x).append("\" y=\"").append(base - h).append("\" width=\"").append(BAR - 1).append("\" height=\"")
                .append(h).append("\" fill=\"").append(colour).append("\"><title>").append(xml(tip)).append("</title></rect>\n");
    }

    /**
     * Bounds on the width of a text in the figure's fonts, in whole pixels, from a table rather
     * than a font (the bytes may not depend on the machine's fonts): "sans-serif" from the advances
     * of DejaVu Sans Bold, glyph by glyph at least DejaVu Sans's (the usual sans-serif on Linux, and
     * what CensusSvgLayoutTest renders with) and well above the common regular sans fonts' for the
     * digits and letters these texts are made of; a tenth more for bold; 0.62 em a character for
     * "monospace" (DejaVu Sans Mono, Courier New, Menlo: 0.6 em); 1 em for a character beyond ASCII.
     */
    static final class AdvanceBound {
        private AdvanceBound() {}

        /** Thousandths of an em, characters 32 to 126: DejaVu Sans Bold's advances, rounded up. */
        private static final short[] ADVANCE = {
            349, 457, 521, 838, 696, 1002, 873, 307, 458, 458, 523, 838, 380, 416, 380, 366,
            696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 581,
            1000, 774, 763, 734, 831, 684, 684, 821, 837, 373, 373, 775, 638, 996, 837, 851,
            733, 851, 771, 721, 683, 813, 774, 1104, 771, 725, 726, 458, 366, 458, 838, 500,
            500, 675, 716, 593, 716, 679, 436, 716, 712, 343, 343, 666, 343, 1042, 712, 688,
            716, 716, 494, 596, 479, 712, 652, 924, 646, 652, 583, 712, 366, 712, 838,
        };

        private static long thousandths(String t) {
            long w = 0;
            for (int i = 0; i < t.length(); ) {
                int cp = t.codePointAt(i);
                w += cp >= 32 && cp < 127 ? ADVANCE[cp - 32] : 1000;
                i += Character.charCount(cp);
            }
            return w;
        }

        static int width(String t, int size) { return (int) ((thousandths(t) * size + 999) / 1000); }

        static int boldWidth(String t, int size) { return (int) ((thousandths(t) * size * 11 + 9999) / 10000); }

        static int monoWidth(String t, int size) { return (int) (((long) t.codePointCount(0, t.length()) * 620 * size + 999) / 1000); }
    }

    static String xml(String t) {
        return t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    // ---- CITATION.cff (Citation File Format 1.2.0) ----

    public static String citationCff(Meta in, List<Cert> certs) { return citationCff(in, certs, List.of()); }

    public static String citationCff(Meta in, List<Cert> certs, List<Composite> composites) {
        boolean comp = !composites.isEmpty();
        StringBuilder s = new StringBuilder();
        s.append("cff-version: 1.2.0\n");
        s.append("message: ").append(yaml(comp ? "If you use this result, cite this bundle by its DOI, the commitment id of each "
                + "certificate and the composite id of each composite you rely on, and name the verifier (version and jar SHA-256) you "
                + "checked it with." : "If you use this result, cite this bundle by its DOI and the commitment id of each "
                + "certificate you rely on, and name the verifier (version and jar SHA-256) you checked it with.")).append('\n');
        s.append("type: dataset\n");
        s.append("title: ").append(yaml(in.title())).append('\n');
        if (in.version() != null) s.append("version: ").append(yaml(in.version())).append('\n');
        s.append("authors:\n");
        for (int i = 0; i < in.authors().size(); i++) {
            String name = in.authors().get(i).trim();
            int sp = name.lastIndexOf(' ');
            if (sp < 0) s.append("  - family-names: ").append(yaml(name)).append('\n');
            else {
                s.append("  - family-names: ").append(yaml(name.substring(sp + 1))).append('\n');
                s.append("    given-names: ").append(yaml(name.substring(0, sp).trim())).append('\n');
            }
            if (i < in.orcids().size()) s.append("    orcid: ").append(yaml("https://orcid.org/" + in.orcids().get(i))).append('\n');
        }
        if (in.date() != null) s.append("date-released: ").append(yaml(in.date())).append('\n');
        if (in.doi() != null) s.append("doi: ").append(yaml(in.doi())).append('\n');
        if (in.license() != null) s.append("license: ").append(yaml(in.license())).append('\n');
        if (in.repositoryCode() != null) s.append("repository-code: ").append(yaml(in.repositoryCode())).append('\n');
        s.append("abstract: ").append(yaml((comp ? "Proof certificates and compositional certificates (gamecert format, SPEC v1, §15) "
                + "with their census, checkable with the " : "Proof certificates (gamecert format, SPEC v1) with their census, checkable with the ")
                + "independent gamecert verifier " + in.verifierVersion() + " (jar sha256:" + in.verifierJarSha256() + ").")).append('\n');
        s.append("identifiers:\n");
        if (in.doi() != null) s.append("  - type: doi\n    value: ").append(yaml(in.doi())).append('\n');
        for (Cert c : certs) {
            s.append("  - type: other\n    value: ").append(yaml(c.commitmentId())).append('\n');
            s.append("    description: ").append(yaml("gamecert commitment id of data/" + c.file() + " (" + c.game() + ", " + c.mode()
                    + ", root value " + c.rootValue() + ")")).append('\n');
        }
        for (Composite c : composites) {
            s.append("  - type: other\n    value: ").append(yaml(c.compositeId())).append('\n');
            s.append("    description: ").append(yaml("gamecert composite id of " + c.manifestPath() + " (" + c.game() + ", " + c.mode()
                    + ", " + c.claim() + ", " + c.parts() + " parts " + (c.partsIncluded() ? "in the bundle" : "referenced by commitment id, "
                    + "not in the bundle") + ")")).append('\n');
        }
        s.append("keywords:\n  - solved games\n  - proof certificate\n  - gamecert\n");
        for (Cert c : certs) {
            String family = c.game().contains(":") ? c.game().substring(0, c.game().indexOf(':')) : c.game();
            if (s.indexOf("  - " + family + "\n") < 0) s.append("  - ").append(family).append('\n');
        }
        for (Composite c : composites) {
            String family = c.game().contains(":") ? c.game().substring(0, c.game().indexOf(':')) : c.game();
            if (s.indexOf("  - " + family + "\n") < 0) s.append("  - ").append(family).append('\n');
        }
        if (in.verifierCommit() != null) {
            // Since 0.6.0: the software that checks this bundle, at the version and commit of the pinned jar.
            s.append("references:\n  - type: software\n    title: ").append(yaml(SOFTWARE_TITLE)).append('\n');
            s.append("    authors:\n      - name: ").append(yaml(SOFTWARE_AUTHOR)).append('\n');
            s.append("    version: ").append(yaml(in.verifierVersion())).append('\n');
            if (in.verifierCommitHex() != null) s.append("    commit: ").append(yaml(in.verifierCommitHex())).append('\n');
            s.append("    license: ").append(SOFTWARE_LICENSE).append('\n');
            s.append("    notes: ").append(yaml("The gamecert verifier this bundle pins: verifier.jar with SHA-256 " + in.verifierJarSha256()
                    + (in.verifierCommitHex() == null ? ", built from an unrecorded commit."
                    : in.verifierModified() ? ", built from modified sources at this commit (a clean build of the commit differs)."
                    : ", built from this commit (scripts/rebuild-verifier-check BUNDLE rebuilds it and compares the hash)."))).append('\n');
        }
        return s.toString();
    }

    static String yaml(String v) {
        StringBuilder sb = new StringBuilder("\"");
        for (char ch : v.toCharArray()) {
            if (ch == '"' || ch == '\\') sb.append('\\').append(ch);
            else if (ch < 0x20) sb.append(String.format(Locale.ROOT, "\\x%02x", (int) ch));
            else sb.append(ch);
        }
        return sb.append('"').toString();
    }

    // ---- README.md for the reader of the bundle ----

    public static String readme(Meta in, List<Cert> certs) { return readme(in, certs, List.of()); }

    public static String readme(Meta in, List<Cert> certs, List<Composite> composites) {
        String fingerprint = in.fingerprint();
        StringBuilder s = new StringBuilder();
        s.append("# ").append(in.title()).append("\n\n");
        s.append("By ").append(String.join(", ", in.authors())).append(in.date() != null ? ", released " + in.date() : "").append(".\n\n");
        if (in.version() != null || in.license() != null) // since 0.6.0
            s.append(in.version() != null ? "Version " + in.version() + "." : "").append(in.version() != null && in.license() != null ? " " : "")
                    .append(in.license() != null ? "The certificates and the files derived from them are under the licence " + in.license()
                    + " (SPDX identifier)." : "").append("\n\n");
        s.append("This bundle is a BagIt bag (RFC 8493) of gamecert proof certificates (format SPEC v1). ")
                .append("It carries its own checksums (`manifest-sha256.txt`, `manifest-sha512.txt`, `tagmanifest-sha256.txt`), ")
                .append("so its integrity does not depend on the archive that hosts it.\n\n");
        if (!certs.isEmpty() || composites.isEmpty()) {
            s.append("## Certificates\n\n| file | game | mode | root value | region positions | auxiliary entries | commitment id |\n|---|---|---|---|---|---|---|\n");
            for (Cert c : certs)
                s.append("| `data/").append(c.file()).append("` | ").append(c.game()).append(" | ").append(c.mode()).append(" | ").append(c.rootValue())
                        .append(" | ").append(c.regionTotal()).append(" | ").append(c.auxTotal()).append(" | `").append(c.commitmentId()).append("` |\n");
        }
        if (!composites.isEmpty()) {
            if (!certs.isEmpty()) s.append('\n');
            s.append("## Composites\n\nA composite (SPEC §15) is a solve in parts: a manifest `composite.gscm` names every part by its ")
                    .append("commitment id and, for every open entry of a part, the part that proves it. Its composite id covers every ")
                    .append("part's commitment and every link. The region census is summed over the parts; the union counts each position ")
                    .append("once where sub-solves share positions (shown for composites of at most ").append(UNION_SHOWN_UP_TO)
                    .append(" summed region positions).\n\n");
            s.append("| manifest | game | mode | claim at the root | parts | region positions (summed) | region positions (union) | auxiliary entries | composite id |\n")
                    .append("|---|---|---|---|---|---|---|---|---|\n");
            for (Composite c : composites) {
                long[] u = c.shownUnion();
                s.append("| `").append(c.manifestPath()).append("` | ").append(c.game()).append(" | ").append(c.mode()).append(" | ")
                        .append(c.claim()).append(" | ").append(c.parts()).append(c.partsIncluded() ? " (in the bundle)" : " (by reference)")
                        .append(" | ").append(c.regionTotal()).append(" | ").append(u == null ? "not shown" : String.valueOf(c.unionTotal()))
                        .append(" | ").append(c.auxTotal()).append(" | `").append(c.compositeId()).append("` |\n");
            }
            s.append('\n');
            for (Composite c : composites) {
                if (c.partsIncluded())
                    s.append("- `data/").append(c.name()).append("/` holds the manifest and all ").append(c.parts())
                            .append(" parts, each as `<64 hex digits of its commitment>.gsc`.\n");
                else
                    s.append("- `data/").append(c.name()).append("/` holds the manifest only: its ").append(c.parts())
                            .append(" parts are referenced by commitment id and are not in this bundle. Get them (files named ")
                            .append("`<64 hex digits of the commitment>.gsc`, e.g. from the authors' other deposits) into a folder and ")
                            .append("run `scripts/verify BUNDLE --parts FOLDER`; without them the bundle's verdict is `incomplete` (exit 3).\n");
            }
            s.append("\nThe verifier checks every part, then the composition rules, and ends with one `VERIFIED ...` line per composite naming ")
                    .append("its composite id.\n");
        }
        s.append("\nThe census per disc count is in `data/*.census.json` and drawn in `data/census.svg` (open it in a browser).\n\n");
        if (certs.stream().anyMatch(c -> !c.hasCensus()))
            s.append("A weak-ranked certificate (SPEC §9.2, e.g. Lines of Action) has no census: its entries are ordered by rank, ")
                    .append("not by disc count; its region is empty and every one of its entries is auxiliary.\n\n");
        s.append("## How to verify\n\n");
        s.append("The verifier to use is pinned in `bag-info.txt`: gamecert verifier **").append(in.verifierVersion())
                .append("**").append(in.verifierCommitHex() != null ? ", built from commit `" + in.verifierCommitHex() + "`"
                        + (in.verifierModified() ? " with modified sources" : "") : "")
                .append(", whose jar has SHA-256\n\n    ").append(in.verifierJarSha256()).append("\n\n");
        if (in.verifierCommitHex() != null && !in.verifierModified())
            s.append("1. Get the gamecert sources (a clone with that commit), then build the verifier at that commit in a clean worktree ")
                    .append("and compare the hash:\n\n       scripts/rebuild-verifier-check BUNDLE\n\n")
                    .append("   or by hand: `git checkout ").append(in.verifierCommitHex()).append("`, then\n\n")
                    .append("       mvn -q -pl verifier -am package -DskipTests\n       sha256sum verifier/target/verifier.jar\n\n")
                    .append("   The build is reproducible (fixed `project.build.outputTimestamp`; the jar records its commit and nothing ")
                    .append("else about the build), so the hash should be the one above. ")
                    .append("A newer verifier may be used too; it then says that its hash differs from the pinned one.\n");
        else s.append("1. Get the gamecert sources at the release of that verifier, build it and compare the hash:\n\n")
                .append("       mvn -q -pl verifier -am package -DskipTests\n       sha256sum verifier/target/verifier.jar\n\n")
                .append("   The build is reproducible (fixed `project.build.outputTimestamp`), so the hash should be the one above. ")
                .append("A newer verifier may be used too; it then says that its hash differs from the pinned one.\n");
        s
                .append("2. Check the bundle (a directory, `.tar`, `.tar.zst`, or the first of its split parts):\n\n")
                .append("       scripts/verify BUNDLE").append(fingerprint != null ? " --pubkey AUTHOR.pub" : "").append("\n\n")
                .append("   It checks that the bag is complete and valid (every file listed, every checksum right, no extra file, ")
                .append("no path escaping the bag, no links in a tar)").append(fingerprint != null ? ", the signature" : "")
                .append(", then verifies every certificate from scratch, and ends with one `VERIFIED ...` citation line per certificate. ")
                .append("Exit code 0 means everything held; 1 names the file or rule that failed.\n\n");
        if (fingerprint != null) {
            s.append("## Signature\n\n`tagmanifest-sha256.txt.sig` is an Ed25519 signature (RFC 8032) over the exact bytes of ")
                    .append("`tagmanifest-sha256.txt`, which fixes the checksums of every other file. It holds one line: the base64 of ")
                    .append("the 64-byte signature. The signer's public key (base64 of its 32 raw bytes) is in `bag-info.txt` ")
                    .append("(`Signature-Public-Key`); its fingerprint (" + (fingerprint.length() == 19 ? "first 16 hex digits of SHA-256"
                            : "SHA-256, 64 hex digits,") + " over the 32 raw bytes) is\n\n    ")
                    .append(fingerprint).append("\n\nCompare it with the fingerprint printed in the paper, or pass the author's key file ")
                    .append("with `--pubkey` so that the verifier checks it is this key that signed.\n\n");
        }
        s.append("## What a verified result means\n\n")
                .append("A certificate that verifies proves, under its game's rules and tie-breaking order (and assuming a correct ")
                .append("verifier and SHA-256): the value of its root position; in semi-strong mode, the exact value and the canonical ")
                .append("optimal move of every position of the certified region (every position that arises when one side plays the ")
                .append("canonical move and the other plays anything); and every other bound written in it. It does not prove the ")
                .append("program that produced it correct (it need not be), nor anything about positions outside the region. ")
                .append("The commitment id identifies the certified content; the verifier prints the one it computed.\n\n");
        s.append("## How to cite\n\nCite the bundle's DOI").append(in.doi() != null ? " (" + in.doi() + ")" : "")
                .append(", the commitment id of each certificate you rely on, and the verifier version and jar hash; `data/CITATION.cff` ")
                .append("has the same in machine-readable form.\n");
        return s.toString();
    }
}
