package org.gamecert.verifier.peer.kernel;

/**
 * A slice of table n that a driver's kernel asks a task to check (TableSlices.slice): the records
 * base .. base + count − 1 of the table, the serial-th of its slices, the table's last slice when
 * last, checked against table n+1 when childGiven. A plain value: it travels to the task, comes
 * back inside the task kernel's SliceResult, and the driver's kernel compares it with its own.
 */
public record Slice(int table, int serial, long base, long count, boolean last,
        boolean childGiven) implements java.io.Serializable {

    @Override
    public String toString() {
        return "slice " + serial + " of table " + table + " (records " + base + "+" + count
                + (last ? ", the last" : "") + ")";
    }
}
