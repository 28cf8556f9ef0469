package org.gamecert.verifier.kernel.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A container reads only through the JDK's own file channel: a path of another file system
 * (here the JDK's zip file system; an engine could install a provider of its own) would run that
 * provider's code inside the kernel's reads, so it is refused before anything is read.
 */
class ContainerFileSystemTest {
    @TempDir
    Path dir;

    @Test
    void aPathOfAnotherFileSystemIsRefusedAndOneOfTheDefaultIsRead() throws Exception {
        Path valid = Path.of("..").toAbsolutePath().normalize()
                .resolve("testdata/valid/othello4x4-10discs.gsc");
        try (Container ct = new Container(valid)) {
            assertEquals(Files.size(valid), ct.size);
        }
        Path zip = dir.resolve("c.zip");
        try (FileSystem fs = FileSystems.newFileSystem(URI.create("jar:" + zip.toUri()),
                Map.of("create", "true"))) {
            Path inside = fs.getPath("/c.gsc");
            Files.copy(valid, inside);
            assertTrue(Files.isRegularFile(inside));
            IOException e = assertThrows(IOException.class, () -> new Container(inside));
            assertTrue(e.getMessage().contains("default file system"), e.getMessage());
        }
    }
}
