package org.gamecert.producer.mutate;

import org.gamecert.producer.mutate.composite.CompositeMutations;
import org.gamecert.producer.mutate.composite.CompositeSet;
import org.gamecert.producer.mutate.peer.PeerMutationClass;
import org.gamecert.producer.mutate.peer.PeerMutations;
import org.gamecert.producer.mutate.peer.PeerTableSet;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * `produce mutate`: writes a corrupted copy of a valid certificate, for auditing verifiers.
 * Semantic classes re-seal the hash chain and trailer so that only the lie is left to find.
 */
@Command(exitCodeListHeading = org.gamecert.producer.command.CommandSupport.EXIT_HEADING, exitCodeList = {org.gamecert.producer.command.CommandSupport.EXIT_0, org.gamecert.producer.command.CommandSupport.EXIT_1, org.gamecert.producer.command.CommandSupport.EXIT_2},
        name = "mutate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Write a corrupted copy of a valid certificate (for auditing a verifier).",
                "Semantic classes re-seal the hash chain, trailer counts and commitment, so that the verifier must catch "
                        + "the lie itself rather than a bad hash; container classes break the framing or the chain.",
                "`--list` prints one class per line: its name, then a one-line description, then the rule ids expected to fire.",
                "Exit codes: 0 written, 1 the class does not apply to this certificate (nothing to mutate that way), "
                        + "2 usage error or unreadable input."})
public final class MutateCommand implements Callable<Integer> {
    public static final int EXIT_OK = 0, EXIT_NOT_APPLICABLE = 1, EXIT_USAGE = 2;

    @Option(names = "--list", description = "List the mutation classes and exit.")
    boolean list;
    @Option(names = "--class", paramLabel = "NAME", description = "Mutation class (see --list).")
    String className;
    @Option(names = "--seed", defaultValue = "1", description = "Seed choosing what to mutate (default: ${DEFAULT-VALUE}); same seed, same mutant.")
    long seed;
    @Option(names = "--in", paramLabel = "CERT", description = "A valid certificate to corrupt (peer-* classes: a directory of peer 6x6 tables; "
            + "comp-* classes: a composite's directory).")
    Path in;
    @Option(names = "--out", paramLabel = "CERT", description = "Where to write the mutant (peer-* classes: a directory).")
    Path out;
    @Option(names = "--donor", paramLabel = "CERT", description = "For block-spliced: the certificate to take a block from "
            + "(default: the input's own entries sealed under another header).")
    Path donor;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override public Integer call() {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        if (list) {
            for (MutationClass m : Mutations.ALL)
                out.println(m.name + "\t" + m.description + "\t[" + String.join(" ", new java.util.TreeSet<>(m.expectedRules)) + "]");
            for (PeerMutationClass m : PeerMutations.ALL_CLASSES)
                out.println(m.name + "\t" + m.description + "\t[" + String.join(" ", new java.util.TreeSet<>(m.expectedRules)) + "]");
            for (CompositeMutations.Kind m : CompositeMutations.ALL)
                out.println(m.name + "\t" + m.description + "\t[" + String.join(" ", new java.util.TreeSet<>(m.expectedRules)) + "]");
            for (LoaMutations.Kind m : LoaMutations.ALL)
                out.println(m.name + "\t" + m.description + "\t[" + String.join(" ", new java.util.TreeSet<>(m.expectedRules)) + "]");
            out.flush();
            return EXIT_OK;
        }
        if (className == null || in == null) {
            err.println("error: mutate needs --class NAME --in CERT --out CERT (or --list)");
            return EXIT_USAGE;
        }
        if (this.out == null) { err.println("error: missing --out CERT"); return EXIT_USAGE; }
        if (className.startsWith("peer-")) return peer(err);
        if (className.startsWith("comp-")) return composite(err);
        if (className.startsWith("loa-")) return loa(err);
        MutationClass m = Mutations.byName(className);
        if (m == null) {
            err.println("error: unknown mutation class '" + className + "' (see --list)");
            return EXIT_USAGE;
        }
        Ctx ctx;
        try {
            ctx = Ctx.load(Files.readAllBytes(in), donor == null ? null : Files.readAllBytes(donor));
        } catch (NoSuchFileException e) {
            err.println("error: no such file: " + e.getFile());
            return EXIT_USAGE;
        } catch (IOException e) {
            err.println("error: " + in + ": " + e.getMessage() + " (mutate needs a valid certificate)");
            return EXIT_USAGE;
        }
        if (ctx.ranked()) { // the generic classes move entries between disc-count layers; mode 4's layers are ranks
            err.println("error: class " + m.name + " does not apply to " + in + " (a weak-ranked certificate, SPEC 9.2: use a loa- class, see --list)");
            return EXIT_NOT_APPLICABLE;
        }
        Mutant mutant = m.apply(ctx, seed);
        if (mutant == null) {
            err.println("error: class " + m.name + " does not apply to " + in + " (nothing to mutate that way)");
            return EXIT_NOT_APPLICABLE;
        }
        String unwritable = org.gamecert.producer.command.CommandSupport.unwritable("--out", this.out);
        if (unwritable != null) {
            err.println("error: " + unwritable);
            return EXIT_USAGE;
        }
        try {
            Files.write(this.out, mutant.bytes);
        } catch (IOException e) {
            err.println("error: cannot write " + this.out + ": " + e.getMessage());
            return EXIT_USAGE;
        }
        err.println(m.name + ": " + mutant.detail + "; expect " + String.join(" or ", new java.util.TreeSet<>(m.expectedRules)));
        err.flush();
        return EXIT_OK;
    }

