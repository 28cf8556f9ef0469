package org.gamecert.verifier.bundle;

import static org.junit.jupiter.api.Assertions.*;

import java.awt.geom.Point2D;
import java.awt.geom.Rectangle2D;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.batik.anim.dom.SAXSVGDocumentFactory;
import org.apache.batik.bridge.BridgeContext;
import org.apache.batik.bridge.DocumentLoader;
import org.apache.batik.bridge.GVTBuilder;
import org.apache.batik.bridge.StrokingTextPainter;
import org.apache.batik.bridge.TextNode;
import org.apache.batik.bridge.TextSpanLayout;
import org.apache.batik.bridge.UserAgentAdapter;
import org.apache.batik.gvt.CompositeGraphicsNode;
import org.apache.batik.gvt.GraphicsNode;
import org.apache.batik.gvt.ShapeNode;
import org.apache.batik.gvt.font.GVTLineMetrics;
import org.apache.batik.util.XMLResourceDescriptor;
import org.gamecert.verifier.bundle.BundleTexts.Cert;
import org.gamecert.verifier.bundle.BundleTexts.Composite;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.svg.SVGDocument;

/**
 * census.svg as a reader sees it: each figure is rendered by Apache Batik (its GVT tree, the
 * machine's own fonts for "sans-serif" and "monospace"), and every text's box, from its ascent to
 * its descent and over its whole advance (and its glyphs' outlines), must lie inside the canvas and
 * cross no other text, no legend swatch and no bar. Inputs: the census of genuine certificates
 * (testdata/valid: Othello semi-strong and weak, Connect Four semi-strong and weak) and made-up ones
 * at the edges: an 8x8 Othello census of 61 rows, NoGo, 40 rows of 10^9 and more per column, counts
 * near 10^18, Lines of Action (no census rows), a composite, the longest ids and a long title.
 */
class CensusSvgLayoutTest {
    static final String LONGEST_ID = "sha256:" + "8".repeat(64); // 71 characters; digits are among the widest glyphs
    static Cert othello, othelloWeak, connect4, connect4Weak;

    @BeforeAll static void genuineCensuses() throws Exception {
        othello = genuine("othello4x4-10discs.gsc", "othello:4x4", "semi-strong");
        othelloWeak = genuine("othello4x4-8discs-weak.gsc", "othello:4x4", "weak");
        connect4 = genuine("connect4-4x4-8discs.gsc", "connect4:4x4", "semi-strong");
        connect4Weak = genuine("connect4-5x4-11discs-weak.gsc", "connect4:5x4", "weak");
        assertEquals(0, othelloWeak.regionTotal(), "a weak certificate certifies no region");
    }

    static Cert genuine(String file, String game, String mode) throws Exception {
        var r = org.gamecert.verifier.engine.Verifier.verify(Path.of("../testdata/valid", file), new org.gamecert.verifier.engine.Options());
        assertEquals(org.gamecert.verifier.kernel.Result.Verdict.VERIFIED, r.verdict, file);
        return new Cert(file, game, mode, r.header.rootValue, r.commitment, r.entries, r.census.toArray(new long[0][]));
    }

    /** rows {first + i, region, aux, term} for i < n. */
    static long[][] rows(int first, int n, long region, long aux, long term) {
        long[][] a = new long[n][];
        for (int i = 0; i < n; i++) a[i] = new long[] {first + i, region, aux, term};
        return a;
    }

    /** An 8x8 Othello census: 4 to 64 discs, rising to 10^9 in the middle. */
    static Cert othello8x8() {
        long[][] a = new long[61][];
        for (int i = 0; i < 61; i++) {
            int e = Math.min(9, 1 + Math.min(i, 60 - i) / 3);
            a[i] = new long[] {4 + i, (long) Math.pow(10, e) + i, (long) Math.pow(10, Math.max(0, e - 1)) * 3, 0};
        }
        return new Cert("othello-8x8-semi-strong.gsc", "othello:8x8", "semi-strong", 0, LONGEST_ID, 1_212_454_691L, a);
    }

    static Cert nogo() {
        long[][] a = new long[13][];
        for (int i = 0; i < 13; i++) a[i] = new long[] {i, 1 + 37L * i * i, 11L * i, 0};
        return new Cert("nogo-1x13.gsc", "nogo:1x13", "semi-strong", -1, LONGEST_ID, 4_321, a);
    }

    static Cert huge() { return new Cert("connect4-7x6-huge.gsc", "connect4:7x6", "semi-strong", 1, LONGEST_ID, 1L << 40, rows(3, 40, 1_000_000_000L, 1_212_454_691L, 999_999_999L)); }

    static Cert nearLongMax() { return new Cert("connect4-7x6-e18.gsc", "connect4:7x6", "weak", -1, LONGEST_ID, 1L << 62, rows(30, 9, 0, 1_000_000_000_000_000_000L, 999_999_999_999_999_999L)); }

