package org.gamecert.producer.cli;

/**
 * Whether stderr is a terminal, so that progress may be redrawn there; in a log it is printed as
 * occasional whole lines. Java cannot ask about stderr itself: scripts/produce tells it
 * ({@code -Dgamecert.stderr.tty=true|false}, from {@code [ -t 2 ]}); without that, a console on
 * stdin and stdout is taken as a terminal.
 */
public final class Terminal {
    public static final String PROPERTY = "gamecert.stderr.tty";

    private Terminal() {}

    public static boolean stderrIsTerminal() {
        String p = System.getProperty(PROPERTY);
        if (p != null) return Boolean.parseBoolean(p);
        return System.console() != null;
    }
}
