package org.gamecert.producer.release;

import org.gamecert.producer.cert.CertificateReader;
import org.gamecert.producer.game.Game;
import org.gamecert.verifier.bundle.BundleReport;
import org.gamecert.verifier.peer.PeerOptions;
import org.gamecert.verifier.peer.PeerResult;
import org.gamecert.verifier.peer.PeerVerifier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.gamecert.producer.release.ReleaseTest.lastErr;
import static org.gamecert.producer.release.ReleaseTest.lastOut;
import static org.gamecert.producer.release.ReleaseTest.produce;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Every kind of certificate the producer makes, in every game and mode, goes through the whole
 * toolchain: `produce release` bundles it, the verifier's bundle check verifies the bundle, and
 * `produce query` answers the root from the bundle's copy with the value the verifier proved;
 * `produce export` writes what the peer 6x6 format can hold and refuses the rest in one line
 * naming what it supports (exit 2). Kinds: Othello 4x4 semi-strong, weak, weak with leaves;
 * Othello 6x6 semi-strong and weak and 8x8 weak with leaves from late positions; Connect Four 4x4
 * semi-strong and weak with leaves; NoGo 1x9 semi-strong and weak; LOA 4x4 weak-ranked (SPEC
 * §9.2: no census rows, entries looked up by key); two composites (SPEC §15).
 */
class ReleaseEveryKindTest {
    @TempDir static Path shared;
    static Path jar;
    /** Each kind's certificate (a file, or a composite's folder), made once. */
    static final Map<String, Path> made = new LinkedHashMap<>();

    /**
     * A kind: its name, the solve arguments, the root as --moves (so that query can name it), the
     * game and modes as the bundle's texts and the query say them, and whether export writes it.
     */
    record Kind(String name, List<String> solve, String rootMoves, String game, String bundleMode, String queryMode,
                boolean composite, boolean exportable) {
        @Override public String toString() { return name; }
    }

    static final List<Kind> KINDS = new ArrayList<>();

    static {
        String o6 = line("othello:6x6", 10, 6), o8 = line("othello:8x8", 11, 8);
        add("othello4-semi-strong", "othello:4x4", "", "semi-strong", "semi-strong", false, false);
        add("othello4-weak", "othello:4x4", "", "weak", "weak", false, false, "--mode", "weak");
        add("othello4-weak-leaves", "othello:4x4", "", "weak", "weak with leaves (3 empties)", false, false, "--mode", "weak", "--leaf-empties", "3");
        add("othello6-semi-strong", "othello:6x6", o6, "semi-strong", "semi-strong", false, true);
        add("othello6-weak", "othello:6x6", o6, "weak", "weak", false, true, "--mode", "weak");
        add("othello8-weak-leaves", "othello:8x8", o8, "weak", "weak with leaves (4 empties)", false, false, "--mode", "weak", "--leaf-empties", "4");
        add("connect4-semi-strong", "connect4:4x4", "", "semi-strong", "semi-strong", false, false);
        add("connect4-weak-leaves", "connect4:4x4", "", "weak", "weak with leaves (2 empties)", false, false, "--mode", "weak", "--leaf-empties", "2");
        add("nogo9-semi-strong", "nogo:1x9", "", "semi-strong", "semi-strong", false, false);
        add("nogo9-weak", "nogo:1x9", "", "weak", "weak", false, false, "--mode", "weak");
        add("loa4-weak-ranked", "loa:4x4", "", "weak", "weak-ranked", false, false, "--mode", "weak-ranked");
        add("composite-nogo9-weak", "nogo:1x9", "", "weak", "weak", true, false, "--mode", "weak", "--split-at", "4");
        add("composite-othello4-weak-leaves", "othello:4x4", "", "weak", "weak with leaves (3 empties)", true, false, "--mode", "weak",
                "--leaf-empties", "3", "--split-at", "9");
        add("composite-nogo9-semi-strong", "nogo:1x9", "", "semi-strong", "semi-strong", true, false, "--split-at", "6");
    }

    static void add(String name, String game, String rootMoves, String bundleMode, String queryMode, boolean composite, boolean exportable,
                    String... extra) {
        List<String> solve = new ArrayList<>(List.of("solve", "--game", game, "--moves", rootMoves, "--tt-mb", "8", "-q"));
        solve.addAll(List.of(extra));
        if (game.startsWith("loa:")) solve.subList(3, 5).clear(); // LOA is solved from the start only
        KINDS.add(new Kind(name, solve, rootMoves, game, bundleMode, queryMode, composite, exportable));
    }

