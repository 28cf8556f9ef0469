package org.gamecert.verifier.peer;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.gamecert.verifier.kernel.rules.OthelloRules;

/**
 * Test-side producer of genuine peer tables: solves a 6×6 position exhaustively (negamax over
 * every reachable position, memoised by canonical key) and writes the semi-strong record set the
 * peer's pipeline would: PV along the principal line, ALL' / PV' for the two optimal sides, and
 * CUT / ALL records proving every refutation, merged per position (kinds OR-ed, lower bound max,
 * upper bound min). Also writes them as .tar, .tar.zst and split parts with SHA256SUMS.
 */
public final class PeerTableGenerator {
    static final int PV = 1, AP = 2, PP = 4, ALL = 8, CUT = 16;
    final OthelloRules rules = new OthelloRules(6);
    final LongMap values = new LongMap(1 << 16);   // canonical order key -> value + 64
    final LongMap records = new LongMap(1 << 16);  // canonical order key -> packed record
    private final long[] can = new long[2];

    /** Exact value of (mover, opp), mover's view. */
    int solve(long mover, long opp) {
        long[] c = new long[2];
        PeerCodec.canonical(mover, opp, c);
        long key = PeerCodec.orderKey(c[0], c[1]);
        long got = values.get(key);
        if (got != LongMap.MISSING) return (int) got - 64;
        long moves = rules.legalMoves(mover, opp);
        int best;
        if (moves == 0) {
            if (rules.legalMoves(opp, mover) == 0) best = rules.terminalValue(mover, opp);
            else best = -solve(opp, mover);
        } else {
            best = -100;
            while (moves != 0) {
                int sq = Long.numberOfTrailingZeros(moves);
                moves &= moves - 1;
                long f = rules.flips(mover, opp, sq);
                int w = -solve(opp & ~f, mover | f | (1L << sq));
                if (w > best) best = w;
            }
        }
        values.put(key, best + 64);
        return best;
    }

    // Packed record: kind 5 bits | lb+36 <<5 | ub+36 <<12 | expanded kinds <<19 | expanded cut lb+36 <<24 | expanded all ub+36 <<31
    private static long pack(int kind, int lb, int ub, int ek, int ecut, int eall) {
        return kind | (long) (lb + 36) << 5 | (long) (ub + 36) << 12 | (long) ek << 19 | (long) (ecut + 36) << 24 | (long) (eall + 36) << 31;
    }

    /** A move's outcome: child (mover, opp, sign) or terminal value. */
    private final class Move {
        int sq, sign, terminal;
        long cm, co;
        boolean isTerminal;
        int value;
    }

    private List<Move> moves(long mover, long opp) {
        List<Move> out = new ArrayList<>();
        long moves = rules.legalMoves(mover, opp);
        while (moves != 0) {
            int sq = Long.numberOfTrailingZeros(moves);
            moves &= moves - 1;
            long f = rules.flips(mover, opp, sq);
            long m2 = mover | f | (1L << sq), o2 = opp & ~f;
            Move m = new Move();
            m.sq = sq;
            if (rules.legalMoves(o2, m2) != 0) {
                m.sign = -1;
                m.cm = o2;
                m.co = m2;
                m.value = -solve(o2, m2);
            } else if (rules.legalMoves(m2, o2) != 0) {
                m.sign = 1;
                m.cm = m2;
                m.co = o2;
                m.value = solve(m2, o2);
            } else {
                m.isTerminal = true;
                m.value = rules.terminalValue(m2, o2);
            }
            out.add(m);
        }
        return out;
    }

    /** Records the semi-strong certificate of the root (its mover must have a move). */
    public void certify(long mover, long opp) {
        need(mover, opp, PV, 0);
    }

