package org.gamecert.verifier.bundle;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.engine.CompositeVerifier;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.engine.Verifier;
import org.gamecert.verifier.kernel.Composition;
import org.gamecert.verifier.kernel.Violation;

/**
 * Checks a release bundle (a BagIt bag made by `produce release`): the bag is complete and valid,
 * the Ed25519 signature holds (against a trusted key with --pubkey), then every certificate is
 * verified by the core {@link Verifier}. Not part of the trusted core: a bundle only packages
 * certificates; what a verified certificate proves is the core's business.
 *
 * <p>Entry points for the CLI: {@link #isBundle(Path)} and {@link #verify(Path, BundleOptions, PrintStream, PrintStream)}.
 */
public final class BundleVerifier {
    public static final int VERIFIED = 0, REJECTED = 1, ERROR = 2, INCOMPLETE = 3;
    /** The mode of a mode-5 certificate in a bundle's texts (SPEC §12); produce release writes it. */
    public static final String MODE_5 = "semi-strong (optimal moves; tie-break proven at P and P' only)";

    private BundleVerifier() {}

    /** True for a directory, a .tar / .tar.zst, or a split part of one (.tar.zst.00, .000, .part01): what {@link #verify} accepts. */
    public static boolean isBundle(Path path) {
        return BundleInput.looksLikeBundle(path);
    }

    /** Checks the bundle, prints the human report (or JSON with options.json) on out, progress on err; returns the exit code. Never throws. */
    public static int verify(Path path, BundleOptions options, PrintStream out, PrintStream err) {
        BundleReport r = check(path, options, options.json ? null : err);
        if (options.json) out.println(toJson(r));
        else printHuman(r, out);
        out.flush();
        return r.exitCode;
    }

    /** Checks the bundle and returns the report; progress lines go to progress (may be null). Never throws. */
    public static BundleReport check(Path path, BundleOptions options, PrintStream progress) {
        BundleReport r = new BundleReport();
        r.path = path.toString();
        Path spool = null;
        try {
            BundleInput input;
            try { input = BundleInput.detect(path); }
            catch (IllegalArgumentException e) { r.errorMessage = e.getMessage(); return r; }
            r.format = input.describe();
            byte[] trusted = null;
            if (options.pubkey != null) {
                try { trusted = Signature.readPublicKey(options.pubkey); }
                catch (IOException e) { r.errorMessage = "--pubkey: " + e.getMessage(); return r; }
                r.pubkeyFingerprint = Signature.fingerprint(trusted);
            }
            // Split parts: SHA256SUMS beside them first, so that a damaged or missing part is named as such.
            Problem sums = checkSums(input, progress);
            if (sums != null) {
                r.problems.add(sums);
                return finish(r);
            }
            spool = Files.createTempDirectory("gamecert-bundle-");
            BagReader bag = new BagReader(options.maxTagFileBytes, spool);
            if (progress != null) progress.println("reading " + path + " (" + r.format + ") ...");
            try {
                if (input.kind == BundleInput.Kind.DIRECTORY) bag.readDirectory(path);
                else try (InputStream in = input.openTar()) { bag.readTar(in); }
            } catch (IOException | RuntimeException e) {
                // A corrupt archive stream: the bundle is damaged, which is a rejection, not an unreadable request.
                r.problems.add(new Problem(path.getFileName().toString(), "cannot be read as " + r.format + ": " + e.getMessage()));
                return finish(r);
            }
            if (bag.files.isEmpty() && bag.problems.isEmpty()) { r.errorMessage = path + ": empty, not a bundle"; return r; }
            if (input.kind == BundleInput.Kind.DIRECTORY && !bag.files.containsKey(BagChecker.BAGIT)
                    && !bag.files.containsKey(BagChecker.BAG_INFO) && !bag.files.containsKey("manifest-sha256.txt")) {
                r.errorMessage = path + ": not a bundle (no bagit.txt, bag-info.txt or manifest-sha256.txt)";
                return r;
            }
            BagChecker checker = new BagChecker(bag);
            r.problems.addAll(checker.check());
            r.title = checker.first("Title");
            r.pinnedVersion = checker.first("Verifier-Version");
            r.pinnedJarSha256 = checker.first("Verifier-Jar-SHA256");
            r.pinnedCommit = checker.first("Verifier-Commit");
            for (String n : bag.files.keySet()) if (n.startsWith("data/")) { r.payloadFiles++; r.payloadBytes += bag.files.get(n).size; }
            checkSignature(r, bag, checker, trusted);
            identifySelf(r);
            String mismatch = pinnedCommitMismatch(r);
            if (mismatch != null) r.problems.add(new Problem(BagChecker.BAG_INFO, mismatch));
            if (!r.problems.isEmpty()) return finish(r);

            // A certificate is stored as one (spooled or in place), not kept as a derived file.
            for (String name : checker.certificates.keySet()) {
                BagEntry e = bag.files.get(name);
                if (e == null || e.file == null)
                    r.problems.add(new Problem(name, "is named as a certificate in bag-info.txt but is"
                            + " not stored as one (a derived file's name)"));
            }
            if (!r.problems.isEmpty()) return finish(r);

            // The bag holds; now the certificates, each from scratch.
            for (Map.Entry<String, String> c : checker.certificates.entrySet()) {
                BundleReport.CertificateOutcome o = new BundleReport.CertificateOutcome();
                o.file = c.getKey();
                o.claimedCommitment = c.getValue();
                BagEntry e = bag.files.get(c.getKey());
                if (progress != null) progress.println("verifying " + o.file + " (" + e.size + " bytes) ...");
                Result res = Verifier.verify(e.file, options.certificate);
                o.entries = res.entries;
                switch (res.verdict) {
                    case VERIFIED:
                        o.verdict = "verified";
                        o.commitment = res.commitment;
                        o.rootValue = res.header.rootValue;
                        o.game = res.header.family == 4 ? "loa:" + res.header.width + "x" + res.header.height
                                : res.header.family == 3 ? "nogo:1x" + res.header.width
                                : (res.header.family == 1 ? "othello:" : "connect4:") + res.header.width + "x" + res.header.height;
                        o.mode = res.header.baseMode == 5 ? MODE_5 : res.header.semiStrong ? "semi-strong" : "weak";
                        o.census = res.census.toArray(new long[0][]);
                        if (!res.commitment.equals(o.claimedCommitment)) {
                            o.verdict = "rejected";
                            o.failure = "its commitment is " + res.commitment + " but bag-info.txt names " + o.claimedCommitment;
                            o.commitment = null;
                            r.problems.add(new Problem(o.file, o.failure));
                        }
                        break;
                    case REJECTED: {
                        o.verdict = "rejected";
                        Violation v = res.firstViolation();
                        o.failure = v == null ? "rejected" : v.toString();
                        r.problems.add(new Problem(o.file, "certificate rejected: " + o.failure));
                        break;
                    }
                    case INCOMPLETE:
                        o.verdict = "incomplete";
                        o.failure = "not every part was checked";
                        break;
                    default:
                        o.verdict = "error";
                        o.failure = res.errorMessage;
                }
                r.certificates.add(o);
            }
            // Then every composite: its parts (in the bundle, or by reference in --parts), then the composition rules.
            for (Map.Entry<String, String[]> c : checker.composites.entrySet())
                r.composites.add(checkComposite(r, bag, c.getKey(), c.getValue(), options, progress));
            boolean allVerified = !r.certificates.isEmpty() || !r.composites.isEmpty();
            for (BundleReport.CertificateOutcome c : r.certificates) allVerified &= c.verdict.equals("verified");
            for (BundleReport.CompositeOutcome c : r.composites) allVerified &= c.verdict.equals("verified");
            if (allVerified) checkDerivedFiles(r, bag, checker);
            return finish(r);
        } catch (IOException | RuntimeException e) {
            r.verdict = "error";
            r.exitCode = ERROR;
            r.errorMessage = "internal error: " + e;
            return r;
        } finally {
            if (spool != null) deleteTree(spool);
        }
    }

