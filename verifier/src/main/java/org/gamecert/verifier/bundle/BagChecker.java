package org.gamecert.verifier.bundle;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks that a bag read by {@link BagReader} is complete and valid (RFC 8493 §3, with the stricter
 * rules of a gamecert release): bagit.txt as expected; manifest-sha256.txt and
 * tagmanifest-sha256.txt present; every manifest line names an existing file with the right
 * digest; every payload file listed in every payload manifest; outside data/ exactly the tag files
 * of {@link #TAG_FILES}, every one but the tag manifests and the signature listed in
 * tagmanifest-sha256.txt; no fetch.txt; Payload-Oxum right; every file with certificate magic is
 * in data/ and named in bag-info.txt (so it is verified). Each problem names its file.
 */
final class BagChecker {
    static final String BAGIT = "bagit.txt", BAG_INFO = "bag-info.txt", SIGNATURE = "tagmanifest-sha256.txt.sig";
    /**
     * The only files a gamecert bag may hold outside data/: the tag files RFC 8493 names for the
     * algorithms this verifier checks, and our signature. Anything else would be covered by no
     * manifest this verifier trusts and by no signature (a name that merely starts like a tag
     * manifest, e.g. tagmanifest-sha256.txt.bak, included).
     */
    static final java.util.Set<String> TAG_FILES = java.util.Set.of(BAGIT, BAG_INFO, "manifest-sha256.txt", "manifest-sha512.txt",
            "tagmanifest-sha256.txt", "tagmanifest-sha512.txt", SIGNATURE);
    private static final Pattern MANIFEST = Pattern.compile("(tag)?manifest-([a-z0-9]+)\\.txt");
    private static final Pattern COMMITMENT = Pattern.compile("(sha256:[0-9a-f]{64})\\s+(data/\\S+)");
    /** Composite-Id: sha256:HEX data/NAME/composite.gscm parts-included|parts-by-reference */
    static final Pattern COMPOSITE = Pattern.compile("(sha256:[0-9a-f]{64})\\s+(data/([A-Za-z0-9][A-Za-z0-9._+-]{0,99})/composite\\.gscm)\\s+"
            + "(parts-included|parts-by-reference)");
    /** A part's name in a composite's folder: data/NAME/HEX.gsc */
    static final Pattern PART = Pattern.compile("(data/[^/]+/)([0-9a-f]{64})\\.gsc");

    final BagReader bag;
    final List<Problem> problems = new ArrayList<>();
    /** bag-info.txt labels in order, values joined for repeated labels. */
    final LinkedHashMap<String, List<String>> info = new LinkedHashMap<>();
    /** certificate path in the bag -> commitment id claimed in bag-info.txt */
    final LinkedHashMap<String, String> certificates = new LinkedHashMap<>();
    /** composite manifest path in the bag (data/NAME/composite.gscm) -> {composite id claimed in bag-info.txt, parts-included or parts-by-reference} */
    final LinkedHashMap<String, String[]> composites = new LinkedHashMap<>();

    BagChecker(BagReader bag) { this.bag = bag; }

    String first(String label) {
        List<String> v = info.get(label.toLowerCase(Locale.ROOT));
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    List<Problem> check() {
        problems.addAll(bag.problems);
        Map<String, BagEntry> files = bag.files;
        if (!files.containsKey(BAGIT)) { problems.add(new Problem(BAGIT, "missing: not a complete BagIt bag")); }
        else checkBagitTxt(files.get(BAGIT));
        if (files.containsKey("fetch.txt")) problems.add(new Problem("fetch.txt", "present: a bundle must hold every file itself, not fetch them"));
        if (!files.containsKey("manifest-sha256.txt")) problems.add(new Problem("manifest-sha256.txt", "missing"));
        if (!files.containsKey("tagmanifest-sha256.txt")) problems.add(new Problem("tagmanifest-sha256.txt", "missing"));
        if (!files.containsKey(BAG_INFO)) problems.add(new Problem(BAG_INFO, "missing"));

        TreeSet<String> payload = new TreeSet<>();
        for (String n : files.keySet()) if (n.startsWith("data/")) payload.add(n);
        TreeSet<String> payloadManifests = new TreeSet<>();
        for (String n : files.keySet()) {
            Matcher m = MANIFEST.matcher(n);
            if (!m.matches()) continue;
            boolean tag = m.group(1) != null;
            String alg = m.group(2);
            if (!alg.equals("sha256") && !alg.equals("sha512")) { problems.add(new Problem(n, "algorithm " + alg + " is not checked by this verifier (sha256, sha512)")); continue; }
            if (!tag) payloadManifests.add(n);
            Map<String, String> lines = parseManifest(n, files.get(n));
            for (Map.Entry<String, String> l : lines.entrySet()) {
                String path = l.getKey();
                if (!tag && !path.startsWith("data/")) { problems.add(new Problem(n, "lists " + path + ", which is not under data/")); continue; }
                if (tag && path.startsWith("data/")) { problems.add(new Problem(n, "lists payload file " + path + " (a tag manifest lists tag files)")); continue; }
                if (tag && MANIFEST.matcher(path).matches() && path.startsWith("tagmanifest-")) { problems.add(new Problem(n, "lists tag manifest " + path)); continue; }
                BagEntry f = files.get(path);
                if (f == null) { problems.add(new Problem(path, "listed in " + n + " but missing from the bag")); continue; }
                String actual = alg.equals("sha256") ? f.sha256 : f.sha512;
                if (!actual.equalsIgnoreCase(l.getValue()))
                    problems.add(new Problem(path, alg + " differs from " + n + " (listed " + l.getValue() + ", file has " + actual + ")"));
            }
            if (!tag) for (String p : payload) if (!lines.containsKey(p)) problems.add(new Problem(p, "payload file not listed in " + n));
            if (tag && alg.equals("sha256")) { // the one the signature covers: it must list every other tag file
                for (String must : files.keySet())
                    if (TAG_FILES.contains(must) && !must.startsWith("tagmanifest-") && !lines.containsKey(must))
                        problems.add(new Problem(must, "tag file not listed in " + n));
            }
        }
        // Exactly the files BagIt names plus the payload: no exemption by prefix, whatever a tag
        // manifest lists (a listed extra file would still be outside what this verifier checks).
        for (String n : files.keySet())
            if (!n.startsWith("data/") && !TAG_FILES.contains(n))
                problems.add(new Problem(n, files.get(n).certificateMagic
                        ? "a certificate outside data/: a bundle's certificates are its payload, each named in bag-info.txt and verified"
                        : "not a file a gamecert bag holds outside data/ (" + String.join(", ", new TreeSet<>(TAG_FILES)) + ")"));
        for (String d : bag.directories) if (!d.equals("data") && !d.startsWith("data/") && !hasFileUnder(d))
            problems.add(new Problem(d + "/", "empty directory outside data/"));

        if (files.containsKey(BAG_INFO)) checkBagInfo(files.get(BAG_INFO), payload);
        return problems;
    }

    private boolean hasFileUnder(String dir) {
        String p = dir + "/";
        String k = bag.files.ceilingKey(p);
        return k != null && k.startsWith(p);
    }

    private void checkBagitTxt(BagEntry e) {
        String t = text(e);
        if (t == null) return;
        Map<String, String> kv = new HashMap<>();
        for (String line : t.split("\r\n|\r|\n")) {
            int i = line.indexOf(": ");
            if (line.isEmpty()) continue;
            if (i < 0) { problems.add(new Problem(BAGIT, "malformed line '" + line + "'")); return; }
            kv.put(line.substring(0, i), line.substring(i + 2).trim());
        }
        String v = kv.get("BagIt-Version"), enc = kv.get("Tag-File-Character-Encoding");
        if (v == null || !(v.equals("1.0") || v.equals("0.97"))) problems.add(new Problem(BAGIT, "BagIt-Version is " + v + ", expected 1.0"));
        if (enc == null || !enc.equalsIgnoreCase("UTF-8")) problems.add(new Problem(BAGIT, "Tag-File-Character-Encoding is " + enc + ", expected UTF-8"));
        if (kv.size() != 2) problems.add(new Problem(BAGIT, "holds " + kv.size() + " fields, expected 2"));
    }

    /** path -> digest; problems for malformed lines, unsafe paths and duplicates. */
    private Map<String, String> parseManifest(String name, BagEntry e) {
        LinkedHashMap<String, String> out = new LinkedHashMap<>();
        String t = text(e);
        if (t == null) return out;
        int hexLen = name.contains("sha512") ? 128 : 64;
        int no = 0;
        for (String line : t.split("\r\n|\n", -1)) {
            no++;
            if (line.isEmpty()) continue;
            int sp = 0;
            while (sp < line.length() && line.charAt(sp) != ' ' && line.charAt(sp) != '\t') sp++;
            String digest = line.substring(0, sp);
            String rest = line.substring(sp).replaceFirst("^[ \\t]+", "");
            if (digest.length() != hexLen || !digest.matches("[0-9a-fA-F]+") || rest.isEmpty()) {
                problems.add(new Problem(name, "line " + no + " is not '<" + hexLen + " hex digits> <path>'"));
                continue;
            }
            String path = rest.replace("%0A", "\n").replace("%0a", "\n").replace("%0D", "\r").replace("%0d", "\r").replace("%25", "%");
            String safe = BagReader.safePath(path);
            if (safe == null || !safe.equals(path)) { problems.add(new Problem(name, "line " + no + ": path " + path + " escapes the bag or is not a plain relative path")); continue; }
            if (out.put(path, digest.toLowerCase(Locale.ROOT)) != null) problems.add(new Problem(name, "lists " + path + " twice"));
        }
        return out;
    }

    private void checkBagInfo(BagEntry e, TreeSet<String> payload) {
        String t = text(e);
        if (t == null) return;
        String label = null;
        StringBuilder value = new StringBuilder();
        List<String[]> fields = new ArrayList<>();
        for (String line : t.split("\r\n|\r|\n")) {
            if (line.isEmpty()) continue;
            if ((line.startsWith(" ") || line.startsWith("\t")) && label != null) { value.append(' ').append(line.trim()); continue; }
            if (label != null) fields.add(new String[] {label, value.toString()});
            int i = line.indexOf(':');
            if (i <= 0) { problems.add(new Problem(BAG_INFO, "malformed line '" + line + "'")); label = null; continue; }
            label = line.substring(0, i).trim();
            value = new StringBuilder(line.substring(i + 1).trim());
        }
        if (label != null) fields.add(new String[] {label, value.toString()});
        for (String[] f : fields) info.computeIfAbsent(f[0].toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(f[1]);

        String oxum = first("Payload-Oxum");
        if (oxum == null) problems.add(new Problem(BAG_INFO, "has no Payload-Oxum"));
        else {
            long bytes = 0;
            for (String p : payload) bytes += bag.files.get(p).size;
            String actual = bytes + "." + payload.size();
            if (!oxum.equals(actual)) problems.add(new Problem(BAG_INFO, "Payload-Oxum is " + oxum + " but the payload is " + actual + " (octets.files)"));
        }
        List<String> ids = info.getOrDefault("commitment-id", List.of());
        List<String> comps = info.getOrDefault("composite-id", List.of());
        if (ids.isEmpty() && comps.isEmpty()) problems.add(new Problem(BAG_INFO, "names no certificate (Commitment-Id) and no composite (Composite-Id)"));
        for (String id : comps) {
            Matcher m = COMPOSITE.matcher(id);
            if (!m.matches()) {
                problems.add(new Problem(BAG_INFO, "Composite-Id '" + id + "' is not 'sha256:<64 hex> data/<name>/composite.gscm parts-included|parts-by-reference'"));
                continue;
            }
            String file = m.group(2);
            if (composites.put(file, new String[] {m.group(1), m.group(4)}) != null) problems.add(new Problem(BAG_INFO, "names " + file + " twice"));
            BagEntry c = bag.files.get(file);
            if (c == null) problems.add(new Problem(file, "named in bag-info.txt (Composite-Id) but missing from the bag"));
            else if (!c.manifestMagic) problems.add(new Problem(file, "named in bag-info.txt as a composite's manifest but is not one"));
        }
        for (String id : ids) {
            Matcher m = COMMITMENT.matcher(id);
            if (!m.matches()) { problems.add(new Problem(BAG_INFO, "Commitment-Id '" + id + "' is not 'sha256:<64 hex> data/<file>'")); continue; }
            String file = m.group(2);
            if (certificates.put(file, m.group(1)) != null) problems.add(new Problem(BAG_INFO, "names " + file + " twice"));
            BagEntry c = bag.files.get(file);
            if (c == null) problems.add(new Problem(file, "named in bag-info.txt (Commitment-Id) but missing from the bag"));
            else if (!c.certificateMagic) problems.add(new Problem(file, "named in bag-info.txt as a certificate but is not one"));
        }
        for (String p : payload) {
            if (!bag.files.get(p).certificateMagic || certificates.containsKey(p)) continue;
            Matcher m = PART.matcher(p);
            String[] comp = m.matches() ? composites.get(m.group(1) + "composite.gscm") : null;
            if (comp == null) problems.add(new Problem(p, "a certificate that bag-info.txt does not name (no Commitment-Id)"));
            else if (!comp[1].equals("parts-included"))
                problems.add(new Problem(p, "a part in the folder of a composite whose parts bag-info.txt says are referenced, not included"));
            // else: a part of a composite with its parts included; its manifest must name it (checked with the composite)
        }
        String h = first("Verifier-Jar-SHA256");
        if (h != null && !h.matches("[0-9a-f]{64}")) problems.add(new Problem(BAG_INFO, "Verifier-Jar-SHA256 is not 64 lowercase hex digits"));
        // Since 0.6.0 (absent from older bundles, which are checked as before).
        String commit = first("Verifier-Commit");
        if (commit != null && !org.gamecert.verifier.cli.BuildInfo.isBagInfoCommit(commit))
            problems.add(new Problem(BAG_INFO, "Verifier-Commit is not a commit (40 or 64 lowercase hex digits, optionally followed by "
                    + "' modified') nor 'unknown'"));
        String license = first("Data-License");
        if (license != null && !BundleTexts.isLicenseId(license))
            problems.add(new Problem(BAG_INFO, "Data-License is not an SPDX licence identifier (letters, digits, '.', '-', '+')"));
        String version = first("Bundle-Version");
        if (version != null && version.isBlank()) problems.add(new Problem(BAG_INFO, "Bundle-Version is empty"));
        // After 0.6.0, optional.
        String repository = first("Repository-Code");
        if (repository != null && !BundleTexts.isRepositoryUrl(repository))
            problems.add(new Problem(BAG_INFO, "Repository-Code is not an http(s) URL"));
    }

    private String text(BagEntry e) {
        if (e.bytes == null) return null; // too large: already a problem
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(e.bytes)).toString();
        } catch (CharacterCodingException x) {
            problems.add(new Problem(e.name, "is not UTF-8 text"));
            return null;
        }
    }
}
