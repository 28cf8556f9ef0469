package org.gamecert.producer.compose;

import org.gamecert.producer.command.CommandSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;

/** Writes a composite's manifest once every part of a split directory is made (SPEC §15.2). */
@Command(exitCodeListHeading = org.gamecert.producer.command.CommandSupport.EXIT_HEADING, exitCodeList = {org.gamecert.producer.command.CommandSupport.EXIT_0, org.gamecert.producer.command.CommandSupport.EXIT_1, org.gamecert.producer.command.CommandSupport.EXIT_2},
        name = "compose", mixinStandardHelpOptions = true,
        description = {"Write DIR/composite.gscm, the manifest of the composite that 'solve --split-at' and 'solve-part' made in DIR: "
                + "the root part and every part by commitment id, with the open entry each one discharges. Prints the composite id "
                + "(the same whatever the order or parallelism in which the parts were made). Check it with scripts/verify DIR."})
public final class ComposeCommand implements Callable<Integer>, CommandSupport.Streams {
    @Parameters(index = "0", paramLabel = "DIR", description = "The directory written by solve --split-at and solve-part.")
    Path dir;

    private PrintStream stdout = System.out;

    @Override public void streams(PrintStream out, PrintStream err) { stdout = out; }

    @Override public Integer call() throws IOException {
        SplitDir sd;
        try { sd = SplitDir.read(dir); }
        catch (IOException | RuntimeException e) { throw new CommandSupport.UserError("cannot read the split in " + dir + ": " + e.getMessage()); }
        if (!Files.isRegularFile(sd.certificate(sd.rootPart)))
            throw new CommandSupport.UserError("the root part " + sd.rootPart + ".gsc is not in " + dir, CommandSupport.EXIT_FAILURE);
        List<ManifestWriter.Link> links = new ArrayList<>();
        List<Integer> missing = new ArrayList<>();
        Set<String> parts = new HashSet<>();
        long bytes = Files.size(sd.certificate(sd.rootPart));
        for (SplitDir.Task t : sd.tasks) {
            String hex = sd.done(t);
            if (hex == null) { missing.add(t.number); continue; }
            links.add(new ManifestWriter.Link(sd.rootPart, t.mover | t.opponent, t.mover, hex));
            if (parts.add(hex)) bytes += Files.size(sd.certificate(hex));
        }
        if (!missing.isEmpty())
            throw new CommandSupport.UserError(missing.size() + " of " + sd.tasks.size() + " parts are not made yet (tasks "
                    + abbreviate(missing) + "): run solve-part " + dir + " --parts all", CommandSupport.EXIT_FAILURE);
        Path manifest = dir.resolve(SplitDir.MANIFEST);
        String id = ManifestWriter.write(manifest, sd.rootPart, links);
        stdout.println("composite     " + id);
        stdout.printf(Locale.ROOT, "parts         the root part and %d parts (%d open entries discharged), %d bytes in all%n",
                parts.size(), links.size(), bytes);
        stdout.println("manifest      " + manifest + ", " + Files.size(manifest) + " bytes");
        stdout.println("check         scripts/verify " + dir);
        return CommandSupport.EXIT_OK;
    }

    private static String abbreviate(List<Integer> l) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < l.size() && i < 10; i++) sb.append(i == 0 ? "" : ", ").append(l.get(i));
        if (l.size() > 10) sb.append(", …");
        return sb.toString();
    }
}
