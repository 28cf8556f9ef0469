package org.gamecert.spark;

import java.io.PrintStream;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of spark.jar (scripts/spark-verify, scripts/spark-produce, or spark-submit --class). */
@Command(name = "gamecert-spark", mixinStandardHelpOptions = true, version = "gamecert spark 0.1.0 (SPEC v1)",
        subcommands = {VerifyCommand.class, ProduceCommand.class},
        description = {"gamecert on Apache Spark: verify (kernel in the executors) and produce composite parts as Spark tasks."})
public final class SparkMain implements Runnable {
    public static final int VERIFIED = 0, REJECTED = 1, ERROR = 2, INCOMPLETE = 3;

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