    /** A Lines of Action class (weak-ranked LOA certificates, SPEC §7.7, §9.2). */
    private int loa(PrintWriter err) {
        LoaMutations.Kind m = LoaMutations.byName(className);
        if (m == null) {
            err.println("error: unknown mutation class '" + className + "' (see --list)");
            return EXIT_USAGE;
        }
        byte[][] bytes = new byte[1][];
        String[] detail;
        try {
            detail = m.apply(Files.readAllBytes(in), seed, bytes);
        } catch (IOException e) {
            err.println("error: " + in + ": " + e.getMessage() + " (mutate needs a valid certificate)");
            return EXIT_USAGE;
        }
        if (detail == null) {
            err.println("error: class " + m.name + " does not apply to " + in + " (loa- classes need a weak-ranked LOA certificate)");
            return EXIT_NOT_APPLICABLE;
        }
        String unwritable = org.gamecert.producer.command.CommandSupport.unwritable("--out", this.out);
        if (unwritable != null) {
            err.println("error: " + unwritable);
            return EXIT_USAGE;
        }
        try {
            Files.write(this.out, bytes[0]);
        } catch (IOException e) {
            err.println("error: cannot write " + this.out + ": " + e.getMessage());
            return EXIT_USAGE;
        }
        err.println(m.name + ": " + detail[0] + "; expect " + String.join(" or ", new java.util.TreeSet<>(m.expectedRules)));
        err.flush();
        return EXIT_OK;
    }

    /** A composite class: --in and --out are composite directories (SPEC §15). */
    private int composite(PrintWriter err) {
        CompositeMutations.Kind m = CompositeMutations.byName(className);
        if (m == null) {
            err.println("error: unknown mutation class '" + className + "' (see --list)");
            return EXIT_USAGE;
        }
        CompositeSet set;
        try {
            set = CompositeSet.load(in);
        } catch (IOException e) {
            err.println("error: " + e.getMessage() + " (comp- classes need --in COMPOSITE_DIR)");
            return EXIT_USAGE;
        }
        CompositeMutations.Result mutant = m.apply(set, seed);
        if (mutant == null) {
            err.println("error: class " + m.name + " does not apply to " + in + " (nothing to mutate that way)");
            return EXIT_NOT_APPLICABLE;
        }
        try {
            mutant.composite.write(this.out);
        } catch (IOException e) {
            err.println("error: cannot write " + this.out + ": " + e.getMessage());
            return EXIT_USAGE;
        }
        err.println(m.name + ": " + mutant.detail + "; expect " + String.join(" or ", new java.util.TreeSet<>(m.expectedRules)));
        err.flush();
        return EXIT_OK;
    }

    /** A peer-format class: --in and --out are directories of peer 6×6 tables. */
    private int peer(PrintWriter err) {
        PeerMutationClass m = PeerMutations.byName(className);
        if (m == null) {
            err.println("error: unknown mutation class '" + className + "' (see --list)");
            return EXIT_USAGE;
        }
        PeerTableSet tables;
        try {
            tables = PeerTableSet.load(in);
        } catch (IOException e) {
            err.println("error: " + e.getMessage() + " (peer classes need --in TABLES_DIR)");
            return EXIT_USAGE;
        }
        PeerMutationClass.Result mutant = m.apply(tables, seed, PeerMutations.oracle());
        if (mutant == null) {
            err.println("error: class " + m.name + " does not apply to " + in + " (nothing to mutate that way)");
            return EXIT_NOT_APPLICABLE;
        }
        try {
            mutant.tables.write(this.out);
        } catch (IOException e) {
            err.println("error: cannot write " + this.out + ": " + e.getMessage());
            return EXIT_USAGE;
        }
        err.println(m.name + ": " + mutant.detail + "; expect " + String.join(" or ", new java.util.TreeSet<>(m.expectedRules)));
        err.flush();
        return EXIT_OK;
    }
}