    static Cert linesOfAction() { return new Cert("loa-5x5.gsc", "loa:5x5", "weak", 1, LONGEST_ID, 777, new long[0][]); }

    static Composite composite() {
        long[][] census = rows(8, 9, 20_000, 7, 0); // summed region 180,000: at most UNION_SHOWN_UP_TO, so the union is shown
        long[] union = new long[9];
        java.util.Arrays.fill(union, 19_999);
        return new Composite("othello-6x6-split", "othello:6x6", "semi-strong", "P value +4", 4, LONGEST_ID, 1024, false, 1L << 33, census, union);
    }

    // ---- the figures ----

    @Test void aSemiStrongOthelloCensusHasNoTextOverlappingOrClipped() {
        assertLaidOut(BundleTexts.censusSvg("Othello 4x4", List.of(othello)), "certified region (", "auxiliary entries (", "discs on the board");
        assertLaidOut(BundleTexts.censusSvg("Othello 8x8", List.of(othello8x8())), "certified region (", "discs on the board");
    }

    @Test void aWeakCertificateShowsNoEmptyRegionSeriesAndNothingOverlaps() {
        for (Cert c : List.of(othelloWeak, connect4Weak)) {
            String svg = BundleTexts.censusSvg("Weak", List.of(c));
            assertLaidOut(svg, "auxiliary entries (", "discs on the board");
            assertFalse(svg.contains("certified region"), "a weak certificate has no region series: " + c.file());
            assertFalse(svg.contains("(0)"), "no legend entry with a zero total: " + c.file());
        }
    }

    @Test void connectFourShowsItsWholeLegendOfThreeSeries() {
        assertLaidOut(BundleTexts.censusSvg("Connect Four 4x4", List.of(connect4)), "certified region (", "auxiliary entries (",
                "terminal positions only the proof reaches (", "discs on the board");
        assertLaidOut(BundleTexts.censusSvg("Connect Four", List.of(connect4, connect4Weak)), "terminal positions only the proof reaches (");
    }

    @Test void noGoCountsStonesNotDiscs() {
        String svg = BundleTexts.censusSvg("Linear NoGo", List.of(nogo()));
        assertLaidOut(svg, "stones on the board", "certified region (", "auxiliary entries (");
        assertFalse(svg.contains("discs"), "NoGo has stones");
        assertTrue(svg.contains("12 stones: "), "the bars' tooltips count stones too");
    }

    @Test void hugeCountsAndTheLongestIdFitTheCanvas() {
        String svg = BundleTexts.censusSvg("Huge", List.of(huge()));
        assertLaidOut(svg, "certified region (40,000,000,000)", "auxiliary entries (48,498,187,640)",
                "terminal positions only the proof reaches (39,999,999,960)", LONGEST_ID);
        assertLaidOut(BundleTexts.censusSvg("Counts near 10^18", List.of(nearLongMax())), "auxiliary entries (9,000,000,000,000,000,000)",
                "1e18");
    }

    @Test void linesOfActionWithNoCensusRowsSaysSoInPlaceOfAPlot() {
        String svg = BundleTexts.censusSvg("Lines of Action 5x5", List.of(linesOfAction()));
        assertLaidOut(svg, "no census rows to draw", LONGEST_ID);
        assertFalse(svg.contains("<line"), "no axes for no rows");
        assertFalse(svg.contains("(0)"), "no legend entry with a zero total");
        // Were there rows, they would count pieces.
        Cert withRows = new Cert("loa-5x5.gsc", "loa:5x5", "weak", 1, LONGEST_ID, 777, rows(12, 3, 0, 5, 0));
        assertLaidOut(BundleTexts.censusSvg("Lines of Action 5x5", List.of(withRows)), "pieces on the board");
    }

    @Test void aCompositeWithItsLongClaimAndIdIsLaidOut() {
        assertLaidOut(BundleTexts.censusSvg("A composite", List.of(), List.of(composite())), "composite " + LONGEST_ID,
                "certified region, union of the parts (179,991)", "auxiliary entries (63)");
    }

    @Test void everyPanelOfABigReleaseAndALongTitleAreLaidOut() {
        String title = "Othello, Connect Four, NoGo and Lines of Action: every certificate of the 2026 release, with a title this long & <escaped>";
        assertLaidOut(BundleTexts.censusSvg(title, List.of(othello, othelloWeak, connect4, connect4Weak, othello8x8(), nogo(), huge(), nearLongMax(),
                linesOfAction()), List.of(composite())), title, "no census rows to draw", "stones on the board", "discs on the board");
    }

    @Test void theFigureIsTheSameBytesEveryTime() {
        List<Cert> all = List.of(othello, othelloWeak, connect4, connect4Weak, othello8x8(), nogo(), huge(), linesOfAction());
        assertEquals(BundleTexts.censusSvg("T", all, List.of(composite())), BundleTexts.censusSvg("T", List.copyOf(all), List.of(composite())));
    }

