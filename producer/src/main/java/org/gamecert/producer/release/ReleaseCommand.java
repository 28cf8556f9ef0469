package org.gamecert.producer.release;

import org.gamecert.producer.command.CommandSupport;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

@Command(exitCodeListHeading = org.gamecert.producer.command.CommandSupport.EXIT_HEADING, exitCodeList = {org.gamecert.producer.command.CommandSupport.EXIT_0, org.gamecert.producer.command.CommandSupport.EXIT_1, org.gamecert.producer.command.CommandSupport.EXIT_2},
        name = "release", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Bundle certificates for publication (e.g. on Zenodo) as a BagIt bag (RFC 8493) that carries its own "
                + "integrity and identity: bagit.txt, bag-info.txt (title, authors, date, commitment ids, pinned verifier, "
                + "Payload-Oxum), SHA-256 and SHA-512 payload manifests, a SHA-256 tag manifest, and in data/: the certificates, "
                + "their census as JSON, census.svg, CITATION.cff and a README.md telling a reader how to verify.",
                "",
                "The output is a directory, a .tar or a .tar.zst, chosen by the --out name. The same inputs give a byte-identical "
                        + "bundle: sorted tar entries, mtime from --date (else 0), uid/gid 0, no owner names, modes 0755/0644, "
                        + "PAX long names and big numbers, zstd level 3 single-threaded without checksum.",
                "",
                "Signature (--sign): tagmanifest-sha256.txt.sig holds one line, the base64 of the 64-byte Ed25519 signature over "
                        + "the bytes of tagmanifest-sha256.txt; the public key (base64 of its 32 bytes) and its fingerprint (its "
                        + "SHA-256, 64 hex digits) go into bag-info.txt. Make a key pair with `produce keygen`.",
                "",
                "Composites (SPEC §15): give the composite's folder (holding composite.gscm); it is verified first, then its "
                        + "manifest and every part go to data/NAME/, or with --parts-by-reference the manifest only, and bag-info.txt "
                        + "names it (Composite-Id: ID data/NAME/composite.gscm parts-included|parts-by-reference).",
                "",
                "Check a bundle with `scripts/verify BUNDLE [--pubkey KEY.pub] [--parts DIR]`; rebuild its pinned verifier from the "
                        + "commit bag-info.txt records with `scripts/rebuild-verifier-check BUNDLE`.", ""})