    /** A reproducible line of play from the start of an Othello game to a position with {@code empties} empty squares. */
    static String line(String game, int empties, long seed) {
        Game g = Game.parse(game);
        for (long s = seed; ; s++) {
            Random rnd = new Random(s);
            long[] p = g.start();
            long m = p[0], o = p[1];
            StringBuilder sb = new StringBuilder();
            while (g.cells - g.discs(m, o) > empties && !g.isTerminal(m, o)) {
                if (g.moves(m, o) == 0) { long t = m; m = o; o = t; } // a pass, implicit in the move sequence
                long mv = g.moves(m, o);
                int pick = rnd.nextInt(Long.bitCount(mv));
                for (int i = 0; i < pick; i++) mv &= mv - 1;
                int move = Long.numberOfTrailingZeros(mv);
                sb.append(g.moveName(move));
                long m2 = g.play(m, o, move);
                o &= ~m2;
                long t = o; o = m2; m = t;
            }
            if (!g.isTerminal(m, o) && g.moves(m, o) != 0) return sb.toString();
        }
    }

    static Stream<Kind> kinds() { return KINDS.stream(); }

    @BeforeAll static void makeEveryKind() throws IOException {
        jar = ReleaseTest.fakeVerifierJar(shared.resolve("verifier.jar"));
        for (Kind k : KINDS) {
            Path out = shared.resolve(k.composite ? k.name : k.name + ".gsc");
            List<String> a = new ArrayList<>(k.solve);
            a.addAll(List.of("--out", out.toString()));
            assertEquals(0, produce(a.toArray(new String[0])), k + ": " + lastErr);
            if (k.composite) {
                assertEquals(0, produce("solve-part", out.toString(), "--parts", "all", "--tt-mb", "8", "-q"), k + ": " + lastErr);
                assertEquals(0, produce("compose", out.toString()), k + ": " + lastErr);
            }
            made.put(k.name, out);
        }
    }

    static Path release(Path out, Path... inputs) {
        List<String> a = new ArrayList<>(List.of("release", "--title", "Every kind", "--author", "Ada King Lovelace", "--date", "2026-03-01",
                "--verifier-jar", jar.toString(), "--out", out.toString()));
        for (Path p : inputs) a.add(p.toString());
        assertEquals(0, produce(a.toArray(new String[0])), lastErr.toString());
        return out;
    }

    static String field(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\":(\"[^\"]*\"|-?\\d+|true|false)").matcher(json);
        assertTrue(m.find(), key + " in " + json);
        String v = m.group(1);
        return v.startsWith("\"") ? v.substring(1, v.length() - 1) : v;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void releasedBundleVerifiesAndQueryAnswersItsRootWithTheVerifiedValue(Kind k, @TempDir Path d) throws IOException {
        Path in = made.get(k.name);
        Path bundle = release(d.resolve("bundle"), in);
        BundleReport r = ReleaseTest.check(bundle, null);
        assertEquals("verified", r.verdict, () -> k + ": " + r.problems + " " + r.errorMessage);
        assertEquals(0, r.exitCode);
        assertEquals(1, r.citations.size(), r.citations.toString());
        assertTrue(r.citations.get(0).contains(" · " + k.game + " " + k.bundleMode), r.citations.toString());

        // The root, queried from the bundle's own copy, has the value the verifier proved.
        Path copy = bundle.resolve("data").resolve(in.getFileName());
        assertEquals(0, produce("query", copy.toString(), "--moves", k.rootMoves, "--json"), k + ": " + lastErr);
        String json = lastOut.toString().trim();
        int proved;
        if (k.composite) {
            assertEquals(1, r.composites.size());
            BundleReport.CompositeOutcome c = r.composites.get(0);
            assertEquals("verified", c.verdict, c.failure);
            assertEquals(c.compositeId, field(json, "composite"));
            proved = c.texts.rootValue();
        } else {
            BundleReport.CertificateOutcome c = r.certificates.get(0);
            assertEquals(c.commitment, field(json, "commitment"));
            proved = c.rootValue;
        }
        assertEquals(k.game, field(json, "game"));
        assertEquals(k.queryMode, field(json, "mode"));
        assertEquals("true", field(json, "in_certificate"), json);
        assertEquals(proved, Integer.parseInt(field(json, "lower")), json);
        assertEquals(proved, Integer.parseInt(field(json, "upper")), json);
        if (k.bundleMode.equals("semi-strong")) {
            assertEquals("true", field(json, "in_region"), json);
            assertFalse(field(json, "canonical_move").isEmpty());
        } else {
            assertEquals("false", field(json, "in_region"), json);
            assertFalse(field(json, "cut_move").isEmpty(), json); // a weak root claims its lower bound by a cut move
        }
        if (k.queryMode.equals("weak-ranked")) assertTrue(Integer.parseInt(field(json, "rank")) > 0, json);
        assertTrue(json.contains("\"moves\":[{\"move\":"), json);
    }