    /**
     * One composite of the bundle (SPEC §15): data/NAME/composite.gscm, its parts data/NAME/HEX.gsc
     * when bag-info says parts-included, else (parts-by-reference) HEX.gsc in --parts DIR when
     * given. Verified only when the composite verifier verifies it and its composite id is the one
     * bag-info.txt names; a by-reference composite without its parts is incomplete; a bundle that
     * says its parts are included but lacks one, or carries a certificate its manifest does not
     * name, is rejected.
     */
    private static BundleReport.CompositeOutcome checkComposite(BundleReport r, BagReader bag, String manifestPath, String[] claim,
            BundleOptions options, PrintStream progress) {
        BundleReport.CompositeOutcome o = new BundleReport.CompositeOutcome();
        o.file = manifestPath;
        String dir = manifestPath.substring(0, manifestPath.length() - CompositeVerifier.MANIFEST.length()); // data/NAME/
        o.name = dir.substring("data/".length(), dir.length() - 1);
        o.claimedId = claim[0];
        o.partsIncluded = claim[1].equals("parts-included");
        Path partsDir = o.partsIncluded ? null : options.partsDir;
        o.partsFrom = o.partsIncluded ? "the bundle" : partsDir == null ? null : partsDir.toString();
        BagEntry me = bag.files.get(manifestPath);
        java.util.function.Function<String, Path> locate = hex -> {
            if (o.partsIncluded) {
                BagEntry e = bag.files.get(dir + hex + ".gsc");
                return e == null ? null : e.file;
            }
            return partsDir == null ? null : partsDir.resolve(hex + ".gsc");
        };
        if (progress != null) progress.println("verifying composite " + manifestPath + " (parts " + (o.partsIncluded ? "in the bundle"
                : partsDir == null ? "referenced by commitment id, not given: pass --parts DIR" : "from " + partsDir) + ") ...");
        Options each = options.certificate.copy();
        each.progress = null;
        CompositeVerifier.Outcome c = CompositeVerifier.verify(me.file, each, progress, locate);
        o.parts = c.parts.size();
        for (CompositeVerifier.PartReport p : c.parts) if (p.status.equals("not given")) o.partsNotGiven++;
        Result.Verdict v = c.verdict();
        if (v == Result.Verdict.ERROR) {
            o.verdict = "error";
            o.failure = c.error;
            return o;
        }
        // Every certificate in the composite's folder is a part its manifest names.
        if (c.manifest != null) {
            java.util.Set<String> named = new java.util.HashSet<>();
            for (int i = 0; i < c.manifest.partCount(); i++) named.add(dir + c.manifest.partHex(i) + ".gsc");
            for (String n : bag.files.keySet())
                if (n.startsWith(dir) && bag.files.get(n).certificateMagic && !named.contains(n))
                    r.problems.add(new Problem(n, "a certificate in the folder of composite " + manifestPath + " that its manifest does not name"));
            if (!c.manifest.compositeId().equals(o.claimedId)) {
                o.failure = "its composite id is " + c.manifest.compositeId() + " but bag-info.txt names " + o.claimedId;
                r.problems.add(new Problem(manifestPath, o.failure));
            }
        }
        if (v == Result.Verdict.REJECTED) {
            o.verdict = "rejected";
            Composition.Outcome k = c.composition;
            Violation w = k.violation;
            String part = k.violationPart >= 0 ? " (part " + k.violationPart + ", " + c.parts.get(k.violationPart).commitment + ")" : "";
            o.failure = (w == null ? "rejected" : w.rule() + " " + w.message()) + part
                    + (k.partViolation != null ? "; the part's first violation: " + k.partViolation : "");
            String about = k.violationPart >= 0 && o.partsIncluded ? dir + c.manifest.partHex(k.violationPart) + ".gsc" : manifestPath;
            r.problems.add(new Problem(about, "composite rejected: " + o.failure));
            return o;
        }
        if (v == Result.Verdict.INCOMPLETE) {
            o.verdict = "incomplete";
            o.failure = o.partsNotGiven + " of " + o.parts + " parts not given" + (o.partsIncluded ? "" : partsDir == null
                    ? ": they are referenced by commitment id; pass --parts DIR with the files HEX.gsc"
                    : " in " + partsDir);
            if (o.partsIncluded) {
                java.util.List<String> missing = new java.util.ArrayList<>();
                for (CompositeVerifier.PartReport p : c.parts)
                    if (p.status.equals("not given")) missing.add(dir + p.commitment.substring(7) + ".gsc" + (p.note != null ? " (" + p.note + ")" : ""));
                r.problems.add(new Problem(manifestPath, "bag-info.txt says its parts are in the bundle, but " + o.partsNotGiven + " are not: "
                        + String.join(", ", missing.subList(0, Math.min(5, missing.size()))) + (missing.size() > 5 ? ", ..." : "")));
            }
            return o;
        }
        o.verdict = "verified";
        o.compositeId = c.composition.compositeId;
        if (!o.compositeId.equals(o.claimedId)) { // already a problem above
            o.verdict = "rejected";
            o.compositeId = null;
            return o;
        }
        o.texts = BundleTexts.composite(o.name, o.partsIncluded, c);
        return o;
    }

