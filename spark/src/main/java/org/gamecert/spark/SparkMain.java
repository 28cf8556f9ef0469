package org.gamecert.spark;

import java.io.PrintStream;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of spark.jar (scripts/spark-verify, scripts/spark-produce, or spark-submit --class). */
@Command(name = "gamecert-spark", mixinStandardHelpOptions = true, versionProvider = SparkMain.Version.class,
        subcommands = {VerifyCommand.class, ProduceCommand.class},
        description = {"gamecert on Apache Spark: verify (kernel in the executors) and produce composite parts as Spark tasks."})
public final class SparkMain implements Runnable {
    public static final int VERIFIED = 0, REJECTED = 1, ERROR = 2, INCOMPLETE = 3;

    /** spark.jar's build information (the parent pom's build-info execution). */
    public static final String BUILD_INFO = "org/gamecert/spark/build-info.properties";

    /** --version: "gamecert spark 0.6.0 (commit 29b3…, clean), SPEC v1"; the commit is the one the jar was built from. */
    public static String versionLine() {
        return "gamecert spark " + org.gamecert.verifier.cli.BuildInfo.load(BUILD_INFO).describe() + ", SPEC v1";
    }

    public static final class Version implements CommandLine.IVersionProvider {
        @Override public String[] getVersion() { return new String[] {versionLine()}; }
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the command; returns the exit code (scripts/verify's codes). Never throws. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        CommandLine cl = new CommandLine(new SparkMain());
        for (CommandLine sub : cl.getSubcommands().values()) {
            Object o = sub.getCommand();
            if (o instanceof Streams s) s.streams(out, err);
        }
        return org.gamecert.verifier.cli.CommandRunner.execute(cl, args, out, err, ERROR);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(new CommandLine(this), "give a command: verify or produce");
    }

    /** Commands that print to the given streams. */
    interface Streams {
        void streams(PrintStream out, PrintStream err);
    }
}
