package org.gamecert.verifier.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gamecert.verifier.kernel.Combiner;
import org.gamecert.verifier.kernel.FileMap;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.SliceCheck;
import org.gamecert.verifier.kernel.SliceReport;
import org.gamecert.verifier.kernel.TerminalCount;
import org.gamecert.verifier.kernel.format.BlockRecord;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.format.DataFrame;
import org.gamecert.verifier.kernel.format.FormatException;
import org.gamecert.verifier.kernel.format.Header;
import org.gamecert.verifier.kernel.format.Payload;

/**
 * A test's own engine for the sequential kernel, over its public API only (FileMap, SliceCheck,
 * Combiner), one thread, with a hook at every choice an engine makes: the order of the layers,
 * the slices, the frames handed to a slice, the order of a slice's steps, the answers, the
 * counts, the reports, the map a slice or the Combiner is made on. Honest by default: then it
 * concludes as SliceEngine does for a composite's part (forComposition, unless a test turns it
 * off). Untrusted like any engine: the tests drive it wrong on purpose.
 */
class KernelDriver {
    final Path file;
    final FileMap map;
    final Container ct;
    boolean strict, all;
    /** A part: the composite its slices, and its Combiner, are told it is checked for. */
    org.gamecert.verifier.kernel.format.Manifest slicesFor, combinerFor;
    int slicesPart = -1, combinerPart = -1;
    int maxPerRule = 10;
    long sliceEntries = 1;
    /** The partitions terminal keys are counted in (every game but Othello counts them). */
    int partitions = 3;
    /** Conclude with a PartConclusion, as a composite's engine asks (Combiner.forComposition). */
    boolean forComposition = true;

    KernelDriver(Path file) throws IOException {
        this(file, false);
    }

    /** cluster: the map is read for a check across JVMs (the Combiner takes reports as given). */
    KernelDriver(Path file, boolean cluster) throws IOException {
        this.file = file;
        this.ct = new Container(file);
        try {
            this.map = cluster ? FileMap.readForCluster(ct) : FileMap.read(ct);
        } catch (FileMap.HeaderViolation e) {
            throw new AssertionError("a test file whose header breaks a rule: " + e.violation, e);
        }
    }

    /** The honest engine's order: shallowest first (the file's last layer), each once. */
    int[] layerOrder() {
        int[] o = new int[map.layers()];
        for (int i = 0; i < o.length; i++) o[i] = o.length - 1 - i;
        return o;
    }

    /** The map a slice of layer li (blocks first..) is checked on. */
    FileMap sliceMap(int li, int first) {
        return map;
    }

    /** Slices made by the driver itself (as an engine might try), not by the Combiner. */
    boolean slicesOfItsOwn;

    /**
     * A slice's kernel: made by the Combiner (Combiner.slice), as an honest engine makes it, unless
     * it is to be checked on another map or the driver makes its slices itself (slicesOfItsOwn).
     */
    SliceCheck newSlice(Combiner combiner, int li, Slice s, SliceCheck.Setup setup) {
        FileMap m = sliceMap(li, s.first);
        return m == map && !slicesOfItsOwn ? combiner.slice(li, s.first, s.end, setup)
                : new SliceCheck(m, li, s.first, s.end, all, maxPerRule, setup);
    }

    /** The bytes handed to a slice for block b (the engine's array: the kernel copies it). */
    byte[] frame(int li, int b, byte[] honest) {
        return honest;
    }

    /** Called after block b's frame was handed to its slice (the engine's array, still in hand). */
    void afterDecode(int b, byte[] handed) {}

    void answers(int li, int first, long[][] req, long[] index, byte[] kind, byte[] lo, byte[] hi) {}

    void counts(int li, int first, int[] facts, int[][] bits) {}

    List<SliceReport> reports(int li, List<SliceReport> honest) {
        return honest;
    }

    /** Steps of one slice, in the honest order; a test may take them otherwise. */
    SliceReport steps(SliceCheck check, Slice s, int[] facts, int[][] bits, Table under)
            throws IOException {
        for (int b = s.first; b < s.end; b++) {
            byte[] handed = frame(s.li, b, honestFrame(b));
            check.decode(b, handed);
            afterDecode(b, handed);
        }
        check.takeCounts(SliceEngine.interleaved(facts, bits), 0);
        long[][] req = SliceEngine.requests(check);
        Answers a = under.answer(req);
        answers(s.li, s.first, req, a.index, a.kind, a.lo, a.hi);
        return SliceEngine.check(check, a.index, a.kind, a.lo, a.hi);
    }

