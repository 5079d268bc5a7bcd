package org.examsuite.demo.report;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The progress bar: one line rewritten in place on a terminal, a plain line every few seconds otherwise
 * (logs of {@code ./exam test}).
 */
public final class Progress implements AutoCloseable {
    private final PrintStream out;
    private final boolean terminal;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile String phase = "";

    public Progress(PrintStream out, boolean terminal, Supplier<Double> fraction, Supplier<String> status) {
        this.out = out;
        this.terminal = terminal;
        this.thread = new Thread(() -> loop(fraction, status), "progress");
        this.thread.setDaemon(true);
    }

    public Progress start() {
        thread.start();
        return this;
    }

    public void phase(String text) {
        phase = text;
    }

    private void loop(Supplier<Double> fraction, Supplier<String> status) {
        long lastPlain = 0;
        while (running) {
            String line = bar(fraction.get()) + " " + phase + " " + status.get();
            if (terminal) {
                out.print("\r" + pad(line, 150));
                out.flush();
            } else if (System.currentTimeMillis() - lastPlain >= 10_000) {
                out.println(line);
                lastPlain = System.currentTimeMillis();
            }
            try {
                Thread.sleep(terminal ? 250 : 1_000);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    public static String bar(double fraction) {
        double clamped = Math.max(0, Math.min(1, fraction));
        return bar(clamped, 30) + " " + String.format(Locale.ROOT, "%3.0f%%", clamped * 100);
    }

    /** Just the bar, {@code width} characters between the brackets. */
    public static String bar(double fraction, int width) {
        int filled = (int) Math.round(Math.max(0, Math.min(1, fraction)) * width);
        return "[" + "#".repeat(filled) + "-".repeat(width - filled) + "]";
    }

    private static String pad(String line, int width) {
        return line.length() >= width ? line.substring(0, width) : line + " ".repeat(width - line.length());
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (terminal) {
            out.println();
        }
    }
}