public final class ReleaseCommand implements Callable<Integer> {
    @Option(names = "--title", required = true, paramLabel = "TEXT", description = "Title of the release (one line).")
    String title;
    @Option(names = "--author", required = true, paramLabel = "NAME", description = "Author, 'Given Names Family-Name'; repeat for several, in order.")
    List<String> authors = new ArrayList<>();
    @Option(names = "--orcid", paramLabel = "ID", description = "ORCID iD (0000-0002-1825-0097) of the author at the same position; repeatable.")
    List<String> orcids = new ArrayList<>();
    @Option(names = "--date", paramLabel = "YYYY-MM-DD", description = "Release date for bag-info.txt (Bagging-Date), CITATION.cff and "
            + "tar mtimes. Default: the UTC date of SOURCE_DATE_EPOCH when that is set, else none (no date recorded, mtime 0). "
            + "Never the wall clock, so that a release can be rebuilt byte for byte.")
    String date;
    @Option(names = "--doi", paramLabel = "DOI", description = "DOI reserved for the deposit (e.g. 10.5281/zenodo.123), recorded in "
            + "bag-info.txt and CITATION.cff.")
    String doi;
    @Option(names = "--repository-code", paramLabel = "URL", description = "Where the code of the solve lives (e.g. the "
            + "repository of the scripts that ran it), an http(s) URL: bag-info.txt Repository-Code, CITATION.cff repository-code. "
            + "Default: none.")
    String repositoryCode;
    @Option(names = "--license", paramLabel = "SPDX", description = "Licence of the certificates and the files derived from them, "
            + "an SPDX identifier (bag-info.txt Data-License, CITATION.cff license, README.md). Default: " + Release.DEFAULT_LICENSE + ".")
    String license = Release.DEFAULT_LICENSE;
    @Option(names = "--bundle-version", paramLabel = "TEXT", description = "Version of this bundle, e.g. 2 for a corrected re-release "
            + "(bag-info.txt Bundle-Version, CITATION.cff version). Default: " + Release.DEFAULT_VERSION + ".")
    String bundleVersion = Release.DEFAULT_VERSION;
    @Option(names = "--sign", paramLabel = "KEY", description = "Sign with this Ed25519 private key file (from `produce keygen`).")
    Path signKey;
    @Option(names = "--verifier-jar", paramLabel = "JAR", description = "The verifier jar to pin (its version, the commit it was "
            + "built from and its SHA-256 go into the bundle: Verifier-Version, Verifier-Commit, Verifier-Jar-SHA256). Default: verifier/target/verifier.jar of this source tree (found from the producer's location or the "
            + "working directory).")
    Path verifierJar;
    @Option(names = "--split-size", paramLabel = "SIZE", description = "For .tar/.tar.zst: write parts OUT.00, OUT.01, ... of at most "
            + "SIZE bytes each (e.g. 2g, 500m), for hosts with a file size limit, and their SHA-256 in SHA256SUMS beside them "
            + "(as the published 6x6 tablebase is split, and export --split-size). Readers give the first part: scripts/verify OUT.00.")
    String splitSize;
    @Option(names = "--out", required = true, paramLabel = "PATH", description = "Bundle to write: a directory (must be absent or "
            + "empty), or a file ending in .tar or .tar.zst.")
    Path out;
    @Option(names = "--parts-by-reference", description = "For composites: put only the manifest (composite.gscm) in the bundle, "
            + "which references every part by commitment id; bag-info.txt and README.md say so, and `scripts/verify BUNDLE` is then "
            + "incomplete (exit 3) unless given the parts with --parts DIR. The composite must still verify here, with all its parts.")
    boolean partsByReference;
    @Parameters(arity = "1..*", paramLabel = "CERT|COMPOSITE_DIR", description = "Certificate files (.gsc) and composite folders (holding "
            + "composite.gscm and its parts <64 hex>.gsc, from produce compose) to include. A composite goes to data/NAME/ (NAME: the "
            + "folder's name) with its manifest and, unless --parts-by-reference, every part the manifest names (nothing else of the "
            + "folder: not tasks.tsv nor done/).")
    List<Path> certificates = new ArrayList<>();

    @CommandLine.Spec CommandSpec spec;

