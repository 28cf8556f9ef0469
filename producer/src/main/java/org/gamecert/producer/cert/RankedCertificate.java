package org.gamecert.producer.cert;

import org.gamecert.producer.game.Loa;
import org.gamecert.producer.search.LoaSolver;
import org.gamecert.producer.search.RankedProof;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A weak-ranked certificate (SPEC §9.2, mode 4) of a Lines of Action win or loss proven by
 * {@link LoaSolver} or the proof-number search ({@link org.gamecert.producer.search.pn.LoaPn}): the proof is walked from the root (a win: its one move; a loss: every move),
 * each position once, and written with one layer per rank, lowest rank first. A win is the entry
 * {C} with lower bound +1 and its move, a loss {A} with upper bound -1.
 */
public final class RankedCertificate {
    /** An entry of the proof: rank, whether a win, the win's move code. */
    public static final class Node {
        public final long mover, opponent;
        public final int rank, code;
        public final boolean win;
        Node(long mover, long opponent, int rank, boolean win, int code) {
            this.mover = mover; this.opponent = opponent; this.rank = rank; this.win = win; this.code = code;
        }
    }

    private RankedCertificate() {}

    private static final class Key {
        final long m, o;
        Key(long m, long o) { this.m = m; this.o = o; }
        @Override public boolean equals(Object x) { return x instanceof Key k && k.m == m && k.o == o; }
        @Override public int hashCode() { return Long.hashCode(m * 31 + o); }
    }

    /** The proof's entries, from the solver's table; rootWins says which claim the root has. */
    public static List<Node> extract(Loa loa, RankedProof s, long rm, long ro, boolean rootWins) {
        Map<Key, Node> seen = new HashMap<>();
        List<Node> nodes = new ArrayList<>();
        ArrayDeque<long[]> todo = new ArrayDeque<>();
        todo.add(new long[] {rm, ro, rootWins ? 1 : 0});
        int[] mv = new int[64];
        long[] out = new long[3];
        while (!todo.isEmpty()) {
            long[] t = todo.poll();
            long m = t[0], o = t[1];
            boolean win = t[2] == 1;
            Key key = new Key(m, o);
            Node have = seen.get(key);
            if (have != null) {
                if (have.win != win) throw new IllegalStateException("a position proven both won and lost");
                continue;
            }
            int rank = win ? s.winRank(m, o) : s.lossRank(m, o);
            if (rank == 0) throw new IllegalStateException("a position of the proof has no proven rank");
            int code = win ? s.winMove(m, o) : 0;
            Node node = new Node(m, o, rank, win, code);
            seen.put(key, node);
            nodes.add(node);
            int count = loa.moves(m, o, mv);
            for (int i = 0; i < count; i++) {
                if (win && (mv[i] >>> 16) != code) continue;
                int type = loa.play(m, o, mv[i] >>> 8 & 0xFF, mv[i] & 0xFF, out);
                if (type == Loa.TERMINAL) {
                    if (win ? out[2] != 1 : out[2] != -1) throw new IllegalStateException("a proof edge ends in a wrong terminal");
                    continue;
                }
                // a child with the other side to move keeps the opposite claim; after a pass, the same
                boolean childWin = type == Loa.CHILD ? !win : win;
                int cr = childWin ? s.winRank(out[0], out[1]) : s.lossRank(out[0], out[1]);
                if (cr == 0 || cr >= rank) throw new IllegalStateException("a proof edge does not lower the rank");
                todo.add(new long[] {out[0], out[1], childWin ? 1 : 0});
            }
        }
        return nodes;
    }

    static long pext(long x, long mask) {
        return CertificateWriter.pext(x, mask);
    }

    /** HEADER content (SPEC §4) of a weak-ranked LOA certificate: family 4, symmetry 0, mode 4, tb 0..63. */
    public static byte[] header(Loa loa, long rm, long ro, int rootValue, String info) {
        byte[] inf = info.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(40 + 64 + inf.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put("GSCF".getBytes(StandardCharsets.US_ASCII)).putShort((short) 1);
        b.put((byte) Loa.FAMILY).put((byte) loa.n).put((byte) loa.n);
        b.put((byte) 2).put((byte) 0).put((byte) 4);
        b.put((byte) 64);
        for (int i = 0; i < 64; i++) b.put((byte) i);
        b.putLong(rm).putLong(ro).put((byte) rootValue);
        b.putInt(CertificateWriter.MAX_BLOCK_BYTES).putInt(CertificateWriter.MAX_BLOCK_ENTRIES);
        b.putShort((short) inf.length).put(inf);
        return b.array();
    }

    /** Writes the entries, one layer per rank (lowest first in the file), keys increasing within it; no census rows. */
    public static CertificateWriter.Written write(Path out, byte[] header, List<Node> nodes) throws IOException {
        TreeMap<Integer, List<Node>> byRank = new TreeMap<>();
        for (Node x : nodes) byRank.computeIfAbsent(x.rank, r -> new ArrayList<>()).add(x);
        List<LayerEntries> highestFirst = new ArrayList<>();
        for (Map.Entry<Integer, List<Node>> e : byRank.descendingMap().entrySet()) {
            List<Node> l = e.getValue();
            l.sort((a, b) -> {
                long oa = a.mover | a.opponent, ob = b.mover | b.opponent;
                int c = Long.compareUnsigned(oa, ob);
                return c != 0 ? c : Long.compareUnsigned(a.mover, b.mover);
            });
            LayerEntries le = new LayerEntries(e.getKey(), l.size());
            for (int i = 0; i < l.size(); i++) {
                Node x = l.get(i);
                le.mover[i] = x.mover;
                le.opponent[i] = x.opponent;
                le.kinds[i] = (byte) (x.win ? Kinds.C : Kinds.A);
                le.value1[i] = 1;
                le.value2[i] = -1;
                le.move[i] = (byte) x.code;
            }
            highestFirst.add(le);
        }
        return CertificateWriter.write(out, header, highestFirst, new long[0], new long[0], 0);
    }
}
