package org.gamecert.verifier.bundle;

import java.util.List;

/**
 * census.svg as bundles released up to 29b3b82 (0.5.0, CHANGELOG.md) drew it. The figure is rendered
 * from what the bundle check verified and compared byte for byte; its layout changed since
 * (BundleTexts.censusSvg: nothing overlaps or clips), so a bundle made before carries this one.
 * The bundle check accepts either: the figure is derived, informative, and both layouts draw the
 * same verified numbers. Kept as it was, apart from the class it lives in.
 */
final class EarlierCensusSvg {
    private EarlierCensusSvg() {}

    static final int PANEL_H = 300, TOP = 46, LEFT = 78, BAR = 9, GAP = 6, PLOT_H = 200;

    /** A disc count's bars: region and auxiliary, and for Connect Four the proof-only terminals. */
    private static int groupWidth(boolean terms) { return (terms ? 3 : 2) * BAR + GAP; }

    /** One panel per certificate, then one per composite (its union when shown, else its summed region). */
    static String censusSvg(String title, List<BundleTexts.Cert> certs, List<BundleTexts.Composite> composites) {
        int plotW = 1;
        for (BundleTexts.Cert c : certs) plotW = Math.max(plotW, c.census().length * groupWidth(c.countsProofTerminals()));
        for (BundleTexts.Composite c : composites) plotW = Math.max(plotW, c.census().length * groupWidth(c.countsProofTerminals()));
        int width = LEFT + plotW + 40, height = 36 + (certs.size() + composites.size()) * PANEL_H;
        StringBuilder s = new StringBuilder();
        s.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(width).append(' ').append(height).append("\" font-family=\"sans-serif\" font-size=\"11\">\n");
        s.append("<title>").append(BundleTexts.xml(title)).append(" - census</title>\n");
        s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        s.append("<text x=\"").append(LEFT).append("\" y=\"20\" font-size=\"14\" font-weight=\"bold\">").append(BundleTexts.xml(title)).append("</text>\n");
        int k = 0;
        for (BundleTexts.Cert c : certs)
            panel(s, "data/" + c.file() + " · " + c.game() + " " + c.mode() + " · root value " + c.rootValue(), c.commitmentId(), c.census(),
                    c.countsProofTerminals(), "certified region", "certified-region positions", c.regionTotal(), c.auxTotal(),
                    c.countsProofTerminals() ? c.proofTerminalTotal() : 0, 36 + k++ * PANEL_H);
        for (BundleTexts.Composite c : composites) {
            long[] u = c.shownUnion();
            long[][] rows = new long[c.census().length][];
            for (int i = 0; i < rows.length; i++) {
                rows[i] = c.census()[i].clone();
                if (u != null) rows[i][1] = u[i];
            }
            panel(s, c.manifestPath() + " · " + c.game() + " " + c.mode() + " · " + c.claim() + " · " + c.parts() + " parts",
                    "composite " + c.compositeId(), rows, c.countsProofTerminals(),
                    u != null ? "certified region, union of the parts" : "certified region, summed over the parts",
                    u != null ? "positions of the union of the parts' regions" : "certified-region positions summed over the parts",
                    u != null ? c.unionTotal() : c.regionTotal(), c.auxTotal(), c.countsProofTerminals() ? c.proofTerminalTotal() : 0, 36 + k++ * PANEL_H);
        }
        return s.append("</svg>\n").toString();
    }

