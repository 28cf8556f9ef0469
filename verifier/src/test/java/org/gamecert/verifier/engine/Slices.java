package org.gamecert.verifier.engine;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.gamecert.verifier.kernel.ChildLookup;
import org.gamecert.verifier.kernel.EntryChecker;
import org.gamecert.verifier.kernel.Kernel;
import org.gamecert.verifier.kernel.KeyRange;
import org.gamecert.verifier.kernel.LayerCheck;
import org.gamecert.verifier.kernel.LayerPass;
import org.gamecert.verifier.kernel.Layout;
import org.gamecert.verifier.kernel.Marks;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.SliceResult;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.format.Header;
import org.gamecert.verifier.kernel.format.Payload;
import org.gamecert.verifier.kernel.rules.Game;

/**
 * Pass 2 of one certificate in slices, for an engine that spreads it over JVMs (Spark, or
 * SlicedVerifier in one JVM): a layer's blocks cut into slices; for each layer, three steps
 * that an engine runs where it likes and joins by slice id:
 * <ol>
 * <li>requests: a slice of the layer asks for the child keys its entries look up, each sent
 * to the slice of the layer below whose key range holds it;
 * <li>answer: a slice of the layer below answers the requests it got from its own records;
 * <li>check: a kernel checks the slice with those answers and the marks the layer above sent
 * it (flags, SPEC §10), and sends its own marks to the slices of the layer below.
 * </ol>
 * The kernel that read the file (Kernel.beginJoinedLayer) takes the slices' results. Nothing
 * here is trusted: a wrong request, answer, route or mark ends in a rejection or an engine
 * fault, never in VERIFIED (SPEC §11.1).
 */
public final class Slices {
    private Slices() {}

    /** Blocks [first, end) of layer li, its entries base .. base + count - 1; first key. */
    public record Slice(int li, int id, int first, int end, long base, long count, long occ,
            long mover) implements Serializable {}

    /** Child keys a parent slice asks of one slice of the layer below. */
    public static final class Requests implements Serializable {
        private static final long serialVersionUID = 1L;
        public final int parent, child;
        long[] occ = new long[16], mover = new long[16];
        int n;

        Requests(int parent, int child) {
            this.parent = parent;
            this.child = child;
        }

        // the keys asked so far (open addressing over places in occ/mover, 0: empty), so
        // that each key is asked once
        private transient int[] seen = new int[32];

        void add(long o, long m) {
            int mask = seen.length - 1;
            int i = hash(o, m) & mask;
            for (; seen[i] != 0; i = (i + 1) & mask)
                if (occ[seen[i] - 1] == o && mover[seen[i] - 1] == m) return;
            if (n == occ.length) {
                occ = Arrays.copyOf(occ, 2 * n);
                mover = Arrays.copyOf(mover, 2 * n);
            }
            occ[n] = o;
            mover[n++] = m;
            seen[i] = n;
            if (2 * n > seen.length) rehash();
        }

        private void rehash() {
            seen = new int[seen.length * 2];
            int mask = seen.length - 1;
            for (int j = 0; j < n; j++) {
                int i = hash(occ[j], mover[j]) & mask;
                while (seen[i] != 0) i = (i + 1) & mask;
                seen[i] = j + 1;
            }
        }
    }

    /** Records of the layer below found for one parent slice's requests. */
    public static final class Answers implements Serializable {
        private static final long serialVersionUID = 1L;
        public final int parent;
        long[] occ, mover, index;
        byte[] kind, lo, hi;
        int n;

        Answers(int parent, int capacity) {
            this.parent = parent;
            occ = new long[capacity];
            mover = new long[capacity];
            index = new long[capacity];
            kind = new byte[capacity];
            lo = new byte[capacity];
            hi = new byte[capacity];
        }
    }

    /** Marks for one slice of the layer below, in the order of their index. */
    public static final class MarkBatch implements Serializable {
        private static final long serialVersionUID = 1L;
        public final int child;
        long[] index, digest;
        byte[] bits;
        int n;

