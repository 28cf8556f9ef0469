package org.gamecert.verifier.cli;

/** A minimal JSON writer for the report (strings, numbers, nested objects and arrays). */
final class Json {
    private final StringBuilder sb = new StringBuilder();
    private boolean needComma;

    Json open(String key, char bracket) {
        key(key);
        sb.append(bracket);
        needComma = false;
        return this;
    }

    Json close(char bracket) {
        sb.append(bracket);
        needComma = true;
        return this;
    }

    Json put(String key, String value) {
        key(key);
        if (value == null) sb.append("null");
        else quote(value);
        needComma = true;
        return this;
    }

    Json put(String key, long value) {
        key(key);
        sb.append(value);
        needComma = true;
        return this;
    }

    /** A count, an index or a size: null when it is absent (negative), never -1. */
    Json putCount(String key, long value) {
        if (value >= 0) return put(key, value);
        key(key);
        sb.append("null");
        needComma = true;
        return this;
    }

    /** Raw JSON text (already rendered), e.g. {@link JsonHead#of}. */
    Json raw(String json) {
        if (needComma) sb.append(',');
        sb.append(json);
        needComma = true;
        return this;
    }

    Json put(String key, double value) {
        key(key);
        sb.append(Double.isFinite(value) ? String.format(java.util.Locale.ROOT, "%.3f", value) : "null");
        needComma = true;
        return this;
    }

    Json put(String key, boolean value) {
        key(key);
        sb.append(value);
        needComma = true;
        return this;
    }

    private void key(String key) {
        if (needComma) sb.append(',');
        if (key != null) {
            quote(key);
            sb.append(':');
        }
    }

    private void quote(String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') sb.append('\\').append(c);
            else if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
            else sb.append(c);
        }
        sb.append('"');
    }

    @Override
    public String toString() {
        return sb.toString();
    }
}
