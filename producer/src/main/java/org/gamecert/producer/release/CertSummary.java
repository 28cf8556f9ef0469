package org.gamecert.producer.release;

/** What a release says about one certificate, read with the producer's own reader (hash chain checked). */
final class CertSummary {
    String file;          // name inside data/
    String commitmentId;  // sha256:...
    String game;          // e.g. othello:6x6
    String mode;          // semi-strong / weak
    int rootValue;
    String rootBoard;
    long bytes, entries, blocks;
    long[][] census;      // the verifier's: {discs, region, aux, proof-only terminals}

    long regionTotal() { long t = 0; for (long[] r : census) t += r[1]; return t; }

    long auxTotal() { long t = 0; for (long[] r : census) t += r[2]; return t; }

    String censusJsonName() {
        String stem = file.endsWith(".gsc") ? file.substring(0, file.length() - 4) : file;
        return stem + ".census.json";
    }
}