    /**
     * Every statement of the payload's derived files agrees with what was verified (issue 21): the
     * census JSON of each certificate, census.svg, CITATION.cff and README.md are rendered again by
     * {@link BundleTexts} from the verified certificates (game, mode, root value, commitment,
     * entries, the verifier's own census) and from bag-info.txt, and must be the same bytes; a
     * difference is named with its file and first differing line. bag-info.txt's gamecert fields
     * are checked against the same facts. Any other payload file must be declared Extra-Material
     * (then carried, not vouched for, and named on the VERIFIED line).
     */
    private static void checkDerivedFiles(BundleReport r, BagReader bag, BagChecker checker) {
        java.util.List<BundleTexts.Cert> certs = new java.util.ArrayList<>();
        java.util.Set<String> vouched = new java.util.HashSet<>();
        for (BundleReport.CertificateOutcome o : r.certificates) {
            String file = o.file.substring("data/".length());
            BundleTexts.Cert c = new BundleTexts.Cert(file, o.game, o.mode, o.rootValue, o.commitment, o.entries, o.census);
            certs.add(c);
            vouched.add(o.file);
        }
        certs.sort(java.util.Comparator.comparing(BundleTexts.Cert::file)); // the release's order
        java.util.List<BundleTexts.Composite> comps = new java.util.ArrayList<>();
        for (BundleReport.CompositeOutcome o : r.composites) {
            comps.add(o.texts);
            vouched.add(o.file);
            if (o.partsIncluded) for (String n : bag.files.keySet())
                if (n.startsWith("data/" + o.name + "/") && bag.files.get(n).certificateMagic) vouched.add(n); // each one a part its manifest names (checked)
        }
        comps.sort(java.util.Comparator.comparing(BundleTexts.Composite::name)); // the release's order
        // The signing key's fingerprint is computed here, never read: bag-info's must equal it.
        String keyText = checker.first("Signature-Public-Key");
        byte[] key = keyText == null ? null : Signature.decode(keyText, 32);
        String claimedPrint = checker.first("Signature-Key-Fingerprint");
        // 64 hex digits by fours after 0.6.0; a bundle made up to 0.6.0 gives the first 16 (and its README says so)
        String fingerprint = key == null ? null : Signature.fingerprintAsClaimed(key, claimedPrint);
        if (!java.util.Objects.equals(fingerprint, claimedPrint))
            r.problems.add(new Problem(BagChecker.BAG_INFO, "Signature-Key-Fingerprint is " + claimedPrint + " but the key's fingerprint is "
                    + fingerprint));
        java.util.List<String> authors = checker.info.getOrDefault("author", java.util.List.of());
        if (authors.isEmpty()) r.problems.add(new Problem(BagChecker.BAG_INFO, "names no Author"));
        else if (!authors.get(0).equals(checker.first("Contact-Name")))
            r.problems.add(new Problem(BagChecker.BAG_INFO, "Contact-Name is " + checker.first("Contact-Name") + ", not the first Author "
                    + authors.get(0)));
        String doi = checker.first("External-Identifier");
        if (doi != null && !doi.startsWith("doi:")) r.problems.add(new Problem(BagChecker.BAG_INFO, "External-Identifier is not doi:..."));
        BundleTexts.Meta meta = new BundleTexts.Meta(checker.first("Title"), authors, checker.info.getOrDefault("author-orcid", java.util.List.of()),
                checker.first("Bagging-Date"), doi == null || !doi.startsWith("doi:") ? null : doi.substring(4), checker.first("Verifier-Version"),
                checker.first("Verifier-Jar-SHA256"), fingerprint, checker.first("Verifier-Commit"), checker.first("Data-License"),
                checker.first("Bundle-Version"), checker.first("Repository-Code"));
        if (meta.title() == null) r.problems.add(new Problem(BagChecker.BAG_INFO, "has no Title"));
        if (meta.verifierVersion() == null || meta.verifierJarSha256() == null)
            r.problems.add(new Problem(BagChecker.BAG_INFO, "does not pin the verifier (Verifier-Version, Verifier-Jar-SHA256)"));
        if (!r.problems.isEmpty()) return;
        java.util.LinkedHashMap<String, String> expected = new java.util.LinkedHashMap<>();
        for (BundleTexts.Cert c : certs) expected.put("data/" + c.censusJsonName(), BundleTexts.censusJson(c));
        for (BundleTexts.Composite c : comps) {
            if (expected.containsKey("data/" + c.censusJsonName()))
                r.problems.add(new Problem("data/" + c.censusJsonName(), "the census file of both a certificate and composite " + c.manifestPath()));
            expected.put("data/" + c.censusJsonName(), BundleTexts.censusJson(c));
        }
        expected.put("data/census.svg", BundleTexts.censusSvg(meta.title(), certs, comps));
        expected.put("data/CITATION.cff", BundleTexts.citationCff(meta, certs, comps));
        expected.put("data/README.md", BundleTexts.readme(meta, certs, comps));
        for (java.util.Map.Entry<String, String> e : expected.entrySet()) {
            vouched.add(e.getKey());
            BagEntry f = bag.files.get(e.getKey());
            if (f == null) { r.problems.add(new Problem(e.getKey(), "missing: a bundle carries it, rendered from what it verifies")); continue; }
            String found = f.bytes != null ? new String(f.bytes, java.nio.charset.StandardCharsets.UTF_8) : null;
            if (found == null) { r.problems.add(new Problem(e.getKey(), "could not be read to compare (too large for a derived file)")); continue; }
            if (found.equals(e.getValue())) continue;
            // a bundle released up to 29b3b82 carries the figure's earlier layout (same numbers)
            if (e.getKey().equals("data/census.svg") && found.equals(EarlierCensusSvg.censusSvg(meta.title(), certs, comps))) continue;
            r.problems.add(new Problem(e.getKey(), firstDifference(e.getValue(), found)));
        }
        java.util.Set<String> declared = new java.util.HashSet<>(checker.info.getOrDefault("extra-material", java.util.List.of()));
        for (String n : bag.files.keySet()) {
            if (!n.startsWith("data/") || vouched.contains(n)) continue;
            if (declared.contains(n)) r.extraMaterial.add(n);
            else r.problems.add(new Problem(n, "a payload file that is neither a certificate, nor rendered from one, nor declared "
                    + "Extra-Material in bag-info.txt: nothing vouches for it"));
        }
        for (String d : declared) if (!bag.files.containsKey(d)) r.problems.add(new Problem(BagChecker.BAG_INFO, "Extra-Material " + d + " is not in the bag"));
    }

