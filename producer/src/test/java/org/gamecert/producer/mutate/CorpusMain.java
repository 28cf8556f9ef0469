package org.gamecert.producer.mutate;

import org.gamecert.producer.cli.ProduceMain;
import org.gamecert.producer.game.Game;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.engine.Verifier;
import org.gamecert.verifier.kernel.Violation;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Writes the curated corpus (testdata/: valid certificates and one mutant per mutation class, with
 * manifest.tsv) and the SPEC §14 vectors (format-spec/vectors/: a handful of tiny certificates, one
 * per common rule id, each with an xxd-style .hex dump, and vectors.tsv). A mutant is kept only when
 * the verifier rejects it with one of its class's expected rule ids, and that rule is what the
 * manifest records; an accepted or unexpectedly rejected mutant stops the generation.
 *
 * Usage: CorpusMain --testdata DIR --vectors DIR
 */
public final class CorpusMain {
    record Valid(String name, String game, String board, String mode, String description) {}

    public static void main(String[] args) throws Exception {
        Path testdata = null, vectors = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--testdata")) testdata = Paths.get(args[++i]);
            else if (args[i].equals("--vectors")) vectors = Paths.get(args[++i]);
            else { System.err.println("usage: CorpusMain --testdata DIR --vectors DIR"); System.exit(2); }
        }
        if (testdata != null) corpus(testdata);
        if (vectors != null) vectors(vectors);
    }

    static List<Valid> valids(Path dir) throws IOException {
        List<Valid> l = new ArrayList<>();
        l.add(firstSolvable("othello4x4-10discs", "othello:4x4", 10, 7, "semi-strong", "Othello 4x4, a random 10-disc position, semi-strong", dir));
        l.add(firstSolvable("othello4x4-8discs-weak", "othello:4x4", 8, 8, "weak", "Othello 4x4, a random 8-disc position, weak", dir));
        l.add(firstSolvable("connect4-4x4-8discs", "connect4:4x4", 8, 9, "semi-strong", "Connect Four 4x4, a random 8-disc position, semi-strong", dir));
        l.add(firstSolvable("connect4-5x4-11discs-weak", "connect4:5x4", 11, 10, "weak", "Connect Four 5x4, a random 11-disc position, weak", dir));
        return l;
    }

    private static String board(Game g, long[] p) { return g.boardText(p[0], p[1]); }

    /** Solves the first random root (seeds from {@code seed} on) that the producer can solve. */
    static Valid firstSolvable(String name, String game, int discs, long seed, String mode, String description, Path dir) throws IOException {
        Game g = Game.parse(game);
        for (long s = seed; s < seed + 50; s++) {
            Valid v = new Valid(name, game, board(g, AuditMain.playout(g, discs, new Random(s))), mode, description);
            try {
                solve(v, dir);
                return v;
            } catch (IOException e) {
                System.err.println("corpus: producer failed on " + game + " --board '" + v.board + "' --mode " + mode + "; next seed");
            }
        }
        throw new IOException("no solvable root for " + name);
    }

    static byte[] solve(Valid v, Path dir) throws IOException {
        Path out = dir.resolve(v.name + ".gsc");
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        int rc = ProduceMain.run(new String[]{"solve", "--game", v.game, "--board", v.board, "--mode", v.mode,
                "--threads", "1", "--tt-mb", "16", "-q", "--out", out.toString()}, new PrintStream(sink), System.err);
        if (rc != 0) throw new IOException("could not solve " + v.name);
        Result r = Verifier.verify(out, new Options());
        if (r.verdict != Result.Verdict.VERIFIED) throw new IOException(v.name + " is not verified: " + r.firstViolation());
        return Files.readAllBytes(out);
    }

    /** One line of a manifest. */
    record Line(String file, String verdict, String rule, String clazz, String description) {}

    static void corpus(Path dir) throws IOException {
        Path valid = dir.resolve("valid"), mutants = dir.resolve("mutants");
        Files.createDirectories(valid);
        Files.createDirectories(mutants);
        List<Line> lines = new ArrayList<>();
        Map<String, Ctx> ctxs = new LinkedHashMap<>();
        for (Valid v : valids(valid)) {
            byte[] bytes = Files.readAllBytes(valid.resolve(v.name + ".gsc"));
            lines.add(new Line("valid/" + v.name + ".gsc", "verified", "-", "-", v.description + " (root " + v.board + ")"));
            ctxs.put(v.name, Ctx.load(bytes, null));
        }
        Path tmp = Files.createTempFile("corpus-", ".gsc");
        for (MutationClass m : Mutations.ALL) {
            Line found = null;
            search:
            for (long seed = 1; seed <= 200 && found == null; seed++) {
                for (Map.Entry<String, Ctx> e : ctxs.entrySet()) {
                    Mutant mu = m.apply(e.getValue(), seed);
                    if (mu == null) continue;
                    Files.write(tmp, mu.bytes);
                    Result r = Verifier.verify(tmp, new Options());
                    if (r.verdict == Result.Verdict.VERIFIED) continue; // possibly equivalent: not a corpus example
                    Violation v = r.firstViolation();
                    if (r.verdict != Result.Verdict.REJECTED || v == null || !m.expectedRules.contains(v.rule()))
                        throw new IOException("class " + m.name + " seed " + seed + " on " + e.getKey() + ": " + r.verdict + " " + v
                                + " (expected one of " + m.expectedRules + ")");
                    String file = "mutants/" + m.name + ".gsc";
                    Files.write(dir.resolve(file), mu.bytes);
                    found = new Line(file, "rejected", v.rule(), m.name, "from " + e.getKey() + ", seed " + seed + ": " + mu.detail);
                    break search;
                }
            }
            if (found == null) throw new IOException("no rejected mutant of class " + m.name);
            lines.add(found);
        }
        Files.deleteIfExists(tmp);
        StringBuilder sb = new StringBuilder("# file\tformat\tverdict\trule\tclass\tdescription\n");
        for (Line l : lines) sb.append(l.file).append("\tgamecert\t").append(l.verdict).append('\t').append(l.rule).append('\t')
                .append(l.clazz).append('\t').append(l.description.replace('\t', ' ')).append('\n');
        // Lines this program does not make stay: hand-crafted certificates (testdata/crafted/, made
        // by the verifier's test-source CraftedCorpus) and the peer corpus (PeerCorpusMain).
        Path old = dir.resolve("manifest.tsv");
        if (Files.exists(old))
            for (String line : Files.readAllLines(old, StandardCharsets.UTF_8))
                if (line.startsWith("crafted/") || line.startsWith("peer/")) sb.append(line).append('\n');
        Files.writeString(dir.resolve("manifest.tsv"), sb.toString(), StandardCharsets.UTF_8);
        System.err.println("corpus: " + lines.size() + " lines in " + dir.resolve("manifest.tsv"));
    }

    /** Rule id -> the class that yields it on the tiny vector certificate. */
    private static final String[][] VECTOR_RULES = {
        {"R-CON-1", "truncated"}, {"R-CON-2", "block-size-over-limit"}, {"R-CON-3", "frame-bit-flip"},
        {"R-HASH-1", "chain-altered"}, {"R-HASH-2", "trailer-counts"}, {"R-HASH-3", "commitment-altered"},
        {"R-HDR-1", "version-unknown"}, {"R-HDR-2", "root-overlapping-discs"}, {"R-ENC-1", "varint-overflow"},
        {"R-ENC-2", "payload-extra-byte"}, {"R-KIND-1", "kind-invalid"}, {"R-VAL-0", "value-out-of-range"},
        {"R-MOVE-1", "move-illegal"}, {"R-LAY-1", "block-spliced"}, {"R-LAY-2", "entry-wrong-layer"},
        {"R-LAY-3", "key-order-broken"}, {"R-POS-1", "illegal-position"}, {"R-POS-2", "terminal-entry"},
        {"R-POS-3", "non-canonical-key"}, {"R-SERVE-1", "child-not-p"}, {"R-P-1", "exact-value-shift"},
        {"R-TB-1", "best-move-non-maximizer"}, {"R-CUT-1", "lower-bound-raised"}, {"R-ALL-1", "upper-bound-lowered"},
        {"R-ROOT-2", "root-value-changed"}, {"R-CENSUS-1", "census-altered"},
    };

    static void vectors(Path dir) throws IOException {
        Files.createDirectories(dir);
        Valid tiny = firstSolvable("valid-othello4x4", "othello:4x4", 10, 3, "semi-strong", "Othello 4x4, a 10-disc position, semi-strong", dir);
        Valid tinyWeak = new Valid("valid-othello4x4-weak", "othello:4x4", tiny.board, "weak", "the same position, weak");
        List<Line> lines = new ArrayList<>();
        byte[] base = solve(tiny, dir);
        hex(dir, tiny.name + ".gsc", base);
        lines.add(new Line(tiny.name + ".gsc", "verified", "-", "-", tiny.description + " (root " + tiny.board + ")"));
        byte[] weak = solve(tinyWeak, dir);
        hex(dir, tinyWeak.name + ".gsc", weak);
        lines.add(new Line(tinyWeak.name + ".gsc", "verified", "-", "-", tinyWeak.description));
        byte[] notCert = "GSCF is not at byte 8".getBytes(StandardCharsets.US_ASCII);
        Files.write(dir.resolve("error-not-a-certificate.gsc"), notCert);
        hex(dir, "error-not-a-certificate.gsc", notCert);
        lines.add(new Line("error-not-a-certificate.gsc", "error", "-", "-", "no HEADER magic: not a certificate (SPEC §2)"));
        Ctx ctx = Ctx.load(base, null), weakCtx = Ctx.load(weak, null);
        Path tmp = Files.createTempFile("vector-", ".gsc");
        for (String[] rc : VECTOR_RULES) {
            MutationClass m = Mutations.byName(rc[1]);
            Line found = null;
            for (long seed = 1; seed <= 500 && found == null; seed++) {
                for (Ctx c : new Ctx[]{ctx, weakCtx}) {
                    Mutant mu = m.apply(c, seed);
                    if (mu == null) continue;
                    Files.write(tmp, mu.bytes);
                    Result r = Verifier.verify(tmp, new Options());
                    Violation v = r.firstViolation();
                    if (r.verdict != Result.Verdict.REJECTED || v == null || !v.rule().equals(rc[0])) continue;
                    String file = "rejected-" + rc[0].toLowerCase().substring(2) + ".gsc";
                    Files.write(dir.resolve(file), mu.bytes);
                    hex(dir, file, mu.bytes);
                    found = new Line(file, "rejected", rc[0], m.name, m.name + ": " + mu.detail + (c == weakCtx ? " (weak base)" : ""));
                    break;
                }
            }
            if (found == null) { System.err.println("vectors: no " + rc[0] + " vector from class " + rc[1]); continue; }
            lines.add(found);
        }
        Files.deleteIfExists(tmp);
        StringBuilder sb = new StringBuilder("# file\tverdict\trule\tdescription\n");
        for (Line l : lines) sb.append(l.file).append('\t').append(l.verdict).append('\t').append(l.rule).append('\t')
                .append(l.description.replace('\t', ' ')).append('\n');
        // The edge-* vectors are crafted by the verifier's test-source SpecEdgeVectors: they stay.
        Path old = dir.resolve("vectors.tsv");
        if (Files.exists(old))
            for (String line : Files.readAllLines(old, StandardCharsets.UTF_8)) if (line.startsWith("edge-")) sb.append(line).append('\n');
        Files.writeString(dir.resolve("vectors.tsv"), sb.toString(), StandardCharsets.UTF_8);
        System.err.println("vectors: " + lines.size() + " in " + dir.resolve("vectors.tsv"));
    }

    /** An `xxd`-style dump: offset, 8 groups of 2 bytes, the printable ASCII. */
    static void hex(Path dir, String file, byte[] b) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int off = 0; off < b.length; off += 16) {
            sb.append(String.format("%08x:", off));
            for (int i = 0; i < 16; i++) {
                if (i % 2 == 0) sb.append(' ');
                sb.append(off + i < b.length ? String.format("%02x", b[off + i] & 0xFF) : "  ");
            }
            sb.append("  ");
            for (int i = off; i < Math.min(b.length, off + 16); i++) sb.append(b[i] >= 0x20 && b[i] < 0x7F ? (char) b[i] : '.');
            sb.append('\n');
        }
        Files.writeString(dir.resolve(file + ".hex"), sb.toString(), StandardCharsets.US_ASCII);
    }
}
