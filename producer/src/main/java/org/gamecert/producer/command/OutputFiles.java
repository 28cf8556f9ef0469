package org.gamecert.producer.command;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;

/**
 * Temporary files beside an output, renamed onto it when complete. Unlike
 * {@link Files#createTempFile}, which makes them 0600, they get the permissions any new file gets
 * (0666 less the umask: 0644 usually), so a certificate or a bundle can be read by whoever may read
 * the directory, as with cp or tar. (Secrets are made otherwise: keygen's private key is 0600.)
 */
public final class OutputFiles {
    private static final SecureRandom RANDOM = new SecureRandom();

    private OutputFiles() {}

    /** A new empty file dir/PREFIX + random + SUFFIX with the default permissions. */
    public static Path createTemp(Path dir, String prefix, String suffix) throws IOException {
        for (int attempt = 0; ; attempt++) {
            Path p = dir.resolve(prefix + Long.toUnsignedString(RANDOM.nextLong(), 36) + suffix);
            try {
                return Files.createFile(p);
            } catch (FileAlreadyExistsException e) {
                if (attempt > 100) throw e;
            }
        }
    }
}
