package org.gamecert.producer.release;

import org.gamecert.verifier.bundle.BundleTexts;
import org.gamecert.verifier.cli.BuildInfo;
import org.gamecert.verifier.engine.CompositeVerifier;

import org.gamecert.producer.cert.CertificateReader;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Assembles a release bundle: a BagIt bag (RFC 8493) whose payload holds the certificates, their
 * census (JSON and census.svg), CITATION.cff and README.md, with SHA-256 and SHA-512 payload
 * manifests, a SHA-256 tag manifest, and optionally an Ed25519 signature over the tag manifest.
 * Everything is a function of the inputs: no clock, no host, no user name.
 */
public final class Release {
    public static final String SIGNATURE_FILE = "tagmanifest-sha256.txt.sig";
    static final Pattern SAFE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+-]{0,99}");
    static final Pattern ORCID = Pattern.compile("\\d{4}-\\d{4}-\\d{4}-\\d{3}[\\dX]");
    static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    public static final String DEFAULT_LICENSE = "CC-BY-4.0", DEFAULT_VERSION = "1";
    /** The producer's own build information (resource written by the build, as the verifier's). */
    public static final String PRODUCER_BUILD_INFO = "org/gamecert/producer/build-info.properties";

    /** What the user gives. */
    public static final class Input {
        public String title;
        public List<String> authors = new ArrayList<>();
        public List<String> orcids = new ArrayList<>();
        public String date;               // YYYY-MM-DD or null (then no Bagging-Date, mtime 0)
        public String doi;                // optional
        public List<Path> certificates = new ArrayList<>();
        /** Composite directories (holding composite.gscm and the parts as HEX.gsc, SPEC §15). */
        public List<Path> composites = new ArrayList<>();
        /** Leave the composites' parts out: the bundle holds their manifests, which reference the parts by commitment id. */
        public boolean partsByReference;
        public Path verifierJar;
        public byte[] signingSeed;        // optional Ed25519 private seed
        /** The licence of the certificates and derived files (an SPDX id, bag-info Data-License, CITATION.cff license). */
        public String license = DEFAULT_LICENSE;
        /** The bundle's own version (bag-info Bundle-Version, CITATION.cff version). */
        public String version = DEFAULT_VERSION;
        /** Where the code of the solve lives (bag-info Repository-Code, CITATION.cff repository-code); optional. */
        public String repositoryCode;
        // filled by build():
        String verifierVersion, verifierJarSha256;
        /** The pinned jar's build information (its commit: bag-info Verifier-Commit). */
        BuildInfo verifierBuild;
    }

    /** A request the user must fix (bad option value, unreadable input), as one line. */
    public static final class ReleaseException extends Exception {
        public final boolean usage;
        ReleaseException(String msg, boolean usage) { super(msg); this.usage = usage; }
    }

    /** The bag's files (sorted by name) and a summary for the command's report. */
    public static final class Bundle {
        final List<BagFile> files;
        public final List<String> commitmentIds = new ArrayList<>();
        public final List<String> compositeIds = new ArrayList<>();
        public final String fingerprint;
        public final long payloadBytes;
        public final int payloadFiles;
        public final String verifierVersion, verifierJarSha256;
        /** The pinned jar's build information: its commit and whether its sources were those of the commit. */
        public final BuildInfo verifierBuild;

        Bundle(List<BagFile> files, String fingerprint, long payloadBytes, int payloadFiles, String vv, String vh, BuildInfo vb) {
            this.files = files; this.fingerprint = fingerprint; this.payloadBytes = payloadBytes; this.payloadFiles = payloadFiles;
            this.verifierVersion = vv; this.verifierJarSha256 = vh; this.verifierBuild = vb;
        }
    }

    private Release() {}

    public static Bundle build(Input in) throws ReleaseException, IOException {
        validate(in);
        readVerifierJar(in);
        List<CertSummary> certs = new ArrayList<>();
        HashSet<String> names = new HashSet<>();
        // Sorted by file name: the order of the arguments does not change the bundle.
        in.certificates = new ArrayList<>(in.certificates);
        in.certificates.sort(java.util.Comparator.comparing(p -> String.valueOf(p.getFileName())));
        for (Path p : in.certificates) {
            CertSummary c = summarize(p);
            if (!names.add(c.file)) throw new ReleaseException("two certificates are named " + c.file + ": rename one", true);
            certs.add(c);
        }
        List<BagFile> payload = new ArrayList<>();
        for (int i = 0; i < certs.size(); i++) {
            CertSummary c = certs.get(i);
            payload.add(BagFile.of("data/" + c.file, in.certificates.get(i)));
            payload.add(BagFile.of("data/" + c.censusJsonName(), utf8(BundleTexts.censusJson(texts(c)))));
            if (!names.add(c.censusJsonName())) throw new ReleaseException("file name clash on " + c.censusJsonName(), true);
        }
        // Composites, sorted by folder name: data/NAME/composite.gscm, and the parts unless by reference.
        in.composites = new ArrayList<>(in.composites);
        in.composites.sort(java.util.Comparator.comparing(p -> String.valueOf(p.toAbsolutePath().normalize().getFileName())));
        List<BundleTexts.Composite> comps = new ArrayList<>();
        for (Path dir : in.composites) {
            BundleTexts.Composite c = verifyComposite(dir, !in.partsByReference);
            if (!names.add(c.name()) || !names.add(c.censusJsonName()))
                throw new ReleaseException("file name clash on data/" + c.name() + " or data/" + c.censusJsonName() + ": rename the composite's folder", true);
            comps.add(c);
            Path abs = dir.toAbsolutePath().normalize();
            payload.add(BagFile.of(c.manifestPath(), abs.resolve(CompositeVerifier.MANIFEST)));
            if (!in.partsByReference) {
                org.gamecert.verifier.kernel.format.Manifest m = manifestOf(abs);
                for (int i = 0; i < m.partCount(); i++)
                    payload.add(BagFile.of("data/" + c.name() + "/" + m.partHex(i) + ".gsc", abs.resolve(m.partHex(i) + ".gsc")));
            }
            payload.add(BagFile.of("data/" + c.censusJsonName(), utf8(BundleTexts.censusJson(c))));
        }
        for (String fixed : new String[] {"census.svg", "CITATION.cff", "README.md"})
            if (names.contains(fixed)) throw new ReleaseException("a certificate or composite may not be named " + fixed, true);
        byte[] publicKey = in.signingSeed == null ? null : Ed25519Keys.publicKeyOf(in.signingSeed);
        String fingerprint = publicKey == null ? null : Ed25519Keys.fingerprint(publicKey);
        // The derived files, rendered by the verifier's own renderer: the verifier renders them again
        // from what it verified and requires the same bytes.
        List<BundleTexts.Cert> texts = new ArrayList<>();
        for (CertSummary c : certs) texts.add(texts(c));
        BundleTexts.Meta meta = new BundleTexts.Meta(in.title, in.authors, in.orcids, in.date, in.doi, in.verifierVersion,
                in.verifierJarSha256, fingerprint, in.verifierBuild.bagInfoCommit(), in.license, in.version, in.repositoryCode);
        payload.add(BagFile.of("data/census.svg", utf8(BundleTexts.censusSvg(in.title, texts, comps))));
        payload.add(BagFile.of("data/CITATION.cff", utf8(BundleTexts.citationCff(meta, texts, comps))));
        payload.add(BagFile.of("data/README.md", utf8(BundleTexts.readme(meta, texts, comps))));
        Collections.sort(payload);

        StringBuilder m256 = new StringBuilder(), m512 = new StringBuilder();
        long octets = 0;
        for (BagFile f : payload) {
            String[] h;
            if (f.bytes != null) h = new String[] {Digests.hex(Digests.md("SHA-256").digest(f.bytes)), Digests.hex(Digests.md("SHA-512").digest(f.bytes))};
            else h = Digests.sha256And512(f.source);
            m256.append(h[0]).append("  ").append(f.name).append('\n');
            m512.append(h[1]).append("  ").append(f.name).append('\n');
            octets += f.size();
        }

        StringBuilder info = new StringBuilder();
        info.append("Title: ").append(in.title).append('\n');
        for (int i = 0; i < in.authors.size(); i++) {
            info.append("Author: ").append(in.authors.get(i)).append('\n');
            if (i < in.orcids.size()) info.append("Author-ORCID: ").append(in.orcids.get(i)).append('\n');
        }
        info.append("Contact-Name: ").append(in.authors.get(0)).append('\n');
        info.append("External-Description: gamecert proof certificates (SPEC v1) with census, citation and instructions; see data/README.md\n");
        if (in.doi != null) info.append("External-Identifier: doi:").append(in.doi).append('\n');
        if (in.date != null) info.append("Bagging-Date: ").append(in.date).append('\n');
        info.append("Bundle-Version: ").append(in.version).append('\n');
        info.append("Data-License: ").append(in.license).append('\n');
        if (in.repositoryCode != null) info.append("Repository-Code: ").append(in.repositoryCode).append('\n');
        info.append("Bag-Software-Agent: gamecert producer ").append(BuildInfo.load(PRODUCER_BUILD_INFO).describe()).append('\n');
        for (CertSummary c : certs) info.append("Commitment-Id: ").append(c.commitmentId).append(" data/").append(c.file).append('\n');
        for (BundleTexts.Composite c : comps)
            info.append("Composite-Id: ").append(c.compositeId()).append(' ').append(c.manifestPath())
                    .append(c.partsIncluded() ? " parts-included" : " parts-by-reference").append('\n');
        info.append("Verifier-Version: ").append(in.verifierVersion).append('\n');
        info.append("Verifier-Jar-SHA256: ").append(in.verifierJarSha256).append('\n');
        info.append("Verifier-Commit: ").append(in.verifierBuild.bagInfoCommit()).append('\n');
        if (publicKey != null) {
            info.append("Signature-Public-Key: ").append(Ed25519Keys.toText(publicKey));
            info.append("Signature-Key-Fingerprint: ").append(fingerprint).append('\n');
        }
        info.append("Payload-Oxum: ").append(octets).append('.').append(payload.size()).append('\n');

        List<BagFile> tags = new ArrayList<>();
        tags.add(BagFile.of("bagit.txt", utf8("BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n")));
        tags.add(BagFile.of("bag-info.txt", utf8(info.toString())));
        tags.add(BagFile.of("manifest-sha256.txt", utf8(m256.toString())));
        tags.add(BagFile.of("manifest-sha512.txt", utf8(m512.toString())));
        Collections.sort(tags);
        StringBuilder tm = new StringBuilder();
        for (BagFile t : tags) tm.append(Digests.hex(Digests.sha256(t.bytes))).append("  ").append(t.name).append('\n');
        byte[] tagManifest = utf8(tm.toString());
        List<BagFile> all = new ArrayList<>(payload);
        all.addAll(tags);
        all.add(BagFile.of("tagmanifest-sha256.txt", tagManifest));
        if (in.signingSeed != null)
            all.add(BagFile.of(SIGNATURE_FILE, utf8(Ed25519Keys.toText(Ed25519Keys.sign(in.signingSeed, tagManifest)))));
        Collections.sort(all);
        Bundle b = new Bundle(all, fingerprint, octets, payload.size(), in.verifierVersion, in.verifierJarSha256, in.verifierBuild);
        for (CertSummary c : certs) b.commitmentIds.add(c.commitmentId + " data/" + c.file);
        for (BundleTexts.Composite c : comps)
            b.compositeIds.add(c.compositeId() + " " + c.manifestPath() + " (" + c.parts() + " parts, "
                    + (c.partsIncluded() ? "in the bundle" : "referenced by commitment id, not in the bundle") + ")");
        return b;
    }

    /** Writes the bundle; returns the paths written (one, or the split parts). */
    public static List<Path> write(Bundle b, Path out, String date, long splitBytes) throws IOException {
        long mtime = date == null ? 0 : LocalDate.parse(date).atStartOfDay(ZoneOffset.UTC).toEpochSecond();
        return BagWriter.write(out, b.files, mtime, splitBytes);
    }

    private static void validate(Release.Input in) throws ReleaseException {
        if (in.title == null || in.title.isBlank()) throw new ReleaseException("--title must not be empty", true);
        oneLine("--title", in.title);
        if (in.authors.isEmpty()) throw new ReleaseException("give at least one --author", true);
        for (String a : in.authors) {
            oneLine("--author", a);
            if (a.isBlank()) throw new ReleaseException("--author must not be empty", true);
        }
        if (in.orcids.size() > in.authors.size()) throw new ReleaseException("more --orcid than --author (the i-th ORCID belongs to the i-th author)", true);
        for (String o : in.orcids)
            if (!ORCID.matcher(o).matches()) throw new ReleaseException("--orcid " + o + " is not an ORCID iD like 0000-0002-1825-0097", true);
        if (in.date != null) {
            if (!DATE.matcher(in.date).matches()) throw new ReleaseException("--date must be YYYY-MM-DD", true);
            try { LocalDate.parse(in.date); } catch (java.time.DateTimeException e) { throw new ReleaseException("--date " + in.date + " is not a date", true); }
        }
        if (in.doi != null) oneLine("--doi", in.doi);
        if (!BundleTexts.isLicenseId(in.license))
            throw new ReleaseException("--license " + in.license + " is not an SPDX licence identifier like CC-BY-4.0 or CC0-1.0", true);
        if (in.version == null || in.version.isBlank()) throw new ReleaseException("--bundle-version must not be empty", true);
        oneLine("--bundle-version", in.version);
        if (in.certificates.isEmpty() && in.composites.isEmpty()) throw new ReleaseException("give at least one certificate or composite folder", true);
        if (in.partsByReference && in.composites.isEmpty())
            throw new ReleaseException("--parts-by-reference applies to composites: give a composite folder (holding composite.gscm)", true);
    }

    private static void oneLine(String what, String v) throws ReleaseException {
        for (char c : v.toCharArray()) if (c < 0x20 || c == 0x7f) throw new ReleaseException(what + " must be one line of text", true);
    }

    private static BundleTexts.Cert texts(CertSummary c) {
        return new BundleTexts.Cert(c.file, c.game, c.mode, c.rootValue, c.commitmentId, c.entries, c.census);
    }

    static CertSummary summarize(Path p) throws ReleaseException, IOException {
        if (!Files.isRegularFile(p)) throw new ReleaseException(p + ": no such certificate file", true);
        String name = p.getFileName().toString();
        if (!SAFE_NAME.matcher(name).matches())
            throw new ReleaseException(p + ": a certificate's file name must be letters, digits, '.', '_', '+', '-' (at most 100), not starting with '.'", true);
        CertificateReader r;
        try { r = CertificateReader.read(p); }
        catch (CertificateReader.FormatException e) { throw new ReleaseException(p + ": not a valid certificate: " + e.getMessage(), false); }
        catch (RuntimeException e) { throw new ReleaseException(p + ": not a valid certificate: " + e, false); }
        CertSummary c = new CertSummary();
        c.file = name;
        c.commitmentId = r.commitmentId;
        c.game = r.game.name();
        // the verifier's text for mode 5 (a bundle's texts are the verifier's, compared)
        c.mode = r.mode == 1 ? "semi-strong" : r.mode == 5 ? org.gamecert.verifier.bundle.BundleVerifier.MODE_5 : "weak";
        c.rootValue = r.rootValue;
        c.rootBoard = r.game.boardText(r.rootMover, r.rootOpponent);
        c.bytes = Files.size(p);
        c.entries = r.entries;
        c.blocks = r.blocks;
        // A verified bundle vouches for its census files, re-rendered from the verifier's own census
        // (with the proof-only terminal count of SPEC §10.3, which no trailer holds): the release takes
        // the census from the same verifier, and refuses a certificate it does not verify.
        org.gamecert.verifier.engine.Options options = new org.gamecert.verifier.engine.Options();
        options.threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        org.gamecert.verifier.kernel.Result v = org.gamecert.verifier.engine.Verifier.verify(p, options);
        if (v.verdict != org.gamecert.verifier.kernel.Result.Verdict.VERIFIED)
            throw new ReleaseException(p + ": the verifier does not verify it (" + v.verdict
                    + (v.firstViolation() != null ? ": " + v.firstViolation() : v.errorMessage != null ? ": " + v.errorMessage : "")
                    + ")", false);
        c.census = v.census.toArray(new long[0][]);
        return c;
    }

    /**
     * Verifies the composite in dir with the verifier (all its parts must be there, by reference
     * too: the release checks what it references) and returns what the texts say about it; refuses
     * anything the verifier does not verify.
     */
    static BundleTexts.Composite verifyComposite(Path dir, boolean partsIncluded) throws ReleaseException {
        Path abs = dir.toAbsolutePath().normalize();
        if (!Files.isRegularFile(abs.resolve(CompositeVerifier.MANIFEST)))
            throw new ReleaseException(dir + ": a folder given to release must be a composite, holding " + CompositeVerifier.MANIFEST
                    + " (run produce compose " + dir + ")", true);
        String name = String.valueOf(abs.getFileName());
        if (!SAFE_NAME.matcher(name).matches() || name.endsWith(".gsc"))
            throw new ReleaseException(dir + ": a composite folder's name must be letters, digits, '.', '_', '+', '-' (at most 100), "
                    + "not starting with '.' nor ending in .gsc", true);
        org.gamecert.verifier.engine.Options options = new org.gamecert.verifier.engine.Options();
        options.threads = Math.max(1, Math.min(256, Runtime.getRuntime().availableProcessors()));
        CompositeVerifier.Outcome o = CompositeVerifier.verify(abs, options, null);
        if (o.verdict() != org.gamecert.verifier.kernel.Result.Verdict.VERIFIED) {
            String why = o.error != null ? o.error
                    : o.composition.violation != null ? o.composition.violation.rule() + " " + o.composition.violation.message()
                    + (o.composition.partViolation != null ? "; the part's first violation: " + o.composition.partViolation : "")
                    : o.composition.stillOpenCount() + " open entries wait for parts not given";
            throw new ReleaseException(dir + ": the verifier does not verify this composite (" + o.verdict() + ": " + why + ")"
                    + (partsIncluded ? "" : "; --parts-by-reference releases only a composite verified with all its parts here"), false);
        }
        return BundleTexts.composite(name, partsIncluded, o);
    }

    private static org.gamecert.verifier.kernel.format.Manifest manifestOf(Path dir) throws ReleaseException, IOException {
        try { return org.gamecert.verifier.kernel.format.Manifest.read(dir.resolve(CompositeVerifier.MANIFEST)); }
        catch (org.gamecert.verifier.kernel.format.Manifest.NotAManifest | org.gamecert.verifier.kernel.format.FormatException e) {
            throw new ReleaseException(dir + ": " + e.getMessage(), false);
        }
    }

    private static void readVerifierJar(Input in) throws ReleaseException, IOException {
        Path jar = in.verifierJar;
        if (jar == null || !Files.isRegularFile(jar))
            throw new ReleaseException("no verifier jar at " + jar + ": build it (mvn -q -pl verifier -am package -DskipTests) or pass --verifier-jar", true);
        String version = null;
        BuildInfo build = BuildInfo.NONE;
        try (ZipFile z = new ZipFile(jar.toFile())) {
            if (z.getEntry("org/gamecert/verifier/cli/VerifyMain.class") == null)
                throw new ReleaseException(jar + " is not a gamecert verifier jar (no org/gamecert/verifier/cli/VerifyMain.class)", true);
            // Since 0.6.0 the jar records the commit it was built from (older jars: unknown).
            ZipEntry b = z.getEntry(BuildInfo.VERIFIER_RESOURCE);
            if (b != null) try (InputStream s = z.getInputStream(b)) { build = BuildInfo.read(s); }
            ZipEntry e = z.getEntry("META-INF/maven/org.gamecert/verifier/pom.properties");
            if (e != null) {
                Properties pr = new Properties();
                try (InputStream s = z.getInputStream(e)) { pr.load(s); }
                version = pr.getProperty("version");
            }
        } catch (java.util.zip.ZipException e) {
            throw new ReleaseException(jar + " is not a jar: " + e.getMessage(), true);
        }
        in.verifierVersion = !build.version().equals(BuildInfo.UNKNOWN) ? build.version() : version == null ? "unknown" : version;
        in.verifierBuild = build;
        in.verifierJarSha256 = Digests.sha256And512(jar)[0];
    }

    static byte[] utf8(String s) { return s.getBytes(StandardCharsets.UTF_8); }

}