    // ---------------------------------------------------------------- the run

    record Slice(int li, int first, int end, long base, long count) {}

    static final class Answers {
        long[] index;
        byte[] kind, lo, hi;
    }

    /** The engine's own decoded copy of a layer (the kernel trusts none of it). */
    static final class Table {
        final List<long[]> keys = new ArrayList<>();
        final Map<List<Long>, Integer> at = new HashMap<>();
        byte[] kind = new byte[0], lo = new byte[0], hi = new byte[0];
        int n;

        Answers answer(long[][] req) {
            Answers a = new Answers();
            int m = req[0].length;
            a.index = new long[m];
            a.kind = new byte[m];
            a.lo = new byte[m];
            a.hi = new byte[m];
            for (int j = 0; j < m; j++) {
                Integer i = at.get(List.of(req[0][j], req[1][j]));
                a.index[j] = i == null ? -1 : i;
                if (i != null) {
                    a.kind[j] = kind[i];
                    a.lo[j] = lo[i];
                    a.hi[j] = hi[i];
                }
            }
            return a;
        }
    }

    byte[] honestFrame(int b) throws IOException {
        BlockRecord r = map.record(b);
        return ct.read(r.frameOffset, (int) r.compLen);
    }

    /** Layer li as the engine decodes it, up to its first block that fails to decode. */
    Table table(int li) throws IOException {
        Table t = new Table();
        if (li < 0) return t;
        int cap = (int) map.size(li);
        t.kind = new byte[cap];
        t.lo = new byte[cap];
        t.hi = new byte[cap];
        Header h = map.header();
        boolean weak = h.baseMode != Header.SEMI_STRONG;
        for (int b = map.firstBlock(li); b < map.endBlock(li); b++) {
            BlockRecord r = map.record(b);
            try {
                byte[] raw = DataFrame.decompress(honestFrame(b), (int) r.rawLen, r.index);
                Payload p = Payload.decode(raw, (int) r.count, weak, h.part, Long.MIN_VALUE,
                        map.game().uMin, map.game().uMax, null);
                for (int i = 0; i < p.count; i++) {
                    t.keys.add(new long[] {p.occ[i], p.mover[i]});
                    t.at.put(List.of(p.occ[i], p.mover[i]), t.n);
                    t.kind[t.n] = p.kind[i];
                    t.lo[t.n] = p.lo[i];
                    t.hi[t.n++] = p.hi[i];
                }
            } catch (FormatException e) {
                break;
            }
        }
        return t;
    }

    /** Layer li cut into slices of about sliceEntries entries, at block boundaries. */
    Slice[] plan(int li) {
        List<Slice> out = new ArrayList<>();
        int b = map.firstBlock(li);
        long base = 0;
        while (b < map.endBlock(li)) {
            int first = b;
            long count = 0;
            do count += map.record(b++).count;
            while (b < map.endBlock(li) && count + map.record(b).count <= sliceEntries);
            out.add(new Slice(li, first, b, base, count));
            base += count;
        }
        return out.toArray(new Slice[0]);
    }

    /** Open entries of the file before each block (a part), by the engine's own decoding. */
    long[] openBefore() throws IOException {
        Header h = map.header();
        boolean weak = h.baseMode != Header.SEMI_STRONG;
        long[] before = new long[map.blocks() + 1];
        for (int b = 0; b < map.blocks(); b++) {
            BlockRecord r = map.record(b);
            long n = 0;
            try {
                byte[] raw = DataFrame.decompress(honestFrame(b), (int) r.rawLen, r.index);
                Payload p = Payload.decode(raw, (int) r.count, weak, true, Long.MIN_VALUE,
                        map.game().uMin, map.game().uMax, null);
                for (int i = 0; i < p.count; i++) if (Payload.isOpen(p.kind[i])) n++;
            } catch (FormatException e) {
                n = 0;
            }
            before[b + 1] = before[b] + n;
        }
        return before;
    }

    Combiner combiner() {
        return new Combiner(map, strict, all, maxPerRule);
    }

    /** The run; an engine fault ends it as the verifier ends it (ERROR, "engine fault: ..."). */
    Result run() throws IOException {
        try {
            return runOrThrow();
        } catch (RuntimeException e) {
            return AttackCerts.faultAsResult(e);
        } finally {
            ct.close();
        }
    }