    /** Places need (PV, AP, PP, CUT with bound, ALL with bound) on a position that has a move. */
    void need(long mover, long opp, int kind, int bound) {
        PeerCodec.canonical(mover, opp, can);
        long m = can[0], o = can[1];
        long key = PeerCodec.orderKey(m, o);
        long r = records.get(key);
        int k = 0, lb = -36, ub = 36, ek = 0, ecut = -36, eall = 36;
        if (r != LongMap.MISSING) {
            k = (int) (r & 31);
            lb = (int) (r >>> 5 & 127) - 36;
            ub = (int) (r >>> 12 & 127) - 36;
            ek = (int) (r >>> 19 & 31);
            ecut = (int) (r >>> 24 & 127) - 36;
            eall = (int) (r >>> 31 & 127) - 36;
        }
        int v = solve(m, o);
        boolean expand;
        if (kind == CUT) {
            k |= CUT;
            lb = Math.max(lb, bound);
            expand = (ek & CUT) == 0 || bound > ecut;
            if (expand) {
                ek |= CUT;
                ecut = Math.max(ecut, bound);
            }
        } else if (kind == ALL) {
            k |= ALL;
            ub = Math.min(ub, bound);
            expand = (ek & ALL) == 0 || bound < eall;
            if (expand) {
                ek |= ALL;
                eall = Math.min(eall, bound);
            }
        } else {
            k |= kind;
            lb = Math.max(lb, v);
            ub = Math.min(ub, v);
            expand = (ek & kind) == 0;
            ek |= kind;
        }
        records.put(key, pack(k, lb, ub, ek, ecut, eall));
        if (!expand) return;
        List<Move> ms = moves(m, o);
        Move best = null;
        for (Move mv : ms) if (mv.value == v && best == null) best = mv;
        switch (kind) {
            case PV:
                for (Move mv : ms) childNeed(mv, mv == best ? PV : AP, 0);
                break;
            case AP:
                for (Move mv : ms) {
                    if (mv == best) childNeed(mv, PP, 0);
                    else childBound(mv, v, false);
                }
                break;
            case PP:
                for (Move mv : ms) childNeed(mv, AP, 0);
                break;
            case CUT: {
                if (bound <= -36) break;
                Move cut = null;
                for (Move mv : ms) if (mv.value >= bound) { cut = mv; break; }
                childBound(cut, bound, true);
                break;
            }
            default:
                if (bound >= 36) break;
                for (Move mv : ms) childBound(mv, bound, false);
        }
    }

    /** Region need through the move; a contracted pass maps A' and P' onto each other. */
    private void childNeed(Move mv, int kind, int unused) {
        if (mv.isTerminal) return;
        int k = kind;
        if (mv.sign > 0) k = kind == AP ? PP : kind == PP ? AP : kind;
        need(mv.cm, mv.co, k, 0);
    }

    /** Bound need: the move proven ≥ bound (lower) or ≤ bound (upper). */
    private void childBound(Move mv, int bound, boolean lower) {
        if (mv.isTerminal) return;
        if (lower ? bound <= -36 : bound >= 36) return;
        if (mv.sign < 0) {
            // w = −V(child): w ≥ b ⇔ V(child) ≤ −b (ALL); w ≤ b ⇔ V(child) ≥ −b (CUT)
            if (lower) need(mv.cm, mv.co, ALL, -bound);
            else need(mv.cm, mv.co, CUT, -bound);
        } else {
            need(mv.cm, mv.co, lower ? CUT : ALL, bound);
        }
    }

    // ---- output ----------------------------------------------------------------------------

    /** The records as tables: disc count -> 13-byte records sorted by encode_bb (unsigned). */
    public TreeMap<Integer, byte[]> tables() {
        return tables(records, false);
    }

    /** Strong export straight from the solve memo (no copy): non-pass positions, PV chain marked. */
    public TreeMap<Integer, byte[]> strongTables() {
        return tables(values, true);
    }