    // ---- rendering and measuring ----

    /** A text's box or a shape's, in canvas coordinates. */
    record Box(String what, Rectangle2D r) {
        @Override public String toString() {
            return "'" + what + "' [" + Math.round(r.getMinX()) + ".." + Math.round(r.getMaxX()) + " x " + Math.round(r.getMinY()) + ".."
                    + Math.round(r.getMaxY()) + "]";
        }
    }

    /**
     * Renders the SVG with Batik and checks: every text lies inside the canvas; no two texts
     * intersect; no text intersects a shape (bar, legend swatch, axis or grid line); each of
     * mustShow is the whole content of one text, or part of one; and the measuring measured (the
     * id's rendered width is a real width, near the layout's own bound on it).
     */
    static void assertLaidOut(String svg, String... mustShow) {
        SVGDocument doc;
        try {
            doc = new SAXSVGDocumentFactory(XMLResourceDescriptor.getXMLParserClassName()).createSVGDocument("file:/census.svg", new StringReader(svg));
        } catch (java.io.IOException e) {
            throw new AssertionError("not well-formed SVG", e);
        }
        UserAgentAdapter ua = new UserAgentAdapter() {
            @Override public void displayError(Exception e) { throw new AssertionError("Batik: " + e.getMessage(), e); }

            @Override public void displayMessage(String m) {}
        };
        BridgeContext ctx = new BridgeContext(ua, new DocumentLoader(ua));
        GraphicsNode root = new GVTBuilder().build(ctx, doc);
        double w = Double.parseDouble(doc.getRootElement().getAttribute("width")), h = Double.parseDouble(doc.getRootElement().getAttribute("height"));
        List<Box> texts = new ArrayList<>(), shapes = new ArrayList<>();
        collect(root, texts, shapes, w, h);
        assertTrue(texts.size() >= 3, "texts rendered: " + texts);
        for (Box t : texts)
            assertTrue(t.r().getMinX() >= 0 && t.r().getMinY() >= 0 && t.r().getMaxX() <= w && t.r().getMaxY() <= h,
                    t + " runs off the canvas of " + w + " x " + h);
        for (int i = 0; i < texts.size(); i++) {
            for (int j = i + 1; j < texts.size(); j++)
                assertFalse(texts.get(i).r().intersects(texts.get(j).r()), texts.get(i) + " overlaps " + texts.get(j));
            for (Box s : shapes) assertFalse(texts.get(i).r().intersects(s.r()), texts.get(i) + " overlaps a shape at " + s);
        }
        for (String m : mustShow)
            assertTrue(texts.stream().anyMatch(t -> t.what().contains(m)), "no text shows '" + m + "': " + texts);
        // The measuring measured: the id line, in a real monospace font, is at least 0.55 em a character wide.
        Box id = texts.stream().filter(t -> t.what().contains("sha256:")).findFirst().orElseThrow();
        assertTrue(id.r().getWidth() >= 0.55 * BundleTexts.ID_SIZE * id.what().length(), "the id rendered " + id);
        assertTrue(id.r().getWidth() <= BundleTexts.AdvanceBound.monoWidth(id.what(), BundleTexts.ID_SIZE), "the layout's bound holds for " + id);
    }

    static void collect(GraphicsNode n, List<Box> texts, List<Box> shapes, double w, double h) {
        if (n instanceof CompositeGraphicsNode c) {
            for (Object child : c) collect((GraphicsNode) child, texts, shapes, w, h);
        } else if (n instanceof TextNode t) {
            texts.add(new Box(t.getText(), textBox(t)));
        } else if (n instanceof ShapeNode s) {
            Rectangle2D r = s.getGlobalTransform().createTransformedShape(s.getPrimitiveBounds()).getBounds2D();
            if (!(r.getMinX() <= 0 && r.getMinY() <= 0 && r.getMaxX() >= w && r.getMaxY() >= h)) shapes.add(new Box("shape", r)); // not the background
        }
    }

    /** The text's line box (ascent to descent over its advance) joined with its glyphs' outlines, in canvas coordinates. */
    static Rectangle2D textBox(TextNode t) {
        Rectangle2D r = t.getGeometryBounds().getBounds2D(); // lays the text out
        for (Object o : t.getTextRuns()) {
            TextSpanLayout l = ((StrokingTextPainter.TextRun) o).getLayout();
            Point2D off = l.getOffset(), adv = l.getAdvance2D();
            GVTLineMetrics lm = l.getLineMetrics();
            r.add(new Rectangle2D.Double(off.getX(), off.getY() - lm.getAscent(), adv.getX(), lm.getAscent() + lm.getDescent()));
        }
        return t.getGlobalTransform().createTransformedShape(r).getBounds2D();
    }
}
