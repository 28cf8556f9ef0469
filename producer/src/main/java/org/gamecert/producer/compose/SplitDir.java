package org.gamecert.producer.compose;

import org.gamecert.producer.cert.Claim;
import org.gamecert.producer.cert.Kinds;
import org.gamecert.producer.cert.LayerEntries;
import org.gamecert.producer.game.Game;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A composite being produced, as a directory (SPEC §15.2's layout for the reference tools):
 * <pre>
 *   tasks.tsv             one line per open entry of the root part, in key order: the tasks
 *   &lt;64 hex&gt;.gsc          each certificate, named by its commitment (the root part and every part)
 *   done/&lt;task&gt;           the commitment of the part made for that task (written last: a task
 *                         without it is redone, so a killed run loses only the parts in flight)
 *   composite.gscm        the manifest (written by compose)
 * </pre>
 */
public final class SplitDir {
    public static final String TASKS = "tasks.tsv", MANIFEST = "composite.gscm", DONE = "done";
    private static final String FIRST = "#gamecert-split 1";

    /** One open entry of the root part: the part to make for it. */
    public static final class Task {
        public final int number;       // 1-based, in key order
        public final long mover, opponent; // canonical
        public final Claim claim;

        Task(int number, long mover, long opponent, Claim claim) {
            this.number = number; this.mover = mover; this.opponent = opponent; this.claim = claim;
        }
    }

    public final Path dir;
    public final String gameName;
    public final int leafEmpties, splitDiscs;
    public final String rootPart; // 64 hex digits
    public final List<Task> tasks;

    private SplitDir(Path dir, String gameName, int leafEmpties, int splitDiscs, String rootPart, List<Task> tasks) {
        this.dir = dir; this.gameName = gameName; this.leafEmpties = leafEmpties; this.splitDiscs = splitDiscs;
        this.rootPart = rootPart; this.tasks = tasks;
    }

    /** Writes tasks.tsv (atomically) for the open entries of a root part. */
    public static void writeTasks(Path dir, Game game, int leafEmpties, int splitDiscs, String rootPartHex,
                                  List<LayerEntries> open) throws IOException {
        Path tmp = dir.resolve(TASKS + ".tmp");
        int n = 0;
        for (LayerEntries e : open) for (int i = 0; i < e.count; i++) if (Kinds.isOpen(e.kinds[i])) n++;
        try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            w.write(String.format(Locale.ROOT, "%s game=%s leaf-empties=%d split-at=%d root-part=%s tasks=%d%n", FIRST,
                    game.name(), leafEmpties, splitDiscs, rootPartHex, n));
            w.write("# task\tocc\tmover\tkinds\tlo\thi\tposition (canonical)\n");
            int t = 0;
            for (LayerEntries e : open)
                for (int i = 0; i < e.count; i++) {
                    if (!Kinds.isOpen(e.kinds[i])) continue;
                    Claim c = Claim.ofEntry(e.kinds[i] & 0xFF, e.value1[i], e.value2[i], game.uMin, game.uMax);
                    long m = e.mover[i], o = e.opponent[i];
                    w.write(String.format(Locale.ROOT, "%d\t%016x\t%016x\t%s\t%d\t%d\t%s%n", ++t, m | o, m,
                            Kinds.text(c.kinds).replace(',', '+'), c.lo, c.hi, game.boardText(m, o)));
                }
        }
        Files.move(tmp, dir.resolve(TASKS), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Reads a split directory's tasks; a clear IOException when it is not one. */
    public static SplitDir read(Path dir) throws IOException {
        Path f = dir.resolve(TASKS);
        if (!Files.isRegularFile(f)) throw new IOException(dir + " holds no " + TASKS + " (made by solve --split-at)");
        List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).startsWith(FIRST + " ")) throw new IOException(f + " is not a task list");
        String game = null, root = null;
        int leaves = -1, split = -1, count = -1;
        for (String kv : lines.get(0).substring(FIRST.length() + 1).split(" ")) {
            int eq = kv.indexOf('=');
            if (eq < 0) continue;
            String k = kv.substring(0, eq), v = kv.substring(eq + 1);
            switch (k) {
                case "game": game = v; break;
                case "leaf-empties": leaves = Integer.parseInt(v); break;
                case "split-at": split = Integer.parseInt(v); break;
                case "root-part": root = v; break;
                case "tasks": count = Integer.parseInt(v); break;
                default: break;
            }
        }
        if (game == null || root == null || leaves < 0 || split < 0 || count < 0) throw new IOException(f + ": incomplete first line");
        List<Task> tasks = new ArrayList<>(count);
        for (String line : lines) {
            if (line.startsWith("#") || line.isBlank()) continue;
            String[] c = line.split("\t");
            if (c.length < 6) throw new IOException(f + ": bad line: " + line);
            long occ = Long.parseUnsignedLong(c[1], 16), mover = Long.parseUnsignedLong(c[2], 16);
            int kinds = 0;
            for (String k : c[3].split("\\+")) kinds |= kindBit(k);
            tasks.add(new Task(Integer.parseInt(c[0]), mover, occ & ~mover,
                    new Claim(kinds, Integer.parseInt(c[4]), Integer.parseInt(c[5]))));
        }
        if (tasks.size() != count) throw new IOException(f + ": " + tasks.size() + " tasks, the first line says " + count);
        return new SplitDir(dir, game, leaves, split, root, tasks);
    }

    private static int kindBit(String k) throws IOException {
        switch (k) {
            case "P": return Kinds.P;
            case "A'": return Kinds.AP;
            case "P'": return Kinds.PP;
            case "C": return Kinds.C;
            case "A": return Kinds.A;
            default: throw new IOException("unknown kind " + k);
        }
    }

    /** The commitment (64 hex) of the part made for a task, or null when it is not done. */
    public String done(Task t) throws IOException {
        Path f = dir.resolve(DONE).resolve(Integer.toString(t.number));
        if (!Files.isRegularFile(f)) return null;
        String hex = Files.readString(f, StandardCharsets.US_ASCII).trim();
        int sp = hex.indexOf(' ');
        if (sp >= 0) hex = hex.substring(0, sp);
        return Files.isRegularFile(certificate(hex)) ? hex : null;
    }

    /** Records a finished part (after its file is in place). */
    public void markDone(Task t, String hex, String figures) throws IOException {
        Path d = Files.createDirectories(dir.resolve(DONE));
        Path tmp = d.resolve(t.number + ".tmp");
        Files.writeString(tmp, hex + " " + figures + "\n", StandardCharsets.US_ASCII);
        Files.move(tmp, d.resolve(Integer.toString(t.number)), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Where the certificate with this commitment lives. */
    public Path certificate(String hex) { return dir.resolve(hex + ".gsc"); }

    /** "sha256:abc..." to "abc...". */
    public static String hexOf(String commitmentId) {
        return commitmentId.startsWith("sha256:") ? commitmentId.substring(7) : commitmentId;
    }
}
