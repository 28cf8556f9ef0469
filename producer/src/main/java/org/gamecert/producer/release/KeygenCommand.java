package org.gamecert.producer.release;

import org.gamecert.producer.command.CommandSupport;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.concurrent.Callable;

@Command(exitCodeListHeading = org.gamecert.producer.command.CommandSupport.EXIT_HEADING, exitCodeList = {org.gamecert.producer.command.CommandSupport.EXIT_0, org.gamecert.producer.command.CommandSupport.EXIT_1, org.gamecert.producer.command.CommandSupport.EXIT_2},
        name = "keygen", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Make an Ed25519 key pair for signing releases (`produce release --sign NAME.key`).",
                "Writes NAME.key (private: one line, base64 of the 32-byte RFC 8032 seed; mode 600 where the file system allows) "
                        + "and NAME.pub (public: one line, base64 of the 32-byte key), and prints the public key itself and its "
                        + "fingerprint (SHA-256 over its 32 bytes, 64 hex digits): print either in the paper.",
                "Keep NAME.key secret; publish NAME.pub with the paper or the deposit. Readers check with "
                        + "`scripts/verify BUNDLE --pubkey NAME.pub`.", ""})
public final class KeygenCommand implements Callable<Integer> {
    @Option(names = "--out", required = true, paramLabel = "NAME", description = "Writes NAME.key and NAME.pub (never overwrites).")
    Path out;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override public Integer call() {
        PrintWriter o = spec.commandLine().getOut(), e = spec.commandLine().getErr();
        Path priv = out.resolveSibling(out.getFileName() + ".key"), pub = out.resolveSibling(out.getFileName() + ".pub");
        for (Path p : new Path[] {priv, pub})
            if (Files.exists(p)) { e.println("error: " + p + " exists; not overwriting a key"); e.flush(); return CommandSupport.EXIT_USAGE; }
        byte[][] kp = Ed25519Keys.generate(new SecureRandom());
        try {
            String unwritable = CommandSupport.unwritable("--out", priv);
            if (unwritable != null) { e.println("error: " + unwritable); e.flush(); return CommandSupport.EXIT_USAGE; }
            try {
                Files.createFile(priv, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException x) {
                Files.createFile(priv); // not a POSIX file system: the user keeps the file private
            }
            Files.write(priv, Ed25519Keys.toText(kp[0]).getBytes(StandardCharsets.US_ASCII));
            Files.write(pub, Ed25519Keys.toText(kp[1]).getBytes(StandardCharsets.US_ASCII));
        } catch (IOException x) {
            e.println("error: cannot write the key pair: " + x.getMessage());
            e.flush();
            return CommandSupport.EXIT_USAGE;
        }
        o.println("private key  " + priv + "  (keep secret)");
        o.println("public key   " + pub);
        o.println("public key   " + Ed25519Keys.toText(kp[1]).trim() + "  (base64 of the 32 bytes: the whole key, for the paper)");
        o.println("fingerprint  " + Ed25519Keys.fingerprint(kp[1]) + "  (SHA-256 of the key)");
        o.flush();
        return CommandSupport.EXIT_OK;
    }
}
