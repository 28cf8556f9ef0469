package org.gamecert.verifier.bundle;

import java.util.ArrayList;
import java.util.List;

/** The outcome of checking one bundle: what {@link BundleVerifier} prints, as data. */
public final class BundleReport {
    public int exitCode = BundleVerifier.ERROR;
    public String verdict = "error";   // verified, rejected, incomplete, error
    public String errorMessage;        // for verdict error
    public String path, format;
    public String title;
    public int payloadFiles;
    public long payloadBytes;
    public final List<Problem> problems = new ArrayList<>();

    // signature
    public boolean signaturePresent, signatureValid, signatureCheckedAgainstPubkey;
    public String signatureFingerprint, pubkeyFingerprint;

    // verifier identity
    public String verifierVersion, verifierJarSha256;      // the running verifier (null when unknown)
    public String verifierCommit;                          // the running verifier's commit as bag-info writes it ("HEX", "HEX modified", "unknown")
    public String pinnedVersion, pinnedJarSha256;          // from bag-info.txt
    public String pinnedCommit;                            // bag-info.txt's Verifier-Commit; null in bundles made before it (0.6.0)
    public Boolean verifierMatchesPinned;                  // null when the running jar is unknown

    public final List<CertificateOutcome> certificates = new ArrayList<>();
    public final List<CompositeOutcome> composites = new ArrayList<>();
    public final List<String> citations = new ArrayList<>();
    /** Payload files bag-info.txt declares as extra material (Extra-Material): carried, not vouched for. */
    public final List<String> extraMaterial = new ArrayList<>();

    /** One certificate of the bundle as checked by the core verifier. */
    public static final class CertificateOutcome {
        public String file, claimedCommitment;
        public String verdict;          // verified, rejected, incomplete, error
        public String commitment;       // computed; only when verified
        public Integer rootValue;       // only when verified
        public String game, mode;       // from the verified header: e.g. connect4:7x6, semi-strong
        public long[][] census;         // the verifier's own census rows {discs, region, aux}; only when verified
        public long entries;
        public String failure;          // first violated rule or error, else null
    }

    /** One composite of the bundle (SPEC §15) as checked by the composite verifier. */
    public static final class CompositeOutcome {
        public String file, name, claimedId;  // data/NAME/composite.gscm, NAME, bag-info's Composite-Id
        public boolean partsIncluded;          // bag-info: parts-included (else parts-by-reference)
        public String partsFrom;               // where the parts were read: "the bundle", the --parts folder, or null
        public String verdict;                 // verified, rejected, incomplete, error
        public String compositeId;             // computed; only when verified
        public int parts, partsNotGiven;
        public BundleTexts.Composite texts;    // only when verified
        public String failure;                 // first violated rule, what is missing, or the error; else null
    }

    /** The problem about this file, if any (tests and scripts: "which file was tampered with?"). */
    public boolean names(String file) {
        for (Problem p : problems) if (p.file.equals(file) || p.message.contains(file)) return true;
        for (CertificateOutcome c : certificates) if (c.file.equals(file) && c.failure != null) return true;
        return false;
    }
}
