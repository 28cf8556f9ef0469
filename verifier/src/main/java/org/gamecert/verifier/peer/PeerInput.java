package org.gamecert.verifier.peer;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Recognises what kind of peer input a path is. */
public final class PeerInput {
    public enum Kind { DIRECTORY, CSV, TAR, TAR_ZST, SPLIT_TAR_ZST }

    public final Kind kind;
    public final Path path;
    /** For split archives: the parts in order. */
    public final List<Path> parts;
    /** How the split parts are named, for the report. */
    public final String naming;

    private PeerInput(Kind kind, Path path, List<Path> parts, String naming) {
        this.kind = kind;
        this.path = path;
        this.parts = parts;
        this.naming = naming;
    }

    // Split names: NAME.00 / NAME.000 / NAME.001 (split -d, 7-Zip), NAME.part00 / NAME.part1, NAME.aa (split).
    private static final Pattern NUMERIC = Pattern.compile("(.+\\.zst)\\.(\\d{2,4})");
    private static final Pattern PART = Pattern.compile("(.+\\.zst)\\.part(\\d+)");
    private static final Pattern ALPHA = Pattern.compile("(.+\\.zst)\\.([a-z]{2})");

    /** Throws IllegalArgumentException with a one-line reason when the path is none of the kinds. */
    public static PeerInput detect(Path path) throws IOException {
        if (Files.isDirectory(path)) {
            if (!DirectorySource.looksLikeTables(path)) {
                throw new IllegalArgumentException(path + ": directory holds no optimal_reopening_ab_table_all_{n}.txt");
            }
            return new PeerInput(Kind.DIRECTORY, path, List.of(), null);
        }
        if (!Files.exists(path)) throw new IllegalArgumentException(path + ": no such file or directory");
        String name = path.getFileName().toString();
        String lower = name.toLowerCase(java.util.Locale.ROOT);
        if (lower.endsWith(".csv")) return new PeerInput(Kind.CSV, path, List.of(), null);
        if (lower.endsWith(".tar")) return new PeerInput(Kind.TAR, path, List.of(), null);
        if (lower.endsWith(".tar.zst") || lower.endsWith(".tzst")) return new PeerInput(Kind.TAR_ZST, path, List.of(), null);
        for (Pattern p : new Pattern[] {NUMERIC, PART, ALPHA}) {
            Matcher m = p.matcher(name);
            if (m.matches()) return split(path, m.group(1), p);
        }
        throw new IllegalArgumentException(path + ": not a peer input (a directory of tables, .csv, .tar, .tar.zst, or a split part such as .tar.zst.00)");
    }

    private static PeerInput split(Path path, String base, Pattern p) throws IOException {
        Path dir = path.toAbsolutePath().getParent();
        List<String[]> found = new ArrayList<>(); // {suffix, filename}
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path f : ds) {
                Matcher m = p.matcher(f.getFileName().toString());
                if (m.matches() && m.group(1).equals(base)) found.add(new String[] {m.group(2), f.getFileName().toString()});
            }
        }
        boolean numeric = p != ALPHA;
        found.sort((a, b) -> numeric ? Long.compare(Long.parseLong(a[0]), Long.parseLong(b[0])) : a[0].compareTo(b[0]));
        List<Path> parts = new ArrayList<>();
        String prev = null;
        for (String[] f : found) {
            if (prev != null && !consecutive(prev, f[0], numeric)) {
                throw new IllegalArgumentException(dir.resolve(f[1]) + ": split parts are not consecutive (after ." + prev + " comes ." + f[0] + ")");
            }
            prev = f[0];
            parts.add(dir.resolve(f[1]));
        }
        String first = found.get(0)[0];
        String naming = p == NUMERIC ? "numbered parts " + base + "." + first + ", ." + next(first, true) + ", …"
                : p == PART ? "numbered parts " + base + ".part" + first + ", …" : "lettered parts " + base + "." + first + ", …";
        // split -d numbers NAME.00, NAME.01, …; 7-Zip NAME.001, …: a two-digit run must start at 00.
        if (p == NUMERIC && first.length() == 2 && Long.parseLong(first) != 0) {
            throw new IllegalArgumentException(parts.get(0) + ": the first split part (.00) is missing");
        }
        if (numeric && Long.parseLong(first) > 1) throw new IllegalArgumentException(parts.get(0) + ": the first split part is missing (numbering starts at ." + first + ")");
        if (!numeric && !first.equals("aa")) throw new IllegalArgumentException(parts.get(0) + ": the first split part (.aa) is missing");
        return new PeerInput(Kind.SPLIT_TAR_ZST, path, parts, naming + " (" + parts.size() + " parts)");
    }

    private static boolean consecutive(String a, String b, boolean numeric) {
        return b.equals(next(a, numeric));
    }

    private static String next(String a, boolean numeric) {
        if (numeric) {
            String s = Long.toString(Long.parseLong(a) + 1);
            while (s.length() < a.length()) s = "0" + s;
            return s;
        }
        char c0 = a.charAt(0), c1 = a.charAt(1);
        return c1 == 'z' ? "" + (char) (c0 + 1) + 'a' : "" + c0 + (char) (c1 + 1);
    }

    /** SHA256SUMS next to the input (inside it for a directory), or null. */
    public Path sumsFile() {
        Path dir = kind == Kind.DIRECTORY ? path : path.toAbsolutePath().getParent();
        Path s = dir.resolve("SHA256SUMS");
        return Files.isRegularFile(s) ? s : null;
    }

    public String description() {
        switch (kind) {
            case DIRECTORY: return "directory of peer tables";
            case CSV: return "CSV (the peer's intermediate table form)";
            case TAR: return "tar archive";
            case TAR_ZST: return "tar.zst archive (streamed)";
            default: return "split tar.zst, " + naming + ", concatenated and streamed";
        }
    }
}