    private TreeMap<Integer, byte[]> tables(LongMap source, boolean strong) {
        TreeMap<Integer, long[]> keysBy = new TreeMap<>();
        TreeMap<Integer, Integer> counts = new TreeMap<>();
        long[] pos = new long[2];
        source.forEach((k, v) -> {
            PeerCodec.fromOrderKey(k, pos);
            if (strong && rules.legalMoves(pos[0], pos[1]) == 0) return; // pass or terminal: never stored
            counts.merge(Long.bitCount(pos[0] | pos[1]), 1, Integer::sum);
        });
        for (var e : counts.entrySet()) keysBy.put(e.getKey(), new long[e.getValue()]);
        TreeMap<Integer, Integer> fill = new TreeMap<>();
        source.forEach((k, v) -> {
            PeerCodec.fromOrderKey(k, pos);
            if (strong && rules.legalMoves(pos[0], pos[1]) == 0) return;
            int d = Long.bitCount(pos[0] | pos[1]);
            int i = fill.merge(d, 1, Integer::sum) - 1;
            keysBy.get(d)[i] = k ^ Long.MIN_VALUE; // signed sort of flipped keys = unsigned order
        });
        TreeMap<Integer, byte[]> out = new TreeMap<>();
        for (var e : keysBy.entrySet()) {
            long[] ks = e.getValue();
            Arrays.sort(ks);
            byte[] buf = new byte[ks.length * 13];
            for (int i = 0; i < ks.length; i++) {
                long k = ks[i] ^ Long.MIN_VALUE;
                PeerCodec.fromOrderKey(k, pos);
                if (strong) {
                    int val = (int) values.get(k) - 64;
                    int kind = records.get(k) != LongMap.MISSING ? PV : AP | PP;
                    PeerCodec.encodeRecord(pos[0], pos[1], kind, val, val, buf, i * 13);
                } else {
                    long r = records.get(k);
                    PeerCodec.encodeRecord(pos[0], pos[1], (int) (r & 31), (int) (r >>> 5 & 127) - 36, (int) (r >>> 12 & 127) - 36, buf, i * 13);
                }
            }
            out.put(e.getKey(), buf);
        }
        return out;
    }

    public static void writeDirectory(TreeMap<Integer, byte[]> tables, Path dir) throws IOException {
        Files.createDirectories(dir);
        for (var e : tables.entrySet()) Files.write(dir.resolve(PeerSource.tableFileName(e.getKey())), e.getValue());
    }

    public static void writeTar(TreeMap<Integer, byte[]> tables, OutputStream raw) throws IOException {
        writeTar(tables, raw, new ArrayList<>(tables.keySet()));
    }