    @Override public Integer call() {
        PrintWriter o = spec.commandLine().getOut(), e = spec.commandLine().getErr();
        try {
            Release.Input in = new Release.Input();
            in.title = title;
            in.authors = authors;
            in.orcids = orcids;
            in.date = date != null ? date : dateFromSourceDateEpoch(System.getenv("SOURCE_DATE_EPOCH"));
            in.doi = doi;
            in.license = license;
            in.version = bundleVersion;
            if (repositoryCode != null && !org.gamecert.verifier.bundle.BundleTexts.isRepositoryUrl(repositoryCode))
                throw new Release.ReleaseException("--repository-code must be an http or https URL, not '" + repositoryCode + "'", true);
            in.repositoryCode = repositoryCode;
            for (Path p : certificates) (Files.isDirectory(p) ? in.composites : in.certificates).add(p);
            in.partsByReference = partsByReference;
            in.verifierJar = verifierJar != null ? verifierJar : findVerifierJar();
            if (signKey != null) {
                try { in.signingSeed = Ed25519Keys.readKeyFile(signKey, Ed25519Keys.KEY_BYTES); }
                catch (IOException x) { throw new Release.ReleaseException("--sign: " + x.getMessage(), true); }
            }
            long split = splitSize == null ? 0 : parseSize(splitSize);
            if (split != 0 && BagWriter.formatOf(out) == BagWriter.Format.DIRECTORY)
                throw new Release.ReleaseException("--split-size needs a .tar or .tar.zst --out", true);
            String unwritable = CommandSupport.unwritable("--out", out);
            if (unwritable != null && !(BagWriter.formatOf(out) == BagWriter.Format.DIRECTORY && Files.isDirectory(out)))
                throw new Release.ReleaseException(unwritable.replace(": it is a directory", ": it is a directory (a directory bundle must be absent or empty)"), true);

            Release.Bundle b = Release.build(in);
            List<Path> written;
            try { written = Release.write(b, out, in.date, split); }
            catch (IOException x) { throw new Release.ReleaseException("cannot write --out " + out + ": " + x.getMessage(), true); }

            o.println("bundle      " + out + " (" + BagWriter.formatOf(out).name().toLowerCase(Locale.ROOT).replace('_', '.') + ")");
            for (Path p : written) if (!Files.isDirectory(p))
                o.printf(Locale.ROOT, "file        %s  %d bytes  sha256:%s%n", p, Files.size(p), Digests.sha256And512(p)[0]);
            o.printf(Locale.ROOT, "payload     %d files, %d bytes (Payload-Oxum %d.%d)%n", b.payloadFiles, b.payloadBytes, b.payloadBytes, b.payloadFiles);
            for (String c : b.commitmentIds) o.println("commitment  " + c);
            for (String c : b.compositeIds) o.println("composite   " + c);
            o.println("verifier    " + b.verifierVersion + ", commit " + b.verifierBuild.bagInfoCommit() + ", jar sha256:" + b.verifierJarSha256);
            if (!b.verifierBuild.clean())
                e.println("warning: the pinned verifier jar " + (b.verifierBuild.commitKnown()
                        ? "was built from modified sources at commit " + b.verifierBuild.commit()
                        : "does not record the commit it was built from (built outside a git checkout, or before 0.6.0)")
                        + ": a reader cannot rebuild it from a commit (scripts/rebuild-verifier-check). Build it from a clean checkout "
                        + "(mvn -q -pl verifier -am package -DskipTests) and release again.");
            o.println("date        " + (in.date == null ? "none recorded (give --date or SOURCE_DATE_EPOCH)" : in.date));
            o.println("signature   " + (b.fingerprint == null ? "none (unsigned)" : "Ed25519, key fingerprint " + b.fingerprint));
            o.flush();
            e.flush();
            return CommandSupport.EXIT_OK;
        } catch (Release.ReleaseException x) {
            e.println("error: " + x.getMessage());
            e.flush();
            return x.usage ? CommandSupport.EXIT_USAGE : CommandSupport.EXIT_FAILURE;
        } catch (IOException x) {
            e.println("error: " + x.getMessage());
            e.flush();
            return CommandSupport.EXIT_FAILURE;
        }
    }

    static String dateFromSourceDateEpoch(String sde) throws Release.ReleaseException {
        if (sde == null || sde.isBlank()) return null;
        try { return Instant.ofEpochSecond(Long.parseLong(sde.trim())).atZone(ZoneOffset.UTC).toLocalDate().toString(); }
        catch (NumberFormatException | java.time.DateTimeException x) {
            throw new Release.ReleaseException("SOURCE_DATE_EPOCH='" + sde + "' is not a number of seconds", true);
        }
    }

    /** Parses a --split-size such as 500m or 2g (binary units). */
    public static long parseSize(String s) throws Release.ReleaseException {
        String t = s.trim().toLowerCase(Locale.ROOT);
        long mult = 1;
        if (t.endsWith("k")) mult = 1L << 10; else if (t.endsWith("m")) mult = 1L << 20; else if (t.endsWith("g")) mult = 1L << 30;
        if (mult != 1) t = t.substring(0, t.length() - 1);
        try {
            long v = Long.parseLong(t);
            if (v <= 0 || v > Long.MAX_VALUE / mult) throw new NumberFormatException();
            return v * mult;
        } catch (NumberFormatException x) {
            throw new Release.ReleaseException("--split-size: cannot read size '" + s + "' (e.g. 500m, 2g)", true);
        }
    }

    /** verifier/target/verifier.jar of the source tree this producer runs from, else of the working directory. */
    static Path findVerifierJar() {
        List<Path> tried = new ArrayList<>();
        try {
            Path here = Paths.get(ReleaseCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (Path d = here; d != null && tried.size() < 4; d = d.getParent()) tried.add(d.resolve("verifier/target/verifier.jar"));
        } catch (Exception ignored) {
            // No code source (unusual class loader): fall back to the working directory.
        }
        tried.add(Paths.get("verifier/target/verifier.jar"));
        tried.add(Paths.get("../verifier/target/verifier.jar"));
        for (Path p : tried) if (Files.isRegularFile(p)) return p.toAbsolutePath().normalize();
        return tried.get(tried.size() - 2).toAbsolutePath();
    }
}