    /** Export writes what the peer 6x6 format holds (othello:6x6, semi-strong or weak) and refuses the rest in one line, exit 2. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void exportWritesWhatThePeerFormatHoldsAndNamesWhatItSupportsOtherwise(Kind k, @TempDir Path d) throws IOException {
        Path out = d.resolve("tables");
        int rc = produce("export", "--format", "peer-6x6", "--in", made.get(k.name).toString(), "--out", out.toString());
        if (k.exportable) {
            assertEquals(0, rc, lastErr.toString());
            CertificateReader c = CertificateReader.read(made.get(k.name));
            try (Stream<Path> s = Files.list(out)) { assertEquals(c.layers.size(), s.count()); }
            // The peer format's own check proves the same root value from the tables.
            PeerOptions o = new PeerOptions();
            o.input = out;
            o.threads = 2;
            PeerResult p = PeerVerifier.verify(o);
            assertEquals(PeerResult.Verdict.VERIFIED, p.verdict(), () -> p.error + " " + p.violation);
            assertEquals(c.rootValue, (int) p.rootValue);
            assertEquals(c.entries, p.entries());
            return;
        }
        assertEquals(2, rc, lastOut.toString());
        String err = lastErr.toString();
        assertEquals(1, err.lines().count(), err);
        assertTrue(err.startsWith("error: --format peer-6x6 supports othello:6x6 certificates, semi-strong or weak"), err);
        assertFalse(Files.exists(out), "nothing written");
    }

    /**
     * One bundle of every kind: the LOA certificate, which has no census rows, gets a census file
     * saying so and a panel without bars in census.svg; the bundle verifies as a whole.
     */
    @Test void oneBundleOfEveryKindVerifiesAndTheWeakRankedCensusSaysItHasNone(@TempDir Path d) throws Exception {
        Path dir = release(d.resolve("all"), made.values().toArray(new Path[0]));
        BundleReport r = ReleaseTest.check(dir, null);
        assertEquals("verified", r.verdict, () -> r.problems + " " + r.errorMessage);
        assertEquals(KINDS.size(), r.citations.size());
        String loa = Files.readString(dir.resolve("data/loa4-weak-ranked.census.json"));
        long entries = CertificateReader.read(made.get("loa4-weak-ranked")).entries;
        assertTrue(loa.contains("\"region_total\": 0,\n  \"aux_total\": " + entries + ",\n"), loa);
        assertTrue(loa.contains("\"census\": \"none: a weak-ranked certificate (SPEC 9.2)"), loa);
        assertTrue(loa.endsWith("\"rows\": []\n}\n"), loa);
        String svg = Files.readString(dir.resolve("data/census.svg"));
        assertTrue(svg.contains("no census rows to draw"), "the LOA panel's note in place of a plot");
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        assertEquals("svg", f.newDocumentBuilder().parse(dir.resolve("data/census.svg").toFile()).getDocumentElement().getLocalName());
        String readme = Files.readString(dir.resolve("data/README.md"));
        assertTrue(readme.contains("| `data/loa4-weak-ranked.gsc` | loa:4x4 | weak | 1 | 0 | " + entries + " |"), readme);
    }

    /** Query looks a weak-ranked certificate's entries up by key, whatever their rank: every move of the root's cut child is answered. */
    @Test void queryOfAWeakRankedCertificateFindsEntriesOfEveryRank() throws IOException {
        Path loa = made.get("loa4-weak-ranked");
        CertificateReader c = CertificateReader.read(loa);
        assertTrue(c.layers.size() > 1, "several ranks");
        assertEquals(0, produce("query", loa.toString(), "--moves", ""));
        String root = lastOut.toString();
        assertTrue(root.contains("cut move      b1-b3"), root); // the published first move, a1 top-left (SPEC 7.7)
        assertTrue(root.contains("rank " + c.layers.lastKey()), root);
        assertEquals(0, produce("query", loa.toString(), "--moves", "b1-b3", "--json"));
        String child = lastOut.toString();
        assertEquals("A", field(child, "kinds"), child);                 // every reply is refuted ...
        assertEquals(-1, Integer.parseInt(field(child, "upper")), child); // ... so White loses
        assertTrue(Integer.parseInt(field(child, "rank")) < c.layers.lastKey(), child);
        assertFalse(child.contains("\"lower\":-1,\"upper\":1"), "no move left unknown: " + child);
        assertEquals(2, produce("query", loa.toString(), "--moves", "b1-b4"));
        assertTrue(lastErr.toString().startsWith("error: bad --moves: move 1 'b1-b4' is illegal"), lastErr.toString());
    }
}