    /** "line N: expected ..., found ..." for the first line where the rendering and the file differ. */
    static String firstDifference(String expected, String found) {
        String[] a = expected.split("\n", -1), b = found.split("\n", -1);
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            String x = i < a.length ? a[i] : "(end of file)", y = i < b.length ? b[i] : "(end of file)";
            if (!x.equals(y))
                return "differs from what the verified certificates and bag-info.txt give, at line " + (i + 1) + ": expected '" + clip(x)
                        + "', found '" + clip(y) + "'";
        }
        return "differs from what the verified certificates and bag-info.txt give";
    }

    private static String clip(String s) { return s.length() > 160 ? s.substring(0, 160) + "…" : s; }

    private static BundleReport finish(BundleReport r) {
        boolean error = false, incomplete = false;
        for (BundleReport.CertificateOutcome c : r.certificates) {
            if (c.verdict.equals("error")) error = true;
            if (c.verdict.equals("incomplete")) incomplete = true;
        }
        for (BundleReport.CompositeOutcome c : r.composites) {
            if (c.verdict.equals("error")) error = true;
            if (c.verdict.equals("incomplete")) incomplete = true;
        }
        if (!r.problems.isEmpty()) { r.verdict = "rejected"; r.exitCode = REJECTED; }
        else if (error) { r.verdict = "error"; r.exitCode = ERROR; r.errorMessage = "a certificate or composite could not be checked"; }
        else if (incomplete) { r.verdict = "incomplete"; r.exitCode = INCOMPLETE; }
        else {
            r.verdict = "verified";
            r.exitCode = VERIFIED;
            for (BundleReport.CertificateOutcome c : r.certificates) r.citations.add(citation(r, c));
            for (BundleReport.CompositeOutcome c : r.composites) r.citations.add(citation(r, c));
        }
        return r;
    }

    static String citation(BundleReport r, BundleReport.CompositeOutcome c) {
        BundleTexts.Composite t = c.texts;
        StringBuilder s = new StringBuilder("VERIFIED ").append(r.title == null ? "(untitled)" : r.title);
        if (r.certificates.size() + r.composites.size() > 1) s.append(" · ").append(c.file);
        s.append(" · ").append(t.game()).append(' ').append(t.mode()).append(" composite of ").append(t.parts()).append(" parts")
                .append(c.partsIncluded ? "" : " (by reference, from " + c.partsFrom + ")");
        s.append(" · composite ").append(c.compositeId).append(" · ").append(t.claim()).append(" at the root · verifier ");
        s.append(verifierText(r));
        if (!r.extraMaterial.isEmpty())
            s.append(" · ").append(r.extraMaterial.size()).append(" extra file(s) not vouched for: ").append(String.join(", ", r.extraMaterial));
        return s.toString();
    }

    private static String verifierText(BundleReport r) {
        if (r.verifierJarSha256 != null) return (r.verifierVersion == null ? "unknown" : r.verifierVersion) + " (jar sha256:" + r.verifierJarSha256 + ")";
        return (r.verifierVersion == null ? "unknown" : r.verifierVersion) + " (not run from a jar)";
    }

    static String citation(BundleReport r, BundleReport.CertificateOutcome c) {
        StringBuilder s = new StringBuilder("VERIFIED ").append(r.title == null ? "(untitled)" : r.title);
        if (r.certificates.size() + r.composites.size() > 1) s.append(" · ").append(c.file);
        // The game and mode are the verified header's; the title is the author's free text.
        s.append(" · ").append(c.game).append(' ').append(c.mode);
        s.append(" · commitment ").append(c.commitment).append(" · root value ").append(c.rootValue).append(" · verifier ");
        if (r.verifierJarSha256 != null) s.append(r.verifierVersion == null ? "unknown" : r.verifierVersion).append(" (jar sha256:").append(r.verifierJarSha256).append(')');
        else s.append(r.verifierVersion == null ? "unknown" : r.verifierVersion).append(" (not run from a jar)");
        if (!r.extraMaterial.isEmpty())
            s.append(" · ").append(r.extraMaterial.size()).append(" extra file(s) not vouched for: ").append(String.join(", ", r.extraMaterial));
        return s.toString();
    }

    private static void checkSignature(BundleReport r, BagReader bag, BagChecker checker, byte[] trusted) {
        BagEntry sig = bag.files.get(BagChecker.SIGNATURE);
        String keyText = checker.first("Signature-Public-Key");
        r.signaturePresent = sig != null;
        byte[] key = keyText == null ? null : Signature.decode(keyText, 32);
        if (keyText != null && key == null) r.problems.add(new Problem(BagChecker.BAG_INFO, "Signature-Public-Key is not base64 of 32 bytes"));
        if (key != null) r.signatureFingerprint = Signature.fingerprint(key);
        if (sig == null) {
            if (keyText != null) r.problems.add(new Problem(BagChecker.SIGNATURE, "missing, but bag-info.txt names a signing key: the signature was removed"));
            if (trusted != null) r.problems.add(new Problem(BagChecker.SIGNATURE, "missing: the bundle is not signed, yet --pubkey asks for a signature"));
            return;
        }
        if (keyText == null) { r.problems.add(new Problem(BagChecker.SIGNATURE, "present, but bag-info.txt names no Signature-Public-Key")); return; }
        if (key == null) return;
        BagEntry tm = bag.files.get("tagmanifest-sha256.txt");
        byte[] sigBytes = sig.bytes == null ? null : Signature.decode(new String(sig.bytes, StandardCharsets.US_ASCII), 64);
        if (sigBytes == null) { r.problems.add(new Problem(BagChecker.SIGNATURE, "is not one line of base64 of a 64-byte Ed25519 signature")); return; }
        if (tm == null || tm.bytes == null) return; // already a problem
        r.signatureValid = Signature.verify(key, tm.bytes, sigBytes);
        if (!r.signatureValid) r.problems.add(new Problem(BagChecker.SIGNATURE, "Ed25519 signature over tagmanifest-sha256.txt does not verify with the key in bag-info.txt (fingerprint " + r.signatureFingerprint + ")"));
        if (trusted != null) {
            r.signatureCheckedAgainstPubkey = true;
            if (!java.util.Arrays.equals(trusted, key)) {
                r.problems.add(new Problem(BagChecker.SIGNATURE, "signed with key " + r.signatureFingerprint + ", not with the --pubkey key " + r.pubkeyFingerprint));
                r.signatureValid = false;
            }
        }
    }

    /**
     * The running verifier's version and commit (from the build information in its jar, else the
     * version from its Maven metadata) and jar SHA-256 (from its code source, when a jar).
     */
    static void identifySelf(BundleReport r) {
        org.gamecert.verifier.cli.BuildInfo build = org.gamecert.verifier.cli.BuildInfo.verifier();
        r.verifierCommit = build.bagInfoCommit();
        if (!build.version().equals(org.gamecert.verifier.cli.BuildInfo.UNKNOWN)) r.verifierVersion = build.version();
        else try (InputStream in = BundleVerifier.class.getResourceAsStream("/META-INF/maven/org.gamecert/verifier/pom.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                r.verifierVersion = p.getProperty("version");
            }
        } catch (IOException ignored) {
            // unknown version: reported as such
        }
        try {
            Path self = Paths.get(BundleVerifier.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isRegularFile(self)) {
                java.security.MessageDigest md = BagReader.md("SHA-256");
                byte[] buf = new byte[1 << 16];
                try (InputStream in = Files.newInputStream(self)) { for (int n; (n = in.read(buf)) > 0; ) md.update(buf, 0, n); }
                r.verifierJarSha256 = BagReader.hex(md.digest());
            }
        } catch (Exception ignored) {
            // no code source: the jar hash is reported unknown
        }
        if (r.verifierJarSha256 != null && r.pinnedJarSha256 != null) r.verifierMatchesPinned = r.verifierJarSha256.equals(r.pinnedJarSha256);
    }

    /**
     * When the running verifier is the pinned jar (same SHA-256), the commit it was built from is
     * in it: bag-info.txt's Verifier-Commit, when given, must say the same. Null when it does or
     * when nothing can be compared (another or an unknown jar, a bundle from before Verifier-Commit).
     */
    static String pinnedCommitMismatch(BundleReport r) {
        if (!Boolean.TRUE.equals(r.verifierMatchesPinned) || r.pinnedCommit == null || r.verifierCommit == null
                || r.pinnedCommit.equals(r.verifierCommit)) return null;
        return "Verifier-Commit is '" + r.pinnedCommit + "' but the pinned jar (the one running, jar sha256:" + r.pinnedJarSha256
                + ") was built from '" + r.verifierCommit + "'";
    }

    // ---- output ----

    static void printHuman(BundleReport r, PrintStream out) {
        if (r.verdict.equals("error") && r.format == null || r.errorMessage != null && r.problems.isEmpty() && r.certificates.isEmpty()) {
            show(out, "ERROR " + r.errorMessage);
            return;
        }
        show(out, "bundle       " + r.path + " (" + r.format + ")");
        if (r.title != null) show(out, "title        " + r.title);
        boolean bagOk = true;
        for (Problem p : r.problems) if (!isCertificateProblem(r, p)) bagOk = false;
        show(out, "bag          " + (bagOk ? "complete and valid: every file listed, every checksum right (sha256, sha512), no extra file, "
                + r.payloadFiles + " payload files, " + r.payloadBytes + " bytes" : "NOT valid (see below)"));
        if (!r.signaturePresent) show(out, "signature    none (the bundle is not signed)");
        else if (r.signatureCheckedAgainstPubkey && r.signatureValid) show(out, "signature    valid, Ed25519 key fingerprint " + r.signatureFingerprint + ", the --pubkey key");
        else if (r.signatureValid) show(out, "signature    present and consistent (key fingerprint " + r.signatureFingerprint
                + ") but NOT checked against a trusted key: compare the fingerprint with the authors' or pass --pubkey KEY.pub");
        else show(out, "signature    INVALID (see below)");
        for (BundleReport.CertificateOutcome c : r.certificates)
            show(out, "certificate  " + c.file + ": " + c.verdict + (c.commitment != null ? ", commitment " + c.commitment + ", root value " + c.rootValue : "")
                    + ", " + c.entries + " entries" + (c.failure != null && !c.verdict.equals("rejected") ? " (" + c.failure + ")" : ""));
        for (BundleReport.CompositeOutcome c : r.composites)
            show(out, "composite    " + c.file + ": " + c.verdict + (c.compositeId != null ? ", composite id " + c.compositeId : "")
                    + ", " + c.parts + " parts " + (c.partsIncluded ? "in the bundle" : "referenced by commitment id"
                    + (c.partsFrom != null ? ", read from " + c.partsFrom : ", not given"))
                    + (c.texts != null ? ", " + c.texts.claim() + " at the root" : "")
                    + (c.failure != null && !c.verdict.equals("rejected") ? " (" + c.failure + ")" : ""));
        String self = (r.verifierVersion == null ? "version unknown" : r.verifierVersion)
                + (r.verifierCommit == null ? "" : " (commit " + r.verifierCommit + ")")
                + (r.verifierJarSha256 == null ? " (not run from a jar: its hash is unknown)" : " (jar sha256:" + r.verifierJarSha256 + ")");
        String pinned = r.pinnedVersion + (r.pinnedCommit == null ? "" : " (commit " + r.pinnedCommit + ")") + " (jar sha256:" + r.pinnedJarSha256 + ")";
        if (r.pinnedJarSha256 == null) show(out, "verifier     " + self + "; the bundle pins no verifier");
        else if (r.verifierJarSha256 == null) show(out, "verifier     " + self + "; cannot compare with the pinned verifier " + pinned);
        else if (Boolean.TRUE.equals(r.verifierMatchesPinned)) show(out, "verifier     " + self + " = the verifier pinned by the bundle");
        else show(out, "verifier     " + self + "; WARNING: the bundle pins verifier " + pinned
                + ". Not a rejection (a newer verifier may be used), but to reproduce the authors' check, rebuild the pinned one"
                + " (scripts/rebuild-verifier-check BUNDLE).");
        if (!r.problems.isEmpty()) {
            show(out, "REJECTED " + r.path + ": " + r.problems.size() + " problem" + (r.problems.size() == 1 ? "" : "s"));
            for (Problem p : r.problems) show(out, "  " + p);
        } else if (r.verdict.equals("verified")) for (String c : r.citations) show(out, c);
        else if (r.verdict.equals("incomplete")) {
            boolean byRef = false;
            for (BundleReport.CompositeOutcome c : r.composites) byRef |= c.verdict.equals("incomplete") && !c.partsIncluded;
            show(out, "INCOMPLETE " + r.path + ": " + (byRef ? "a composite's parts are referenced by commitment id and not all given "
                    + "(pass --parts DIR with the files <64 hex>.gsc)" : "some certificate was not fully checked"));
        }
        else show(out, "ERROR " + r.path + ": " + r.errorMessage);
    }

    /** One line of the human report: titles, names and problems come from the bundle (TerminalText). */
    private static void show(PrintStream out, String line) {
        out.println(org.gamecert.verifier.cli.TerminalText.printable(line));
    }

    private static boolean isCertificateProblem(BundleReport r, Problem p) {
        for (BundleReport.CertificateOutcome c : r.certificates) if (c.file.equals(p.file) && c.failure != null) return true;
        for (BundleReport.CompositeOutcome c : r.composites) if (p.file.startsWith("data/" + c.name + "/") && c.failure != null) return true;
        return false;
    }

    /**
     * The SHA256SUMS beside a split bundle's parts (written by produce release --split-size, as
     * beside the published tablebase's parts): every line that names a part of this archive must
     * give that part's SHA-256, and when it names any, every part present must be listed. Null when
     * it holds, or when there is no such file; else the problem, naming the part.
     */
    static Problem checkSums(BundleInput input, PrintStream progress) throws IOException {
        Path sums = input.sumsFile();
        if (sums == null) return null;
        java.util.Set<String> listed = new java.util.TreeSet<>();
        int lineNo = 0;
        if (Files.size(sums) > 1 << 20) return new Problem("SHA256SUMS", "is larger than 1 MiB: not a list of the parts");
        List<String> lines;
        try {
            lines = java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                    .decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(sums))).toString().lines().toList();
        } catch (java.nio.charset.CharacterCodingException e) {
            return new Problem("SHA256SUMS", "is not UTF-8 text");
        }
        for (String line : lines) {
            lineNo++;
            if (line.isBlank()) continue;
            if (line.length() < 67 || line.charAt(64) != ' ' || (line.charAt(65) != ' ' && line.charAt(65) != '*'))
                return new Problem("SHA256SUMS", "line " + lineNo + " is not '<sha256>  <file>'");
            String name = line.substring(66);
            if (!input.isPartName(name)) continue;
            listed.add(name);
            Path part = sums.resolveSibling(name);
            if (!Files.isRegularFile(part)) return new Problem(name, "listed in SHA256SUMS, is missing");
            String got = BagReader.hex(sha256(part));
            if (!got.equalsIgnoreCase(line.substring(0, 64)))
                return new Problem(name, "fails its SHA-256 in SHA256SUMS (listed " + line.substring(0, 64) + ", found " + got + ")");
            if (progress != null) progress.println("SHA256SUMS: " + name + " OK");
        }
        if (!listed.isEmpty())
            for (Path p : input.parts)
                if (!listed.contains(p.getFileName().toString()))
                    return new Problem(p.getFileName().toString(), "is not listed in SHA256SUMS, which lists the other parts");
        return null;
    }

    private static byte[] sha256(Path file) throws IOException {
        java.security.MessageDigest md = BagReader.md("SHA-256");
        byte[] buf = new byte[1 << 20];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buf)) > 0; ) md.update(buf, 0, n);
        }
        return md.digest();
    }

    static String toJson(BundleReport r) {
        StringBuilder s = new StringBuilder("{");
        s.append(org.gamecert.verifier.cli.JsonHead.of(r.path, "bundle", r.verdict, r.exitCode)).append(',');
        kv(s, "format", r.format).append(',');
        kv(s, "title", r.title).append(',');
        kv(s, "error", r.errorMessage).append(',');
        kv(s, "payload_files", r.payloadFiles).append(',');
        kv(s, "payload_bytes", r.payloadBytes).append(',');
        s.append("\"problems\":[");
        for (int i = 0; i < r.problems.size(); i++) {
            if (i > 0) s.append(',');
            s.append('{');
            kv(s, "file", r.problems.get(i).file).append(',');
            kv(s, "message", r.problems.get(i).message).append('}');
        }
        s.append("],\"signature\":{");
        kv(s, "present", r.signaturePresent).append(',');
        kv(s, "valid", r.signaturePresent ? (Object) r.signatureValid : null).append(',');
        kv(s, "checked_against_pubkey", r.signatureCheckedAgainstPubkey).append(',');
        kv(s, "fingerprint", r.signatureFingerprint).append("},\"certificates\":[");
        for (int i = 0; i < r.certificates.size(); i++) {
            BundleReport.CertificateOutcome c = r.certificates.get(i);
            if (i > 0) s.append(',');
            s.append('{');
            kv(s, "file", c.file).append(',');
            kv(s, "verdict", c.verdict).append(',');
            kv(s, "commitment", c.commitment).append(',');
            kv(s, "claimed_commitment", c.claimedCommitment).append(',');
            kv(s, "root_value", c.rootValue).append(',');
            kv(s, "game", c.game).append(',');
            kv(s, "mode", c.mode).append(',');
            kv(s, "entries", c.entries).append(',');
            kv(s, "failure", c.failure).append('}');
        }
        s.append("],\"composites\":[");
        for (int i = 0; i < r.composites.size(); i++) {
            BundleReport.CompositeOutcome c = r.composites.get(i);
            if (i > 0) s.append(',');
            s.append('{');
            kv(s, "file", c.file).append(',');
            kv(s, "verdict", c.verdict).append(',');
            kv(s, "composite_id", c.compositeId).append(',');
            kv(s, "claimed_composite_id", c.claimedId).append(',');
            kv(s, "parts", c.parts).append(',');
            kv(s, "parts_in_bundle", c.partsIncluded).append(',');
            kv(s, "parts_from", c.partsFrom).append(',');
            kv(s, "parts_not_given", c.partsNotGiven).append(',');
            kv(s, "game", c.texts == null ? null : c.texts.game()).append(',');
            kv(s, "mode", c.texts == null ? null : c.texts.mode()).append(',');
            kv(s, "claim", c.texts == null ? null : c.texts.claim()).append(',');
            kv(s, "failure", c.failure).append('}');
        }
        s.append("],\"verifier\":{");
        kv(s, "version", r.verifierVersion).append(',');
        kv(s, "jar_sha256", r.verifierJarSha256).append(',');
        kv(s, "commit", r.verifierCommit).append(',');
        kv(s, "pinned_version", r.pinnedVersion).append(',');
        kv(s, "pinned_jar_sha256", r.pinnedJarSha256).append(',');
        kv(s, "pinned_commit", r.pinnedCommit).append(',');
        kv(s, "matches_pinned", r.verifierMatchesPinned).append("},\"citations\":[");
        for (int i = 0; i < r.citations.size(); i++) {
            if (i > 0) s.append(',');
            str(s, r.citations.get(i));
        }
        return s.append("]}").toString();
    }

    private static StringBuilder kv(StringBuilder s, String k, Object v) {
        str(s, k).append(':');
        if (v == null) return s.append("null");
        if (v instanceof Number || v instanceof Boolean) return s.append(v);
        return str(s, v.toString());
    }

    private static StringBuilder str(StringBuilder s, String v) {
        s.append('"');
        for (char c : v.toCharArray()) {
            if (c == '"' || c == '\\') s.append('\\').append(c);
            else if (c < 0x20) s.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            else s.append(c);
        }
        return s.append('"');
    }

    private static void deleteTree(Path root) {
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException { Files.delete(f); return FileVisitResult.CONTINUE; }
                @Override public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException { Files.delete(d); return FileVisitResult.CONTINUE; }
            });
        } catch (IOException ignored) {
            // a temp dir left behind is harmless
        }
    }

}