    private static void panel(StringBuilder s, String label, String id, long[][] census, boolean terms, String regionLegend, String regionTip,
                              long regionTotal, long auxTotal, long termTotal, int y0) {
        long max = 1;
        for (long[] r : census) max = Math.max(max, Math.max(Math.max(r[1], r[2]), terms ? r[3] : 0));
        int decades = Math.max(1, (int) Math.ceil(Math.log10(max + 1.0)));
        int gw = groupWidth(terms);
        int base = y0 + TOP + PLOT_H, plotW = census.length * gw;
        s.append("<g>\n<text x=\"").append(LEFT).append("\" y=\"").append(y0 + 16).append("\" font-size=\"12\">")
                .append(BundleTexts.xml(label))
                .append("</text>\n");
        s.append("<text x=\"").append(LEFT).append("\" y=\"").append(y0 + 32).append("\" font-size=\"10\" fill=\"#555\">")
                .append(BundleTexts.xml(id)).append("</text>\n");
        for (int d = 0; d <= decades; d++) {
            int y = base - d * PLOT_H / decades;
            s.append("<line x1=\"").append(LEFT).append("\" x2=\"").append(LEFT + plotW).append("\" y1=\"").append(y).append("\" y2=\"")
                    .append(y).append("\" stroke=\"#ddd\"/>\n");
            s.append("<text x=\"").append(LEFT - 6).append("\" y=\"").append(y + 4).append("\" text-anchor=\"end\">")
                    .append(d == 0 ? "1" : "1e" + d).append("</text>\n");
        }
        for (int i = 0; i < census.length; i++) {
            long[] r = census[i];
            int x = LEFT + i * gw;
            bar(s, x, base, r[1], decades, "#1f77b4", r[0] + " discs: " + r[1] + " " + regionTip);
            bar(s, x + BAR, base, r[2], decades, "#ff7f0e", r[0] + " discs: " + r[2] + " auxiliary entries");
            if (terms)
                bar(s, x + 2 * BAR, base, r[3], decades, "#2ca02c", r[0] + " discs: " + r[3] + " terminal positions only the proof reaches");
            if (census.length <= 40 || i % 2 == 0) // centred under the group's 2 or 3 bars
                s.append("<text x=\"").append(x + (terms ? 3 * BAR / 2 : BAR)).append("\" y=\"").append(base + 14).append("\" text-anchor=\"middle\">")
                        .append(r[0]).append("</text>\n");
        }
        s.append("<line x1=\"").append(LEFT).append("\" x2=\"").append(LEFT + plotW).append("\" y1=\"").append(base).append("\" y2=\"")
                .append(base).append("\" stroke=\"black\"/>\n");
        s.append("<text x=\"").append(LEFT + plotW / 2).append("\" y=\"").append(base + 30).append("\" text-anchor=\"middle\">discs on the board</text>\n");
        s.append("<text transform=\"translate(16,").append(base - PLOT_H / 2).append(") rotate(-90)\" text-anchor=\"middle\">positions (log scale)</text>\n");
        int lx = LEFT + plotW - 250, ly = y0 + 16;
        s.append("<rect x=\"").append(lx).append("\" y=\"").append(ly - 9).append("\" width=\"10\" height=\"10\" fill=\"#1f77b4\"/>")
                .append("<text x=\"").append(lx + 14).append("\" y=\"").append(ly).append("\">").append(regionLegend).append(" (").append(regionTotal).append(")</text>\n");
        s.append("<rect x=\"").append(lx).append("\" y=\"").append(ly + 5).append("\" width=\"10\" height=\"10\" fill=\"#ff7f0e\"/>")
                .append("<text x=\"").append(lx + 14).append("\" y=\"").append(ly + 14).append("\">auxiliary entries (").append(auxTotal).append(")</text>\n");
        if (terms)
            s.append("<rect x=\"").append(lx).append("\" y=\"").append(ly + 19).append("\" width=\"10\" height=\"10\" fill=\"#2ca02c\"/>")
                    .append("<text x=\"").append(lx + 14).append("\" y=\"").append(ly + 28).append("\">terminal positions only the proof reaches (")
                    .append(termTotal).append(")</text>\n");
        s.append("</g>\n");
    }

    private static void bar(StringBuilder s, int x, int base, long v, int decades, String colour, String tip) {
        if (v <= 0) return;
        // log10(v) decades of height; a count of 1 gets a sliver so that it stays visible.
        int h = Math.max(2, (int) Math.round(Math.log10(v) * PLOT_H / decades));
        s.append("<rect x=\"").append(x).append("\" y=\"").append(base - h).append("\" width=\"").append(BAR - 1).append("\" height=\"")
                .append(h).append("\" fill=\"").append(colour).append("\"><title>").append(BundleTexts.xml(tip)).append("</title></rect>\n");
    }

}