    Result runOrThrow() throws IOException {
        Combiner combiner = combiner();
        long[] open = map.header().part ? openBefore() : null;
        if (open != null) combiner.partOf(combinerFor, combinerPart, false);
        if (forComposition) combiner.forComposition();
        Map<Integer, int[]> factsTo = new HashMap<>();
        Map<Integer, int[][]> bitsTo = new HashMap<>();
        boolean terminals = map.header().family != Header.OTHELLO;
        for (int li : layerOrder()) {
            Slice[] slices = plan(li);
            List<long[][]> keys = new ArrayList<>();
            Table own = table(li);
            int below = map.below(li);
            Table under = table(below);
            int[] facts = factsTo.getOrDefault(li, new int[(int) map.size(li)]);
            int[][] bits = bitsTo.getOrDefault(li, new int[4][(int) map.size(li)]);
            List<SliceReport> reports = new ArrayList<>();
            for (Slice s : slices) {
                boolean has = s.base > 0 && s.base <= own.n;
                long[] prev = own.keys.isEmpty() || !has ? new long[2] : own.keys.get((int) s.base - 1);
                int parts = terminals ? partitions : 0;
                SliceCheck check = newSlice(combiner, li, s, open == null
                        ? new SliceCheck.Setup(has, prev[0], prev[1], parts)
                        : new SliceCheck.Setup(has, prev[0], prev[1], parts, open[s.first],
                                slicesFor, slicesPart, -1));
                int[] f = factsOf(facts, s);
                int[][] bs = bitsOf(bits, s);
                counts(li, s.first, f, bs);
                reports.add(steps(check, s, f, bs, under));
                if (terminals) keys.add(check.terminalKeys());
                if (below >= 0) sendMarks(check, map, below, factsTo, bitsTo);
            }
            combiner.layer(li, reports(li, reports).toArray(new SliceReport[0]),
                    terminals ? count(combiner, li, keys) : new TerminalCount.Report[0]);
        }
        return combiner.conclude();
    }

    /** Slice s's part of its layer's fact counts (a copy). */
    static int[] factsOf(int[] facts, Slice s) {
        return java.util.Arrays.copyOfRange(facts, (int) s.base, (int) (s.base + s.count));
    }

    /** Slice s's part of its layer's flag counts, one array a flag (copies). */
    static int[][] bitsOf(int[][] bits, Slice s) {
        int[][] out = new int[bits.length][];
        for (int q = 0; q < bits.length; q++)
            out[q] = java.util.Arrays.copyOfRange(bits[q], (int) s.base, (int) (s.base + s.count));
        return out;
    }

    /**
     * The facts a checked slice sent (its marks), added to the counts of layer below's entries
     * (factsTo, bitsTo: the counts of each layer by its index, made when first needed).
     */
    static void sendMarks(SliceCheck check, FileMap map, int below, Map<Integer, int[]> factsTo,
            Map<Integer, int[][]> bitsTo) {
        int[] nf = factsTo.computeIfAbsent(below, x -> new int[(int) map.size(x)]);
        int[][] nb = bitsTo.computeIfAbsent(below, x -> new int[4][(int) map.size(x)]);
        long[] idx = check.marksIndex();
        byte[] fl = check.marksFlags();
        for (int j = 0; j < idx.length; j++) {
            nf[(int) idx[j]]++;
            for (int q = 0; q < 4; q++) if ((fl[j] >>> q & 1) != 0) nb[q][(int) idx[j]]++;
        }
    }

    /** Each terminal key the slices routed, taken by its partition's counter (honestly). */
    TerminalCount.Report[] count(Combiner combiner, int li, List<long[][]> keys) {
        TerminalCount[] counts = new TerminalCount[partitions];
        for (int q = 0; q < partitions; q++) counts[q] = combiner.terminalCount(li, q, partitions, 0, 0);
        for (long[][] k : keys)
            for (int x = 0; x < k[0].length; x++)
                counts[TerminalCount.partitionOf(k[2][x])].take(k[0][x], k[1][x], k[2][x]);
        TerminalCount.Report[] out = new TerminalCount.Report[partitions];
        for (int q = 0; q < partitions; q++) out[q] = counts[q].report();
        return out;
    }

    static String show(Result r) {
        return r.verdict + " " + r.errorMessage + " " + r.firstViolation();
    }
}