        MarkBatch(int child, int capacity) {
            this.child = child;
            index = new long[capacity];
            digest = new long[capacity];
            bits = new byte[capacity];
        }
    }

    /** A slice's check: the kernel's result and the marks for the layer below by slice. */
    public static final class Checked implements Serializable {
        private static final long serialVersionUID = 1L;
        public final SliceResult result;
        public final List<MarkBatch> marks;

        Checked(SliceResult result, List<MarkBatch> marks) {
            this.result = result;
            this.marks = marks;
        }
    }

    /** What the executors need of the file: its path and pass 1's layout. */
    public static final class Job implements Serializable {
        private static final long serialVersionUID = 1L;
        public final String file;
        public final Layout layout;
        public final boolean strict;

        public Job(Path file, Layout layout, boolean strict) {
            this.file = file.toAbsolutePath().toString();
            this.layout = layout;
            this.strict = strict;
        }
    }

    /**
     * Cuts layer li into slices of about maxEntries entries at block boundaries; firstOcc and
     * firstMover: each block's first key (noted in pass 1, Options.onBlock).
     */
    public static Slice[] plan(Kernel k, int li, long maxEntries, long[] firstOcc,
            long[] firstMover) {
        List<Slice> out = new ArrayList<>();
        int b = k.firstBlock(li);
        long base = 0;
        while (b < k.endBlock(li)) {
            int first = b;
            long count = 0;
            do count += k.block(b++).count;
            while (b < k.endBlock(li) && count + k.block(b).count <= maxEntries);
            out.add(new Slice(li, out.size(), first, b, base, count, firstOcc[first],
                    firstMover[first]));
            base += count;
        }
        return out.toArray(new Slice[0]);
    }

    /** A fresh kernel for one slice: the file's header read, the layout adopted. */
    static Kernel sliceKernel(Container ct, Job job) throws IOException {
        Kernel kernel = new Kernel(new Result(), false, job.strict, 1, () -> {});
        kernel.header(ct);
        kernel.adopt(job.layout);
        return kernel;
    }

    /** Step 1: the child keys slice s asks for, one Requests per slice of the layer below. */
    public static List<Requests> requests(Job job, Slice s, Slice[] below) throws IOException {
        List<Requests> out = new ArrayList<>();
        if (below.length == 0) return out;
        Requests[] to = new Requests[below.length];
        try (Container ct = new Container(Path.of(job.file))) {
            Kernel kernel = sliceKernel(ct, job);
            Header h = kernel.header();
            Game game = kernel.game();
            int group = h.symmetry == 0 ? 1 : game.symmetryCount;
            long[] child = new long[3], scratch = new long[9];
            Payload p = null;
            for (int b = s.first(); b < s.end(); b++) {
                p = kernel.reload(ct, b, p);
                for (int i = 0; i < p.count; i++) {
                    long mover = p.mover[i], opp = p.occ[i] & ~mover;
                    int kind = p.kind[i] & 0xFF, mv = p.move[i] & 0xFF;
                    long moves = kind == Payload.C && mv < 64 ? 1L << mv
                            : game.legalMoveCodes(mover, opp);
                    for (; moves != 0; moves &= moves - 1) {
                        int code = Long.numberOfTrailingZeros(moves);
                        if (game.child(mover, opp, code, child) == Game.TERMINAL) continue;
                        int empties = game.cells - Long.bitCount(child[0] | child[1]);
                        if (h.leafEmpties > 0 && empties <= h.leafEmpties) continue;
                        long occ = game.canonical(child[0], child[1], group, scratch);
                        int q = route(below, occ, scratch[8]);
                        if (to[q] == null) to[q] = new Requests(s.id(), below[q].id());
                        to[q].add(occ, scratch[8]);
                    }
                }
            }
        }
        for (Requests r : to) if (r != null) out.add(r);
        return out;
    }

    /** A key's hash for open addressing: every bit of both words reaches the low bits. */
    static int hash(long occ, long mover) {
        long h = occ * 0x9E3779B97F4A7C15L + mover;
        h = (h ^ (h >>> 32)) * 0xD6E8FEB86659FD93L;
        return (int) (h ^ (h >>> 32));
    }

