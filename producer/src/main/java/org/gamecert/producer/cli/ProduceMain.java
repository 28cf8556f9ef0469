package org.gamecert.producer.cli;

/** Placeholder entry point; replaced by the producer CLI. */
public final class ProduceMain {
    public static void main(String[] args) {
        System.out.println("gamecert producer (skeleton)");
    }
}
