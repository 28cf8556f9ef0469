package org.gamecert.producer.cli;

import java.util.Locale;

/** Numbers for people: rates with a unit prefix and three significant digits, counted nouns, sizes, durations. */
public final class Units {
    private Units() {}

    /** "812 nodes/s", "41.2 k nodes/s", "3.45 M nodes/s", "0 nodes/s" (never "0.00 M"). */
    public static String rate(double perSecond, String what) {
        if (!Double.isFinite(perSecond) || perSecond <= 0) return "0 " + what + "/s";
        String[] prefix = {"", "k ", "M ", "G ", "T "};
        int i = 0;
        double v = perSecond;
        while (v >= 999.5 && i < prefix.length - 1) { v /= 1000; i++; }
        return significant(v) + " " + prefix[i] + what + "/s";
    }

    /** Three significant digits, no trailing zeros beyond them: 3.45, 41.2, 812. */
    static String significant(double v) {
        if (v >= 99.95) return String.format(Locale.ROOT, "%.0f", v);
        if (v >= 9.995) return String.format(Locale.ROOT, "%.1f", v);
        return String.format(Locale.ROOT, "%.2f", v);
    }

    /** "1 thread", "2 threads", "0 threads". */
    public static String count(long n, String singular) {
        return n + " " + (n == 1 ? singular : singular + "s");
    }

    /** "512 bytes", "1.50 KiB", "3.21 GiB". */
    public static String bytes(long b) {
        if (b < 1024) return count(b, "byte");
        String[] unit = {"KiB", "MiB", "GiB", "TiB", "PiB"};
        double v = b / 1024.0;
        int i = 0;
        while (v >= 1023.95 && i < unit.length - 1) { v /= 1024; i++; }
        return significant(v) + " " + unit[i];
    }

    /** "45 s", "12 min 5 s", "3 h 20 min". */
    public static String duration(double seconds) {
        long s = Math.round(Math.max(0, seconds));
        if (s < 60) return s + " s";
        if (s < 3600) return s / 60 + " min " + s % 60 + " s";
        if (s < 86400 * 2) return s / 3600 + " h " + s % 3600 / 60 + " min";
        return s / 86400 + " days " + s % 86400 / 3600 + " h";
    }
}