    /** The slice whose key range holds the key: the last whose first key is not after it. */
    static int route(Slice[] below, long occ, long mover) {
        int lo = 0, hi = below.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (KeyRange.after(below[mid].occ(), below[mid].mover(), occ, mover)) hi = mid - 1;
            else lo = mid;
        }
        return lo;
    }

    /** Step 2: slice c of the layer below answers the requests sent to it (one per parent). */
    public static List<Answers> answer(Job job, Slice c, Iterable<Requests> requests)
            throws IOException {
        long[] occ = new long[(int) c.count()], mover = new long[(int) c.count()];
        byte[] kind = new byte[occ.length], lo = new byte[occ.length], hi = new byte[occ.length];
        try (Container ct = new Container(Path.of(job.file))) {
            Kernel kernel = sliceKernel(ct, job);
            Payload p = null;
            int at = 0;
            for (int b = c.first(); b < c.end(); b++) {
                p = kernel.reload(ct, b, p);
                for (int i = 0; i < p.count && at < occ.length; i++, at++) {
                    occ[at] = p.occ[i];
                    mover[at] = p.mover[i];
                    kind[at] = p.kind[i];
                    lo[at] = p.lo[i];
                    hi[at] = p.hi[i];
                }
            }
        }
        List<Answers> out = new ArrayList<>();
        for (Requests r : requests) {
            Answers a = new Answers(r.parent, r.n);
            for (int j = 0; j < r.n; j++) {
                int i = find(occ, mover, r.occ[j], r.mover[j]);
                if (i < 0) continue; // absent
                a.occ[a.n] = occ[i];
                a.mover[a.n] = mover[i];
                a.index[a.n] = c.base() + i;
                a.kind[a.n] = kind[i];
                a.lo[a.n] = lo[i];
                a.hi[a.n++] = hi[i];
            }
            out.add(a);
        }
        return out;
    }

    /** Binary search of a key among keys in increasing order; -1: absent. */
    private static int find(long[] occ, long[] mover, long o, long m) {
        int lo = 0, hi = occ.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (occ[mid] == o && mover[mid] == m) return mid;
            if (KeyRange.after(o, m, occ[mid], mover[mid])) lo = mid + 1;
            else hi = mid - 1;
        }
        return -1;
    }

    /**
     * Step 3: the kernel checks slice s with the answers for it and the marks the layer above
     * sent it; its marks go to the slices of the layer below (by index). sizeBelow: entries of
     * the layer below (0: none).
     */
    public static Checked check(Job job, Slice s, long sizeBelow, Slice[] below,
            Iterable<Answers> answers, Iterable<MarkBatch> marks) throws IOException {
        AnswerTable table = new AnswerTable();
        for (Answers a : answers)
            for (int j = 0; j < a.n; j++)
                table.put(a.occ[j], a.mover[j], a.index[j], a.kind[j], a.lo[j], a.hi[j]);
        MarkBatch in = merge(marks);
        SliceResult result;
        List<Marks> sent;
        try (Container ct = new Container(Path.of(job.file))) {
            Kernel kernel = sliceKernel(ct, job);
            LayerCheck lc = kernel.beginSlice(s.li(), s.first(), s.end());
            lc.receive(in.index, in.digest, in.bits, in.n);
            EntryChecker checker = kernel.newChecker(true);
            LayerPass pass = lc.pass(KeyRange.whole(sizeBelow),
                    sizeBelow > 0 ? table : ChildLookup.NONE);
            Payload p = null;
            for (int b = s.first(); b < s.end(); b++) {
                p = kernel.reload(ct, b, p);
                int m = pass.block(b, p);
                if (m < 0) break;
                pass.check(checker, 0, m);
                pass.endBlock(checker);
            }
            pass.end();
            result = lc.endSlice();
            sent = lc.marks();
        }
        return new Checked(result, split(sent, below));
    }

    /** One batch of the marks given, sorted by index (index and place packed in a long). */
    static MarkBatch merge(Iterable<MarkBatch> marks) {
        int n = 0;
        for (MarkBatch m : marks) n += m.n;
        MarkBatch all = new MarkBatch(-1, n);
        for (MarkBatch m : marks) {
            System.arraycopy(m.index, 0, all.index, all.n, m.n);
            System.arraycopy(m.digest, 0, all.digest, all.n, m.n);
            System.arraycopy(m.bits, 0, all.bits, all.n, m.n);
            all.n += m.n;
        }
        long[] order = new long[n];
        for (int j = 0; j < n; j++) order[j] = all.index[j] << 32 | j; // a layer: < 2^31 entries
        Arrays.sort(order);
        MarkBatch sorted = new MarkBatch(-1, n);
        for (long o : order) {
            int j = (int) o;
            sorted.index[sorted.n] = all.index[j];
            sorted.digest[sorted.n] = all.digest[j];
            sorted.bits[sorted.n++] = all.bits[j];
        }
        return sorted;
    }

    /** The marks sent, cut by the slices of the layer below that hold their indices. */
    static List<MarkBatch> split(List<Marks> sent, Slice[] below) {
        MarkBatch[] to = new MarkBatch[below.length];
        for (Marks m : sent)
            for (int j = 0; j < m.size(); j++) {
                int q = byIndex(below, m.index(j));
                if (to[q] == null) to[q] = new MarkBatch(below[q].id(), 16);
                MarkBatch t = to[q];
                if (t.n == t.index.length) {
                    t.index = Arrays.copyOf(t.index, 2 * t.n);
                    t.digest = Arrays.copyOf(t.digest, 2 * t.n);
                    t.bits = Arrays.copyOf(t.bits, 2 * t.n);
                }
                t.index[t.n] = m.index(j);
                t.digest[t.n] = m.digest(j);
                t.bits[t.n++] = m.flags(j);
            }
        List<MarkBatch> out = new ArrayList<>();
        for (MarkBatch t : to) if (t != null) out.add(t);
        return out;
    }

    /** The slice whose entries hold the index. */
    static int byIndex(Slice[] below, long index) {
        int lo = 0, hi = below.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (below[mid].base() > index) hi = mid - 1;
            else lo = mid;
        }
        return lo;
    }

    /** The answers for one slice, looked up by key (open addressing). */
    static final class AnswerTable implements ChildLookup {
        private long[] occ = new long[16], mover = new long[16], index = new long[16];
        private byte[] kind = new byte[16], lo = new byte[16], hi = new byte[16];
        private int size;

        void put(long o, long m, long i, byte k, byte l, byte h) {
            if (2 * (size + 1) > occ.length) grow();
            int s = slot(o, m);
            if (occ[s] == 0) size++;
            occ[s] = o;
            mover[s] = m;
            index[s] = i;
            kind[s] = k;
            lo[s] = l;
            hi[s] = h;
        }

        @Override
        public boolean find(long o, long m, Answer a) {
            int s = slot(o, m);
            if (occ[s] == 0) return false;
            a.occ = occ[s];
            a.mover = mover[s];
            a.kind = kind[s];
            a.lo = lo[s];
            a.hi = hi[s];
            a.index = index[s];
            return true;
        }

        private int slot(long o, long m) {
            int mask = occ.length - 1;
            int i = hash(o, m) & mask;
            while (occ[i] != 0 && (occ[i] != o || mover[i] != m)) i = (i + 1) & mask;
            return i;
        }

        private void grow() {
            long[] o = occ, m = mover, ix = index;
            byte[] k = kind, l = lo, h = hi;
            occ = new long[o.length * 2];
            mover = new long[o.length * 2];
            index = new long[o.length * 2];
            kind = new byte[o.length * 2];
            lo = new byte[o.length * 2];
            hi = new byte[o.length * 2];
            size = 0;
            for (int i = 0; i < o.length; i++) if (o[i] != 0) put(o[i], m[i], ix[i], k[i], l[i], h[i]);
        }
    }
}
