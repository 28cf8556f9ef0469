package org.gamecert.verifier.bundle;

import com.github.luben.zstd.ZstdInputStream;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What a bundle path is: a directory, a .tar, a .tar.zst, or the first of split parts of one of these. */
final class BundleInput {
    enum Kind { DIRECTORY, TAR, TAR_ZST }

    final Path path;
    final Kind kind;
    final List<Path> parts; // the files to concatenate, in order (one unless split)
    /** For split parts: the archive's name (NAME.tar.zst) and how its parts are named; else null. */
    final Pattern splitNaming;
    final String splitBase;

    private BundleInput(Path path, Kind kind, List<Path> parts) { this(path, kind, parts, null, null); }

    private BundleInput(Path path, Kind kind, List<Path> parts, Pattern naming, String base) {
        this.path = path; this.kind = kind; this.parts = parts; this.splitNaming = naming; this.splitBase = base;
    }

    // Split parts: NAME.tar.zst.00 (split -d; produce release/export --split-size, and the published 6x6 tablebase), NAME.tar.zst.000
    // (three digits: more than 100 parts, or 7-Zip), NAME.tar.zst.part01 / .part1.
    private static final Pattern NUMBERED = Pattern.compile("(.+\\.(?:tar|tar\\.zst|tzst))\\.(\\d{2,4})");
    private static final Pattern PART = Pattern.compile("(.+\\.(?:tar|tar\\.zst|tzst))\\.part(\\d{1,4})");

    static boolean looksLikeBundle(Path p) {
        if (Files.isDirectory(p)) return true;
        String n = p.getFileName() == null ? "" : p.getFileName().toString().toLowerCase(Locale.ROOT);
        return kindOf(n) != null || NUMBERED.matcher(n).matches() || PART.matcher(n).matches();
    }

    private static Kind kindOf(String lowerName) {
        if (lowerName.endsWith(".tar.zst") || lowerName.endsWith(".tzst")) return Kind.TAR_ZST;
        if (lowerName.endsWith(".tar")) return Kind.TAR;
        return null;
    }

    /** IllegalArgumentException with a one-line reason when the path is not a bundle. */
    static BundleInput detect(Path p) throws IOException {
        if (Files.isDirectory(p)) return new BundleInput(p, Kind.DIRECTORY, List.of());
        if (!Files.isRegularFile(p)) throw new IllegalArgumentException(p + ": no such file or directory");
        String name = p.getFileName().toString();
        Kind k = kindOf(name.toLowerCase(Locale.ROOT));
        if (k != null) return new BundleInput(p, k, List.of(p));
        for (Pattern pat : new Pattern[] {NUMBERED, PART}) {
            Matcher m = pat.matcher(name);
            if (!m.matches()) continue;
            String base = m.group(1), digits = m.group(2);
            int first = Integer.parseInt(digits);
            if (first > 1 || (first == 1 && pat == NUMBERED))
                throw new IllegalArgumentException(p + ": give the first part of a split bundle (" + base + (pat == NUMBERED ? "." + "0".repeat(digits.length()) : ".part" + (digits.length() > 1 ? "0".repeat(digits.length() - 1) : "") + "1 or .part0") + ")");
            List<Path> parts = new ArrayList<>();
            for (int i = first; ; i++) {
                String suffix = pat == NUMBERED ? String.format(Locale.ROOT, "%0" + digits.length() + "d", i)
                        : "part" + String.format(Locale.ROOT, "%0" + digits.length() + "d", i);
                Path q = p.resolveSibling(base + "." + suffix);
                if (!Files.isRegularFile(q)) break;
                parts.add(q);
            }
            return new BundleInput(p, kindOf(base.toLowerCase(Locale.ROOT)), Collections.unmodifiableList(parts), pat, base);
        }
        throw new IllegalArgumentException(p + ": not a bundle (a directory, .tar, .tar.zst, or the first split part such as .tar.zst.00)");
    }

    /** SHA256SUMS beside split parts, or null (not split, or no such file). */
    Path sumsFile() {
        if (splitNaming == null) return null;
        Path s = path.toAbsolutePath().resolveSibling("SHA256SUMS");
        return Files.isRegularFile(s) ? s : null;
    }

    /** Whether a file name is one of this split archive's parts (present or not). */
    boolean isPartName(String name) {
        if (splitNaming == null) return false;
        Matcher m = splitNaming.matcher(name);
        return m.matches() && m.group(1).equals(splitBase);
    }

    /** The tar byte stream: parts concatenated in order, zstd-decoded when needed. */
    InputStream openTar() throws IOException {
        List<InputStream> ins = new ArrayList<>();
        try {
            for (Path q : parts) ins.add(Files.newInputStream(q));
        } catch (IOException e) {
            for (InputStream i : ins) i.close();
            throw e;
        }
        Iterator<InputStream> it = ins.iterator();
        InputStream cat = new BufferedInputStream(new SequenceInputStream(new java.util.Enumeration<InputStream>() {
            @Override public boolean hasMoreElements() { return it.hasNext(); }
            @Override public InputStream nextElement() { return it.next(); }
        }), 1 << 16);
        if (kind != Kind.TAR_ZST) return cat;
        ZstdInputStream z = new ZstdInputStream(cat);
        z.setLongMax(27); // refuse frames that ask for a window above 128 MiB
        return new BufferedInputStream(z, 1 << 16);
    }

    String describe() {
        String k = kind == Kind.DIRECTORY ? "directory" : kind == Kind.TAR ? "tar" : "tar.zst";
        return parts.size() > 1 ? k + ", " + parts.size() + " split parts" : k;
    }
}