    /** The tables in the given order (a tar of a directory lists its files in whatever order it saw). */
    public static void writeTar(TreeMap<Integer, byte[]> tables, OutputStream raw, List<Integer> order) throws IOException {
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(raw)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
            for (int n : order) {
                byte[] b = tables.get(n);
                TarArchiveEntry te = new TarArchiveEntry("postprocess3/" + PeerSource.tableFileName(n));
                te.setSize(b.length);
                tar.putArchiveEntry(te);
                tar.write(b);
                tar.closeArchiveEntry();
            }
        }
    }

    public static void writeTarZst(TreeMap<Integer, byte[]> tables, Path file) throws IOException {
        try (OutputStream out = new ZstdOutputStream(new BufferedOutputStream(Files.newOutputStream(file)), 3)) {
            writeTar(tables, out);
        }
    }

    /** Splits file into parts NAME.00, NAME.01, … of partSize bytes and writes SHA256SUMS; deletes file. */
    public static List<Path> split(Path file, int partSize) throws IOException {
        byte[] all = Files.readAllBytes(file);
        List<Path> parts = new ArrayList<>();
        StringBuilder sums = new StringBuilder();
        for (int i = 0, off = 0; off < all.length; i++, off += partSize) {
            Path p = file.resolveSibling(file.getFileName() + String.format(".%02d", i));
            Files.write(p, Arrays.copyOfRange(all, off, Math.min(all.length, off + partSize)));
            parts.add(p);
            sums.append(Sha256Sums.sha256(p)).append("  ").append(p.getFileName()).append('\n');
        }
        Files.delete(file);
        Files.writeString(file.resolveSibling("SHA256SUMS"), sums.toString());
        return parts;
    }

    /**
     * The genuine semi-strong tables of n distinct roots with the given empties (random positions,
     * seeds 1, 2, …): the lowest table holds the n roots' PV records alone.
     */
    public static TreeMap<Integer, byte[]> severalRoots(int n, int empties) {
        PeerTableGenerator g = new PeerTableGenerator();
        java.util.TreeSet<Long> keys = new java.util.TreeSet<>();
        long[] c = new long[2];
        for (long seed = 1; keys.size() < n; seed++) {
            long[] p = randomPosition(g.rules, seed, empties);
            PeerCodec.canonical(p[0], p[1], c);
            if (!keys.add(PeerCodec.orderKey(c[0], c[1]))) continue;
            g.solve(p[0], p[1]);
            g.certify(p[0], p[1]);
        }
        return g.tables();
    }

    /**
     * Root i of the lowest table rewritten to a claim whose obliged bound is true and whose other
     * bound is false (the root's value v): CUT [v−2, v−2], or ALL [v+2, v+2] for odd i (or where
     * v−2 is below −36). PEER-ROOT-4: its value is not established.
     */
    public static void unsettleRoot(byte[] lowest, int i) {
        long[] pos = new long[2];
        PeerCodec.decodeKey(lowest, i * 13, pos);
        int value = PeerCodec.symbol(lowest[i * 13 + 10]) - PeerCodec.MAX_VALUE;
        if (value - 2 >= -PeerCodec.MAX_VALUE && (i % 2 == 0 || value + 2 > PeerCodec.MAX_VALUE))
            PeerCodec.encodeRecord(pos[0], pos[1], PeerCodec.CUT, value - 2, value - 2, lowest, i * 13);
        else
            PeerCodec.encodeRecord(pos[0], pos[1], PeerCodec.ALL, value + 2, value + 2, lowest, i * 13);
    }

    /** A position reached by random legal moves from the start until {@code empties} remain. */
    public static long[] randomPosition(OthelloRules rules, long seed, int empties) {
        SplittableRandom rnd = new SplittableRandom(seed);
        while (true) {
            long[] p = PeerVerifier.initial();
            long m = p[0], o = p[1];
            while (36 - Long.bitCount(m | o) > empties) {
                long moves = rules.legalMoves(m, o);
                if (moves == 0) {
                    if (rules.legalMoves(o, m) == 0) break;
                    long t = m; m = o; o = t;
                    continue;
                }
                int pick = rnd.nextInt(Long.bitCount(moves));
                for (int i = 0; i < pick; i++) moves &= moves - 1;
                int sq = Long.numberOfTrailingZeros(moves);
                long f = rules.flips(m, o, sq);
                long nm = o & ~f, no = m | f | (1L << sq);
                m = nm;
                o = no;
            }
            if (36 - Long.bitCount(m | o) == empties && rules.legalMoves(m, o) != 0) return new long[] {m, o};
        }
    }

    /**
     * Strong export: every solved position whose mover has a move, exact, as ALL'+PV' (kind 6),
     * and PV along each root's principal line. A valid peer table set (every P' child serves A',
     * every A' has its maximizing child serving P'), far larger per solve than the semi-strong set.
     */
    public void certifyStrong(long mover, long opp) {
        solve(mover, opp);
        long m = mover, o = opp;
        long[] c = new long[2];
        while (true) {
            PeerCodec.canonical(m, o, c);
            records.put(PeerCodec.orderKey(c[0], c[1]), pack(PV, solve(m, o), solve(m, o), PV, -36, 36));
            Move best = null;
            int v = solve(m, o);
            for (Move mv : moves(m, o)) if (mv.value == v && best == null) best = mv;
            if (best == null || best.isTerminal) return;
            m = best.cm;
            o = best.co;
        }
    }

    /**
     * Generates tables; args: empties seed outDir [dir|tar|tarzst|split] [semi|strong] [roots].
     * With several roots, the roots are random positions with that many empties (seeds seed, seed+1, …).
     */
    public static void main(String[] args) throws IOException {
        int empties = Integer.parseInt(args[0]);
        long seed = Long.parseLong(args[1]);
        Path out = Path.of(args[2]);
        String form = args.length > 3 ? args[3] : "dir";
        long t0 = System.nanoTime();
        boolean strong = args.length > 4 && args[4].equals("strong");
        int roots = args.length > 5 ? Integer.parseInt(args[5]) : 1;
        PeerTableGenerator g = new PeerTableGenerator();
        long[] root = null;
        int v = 0;
        for (int i = 0; i < roots; i++) {
            root = randomPosition(g.rules, seed + i, empties);
            v = g.solve(root[0], root[1]);
            if (strong) g.certifyStrong(root[0], root[1]);
            else g.certify(root[0], root[1]);
            System.err.printf("root %d/%d solved: %,d positions so far%n", i + 1, roots, g.values.size());
        }
        TreeMap<Integer, byte[]> tables = strong ? g.strongTables() : g.tables();
        g.values.clear();
        long recs = 0;
        for (byte[] b : tables.values()) recs += b.length / 13;
        System.err.printf("last root %s value %d: %,d records in %d tables, %.1f s%n", PeerCodec.board(root[0], root[1]), v,
                recs, tables.size(), (System.nanoTime() - t0) / 1e9);
        Files.createDirectories(out);
        switch (form) {
            case "dir": writeDirectory(tables, out); break;
            case "tar": try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(out.resolve("postprocess3.tar")))) { writeTar(tables, o); } break;
            case "tarzst": writeTarZst(tables, out.resolve("postprocess3.tar.zst")); break;
            default: writeTarZst(tables, out.resolve("postprocess3.tar.zst")); split(out.resolve("postprocess3.tar.zst"), 1 << 20);
        }
        System.out.println(PeerCodec.board(root[0], root[1]) + "\t" + v + "\t" + recs);
    }

    /** Open-addressing long -> long map (no boxing); keys are never 0 (order keys of real positions are not). */
    static final class LongMap {
        static final long MISSING = Long.MIN_VALUE;
        long[] keys, vals;
        int size, mask;

        LongMap(int cap) {
            keys = new long[cap];
            vals = new long[cap];
            mask = cap - 1;
        }

        private int slot(long k) {
            long h = k * 0x9E3779B97F4A7C15L;
            return (int) (h ^ (h >>> 29)) & mask;
        }

        long get(long k) {
            for (int i = slot(k); ; i = (i + 1) & mask) {
                if (keys[i] == k) return vals[i];
                if (keys[i] == 0) return MISSING;
            }
        }

        void put(long k, long v) {
            for (int i = slot(k); ; i = (i + 1) & mask) {
                if (keys[i] == k) {
                    vals[i] = v;
                    return;
                }
                if (keys[i] == 0) {
                    keys[i] = k;
                    vals[i] = v;
                    if (++size * 4 > keys.length * 3) grow();
                    return;
                }
            }
        }

        int size() {
            return size;
        }

        void clear() {
            keys = new long[16];
            vals = new long[16];
            mask = 15;
            size = 0;
        }

        private void grow() {
            long[] ok = keys, ov = vals;
            keys = new long[ok.length * 2];
            vals = new long[ok.length * 2];
            mask = keys.length - 1;
            size = 0;
            for (int i = 0; i < ok.length; i++) if (ok[i] != 0) put(ok[i], ov[i]);
        }

        interface Visitor {
            void visit(long k, long v);
        }

        void forEach(Visitor f) {
            for (int i = 0; i < keys.length; i++) if (keys[i] != 0) f.visit(keys[i], vals[i]);
        }
    }
}
