package org.examsuite.demo.report;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The progress bar: one line rewritten in place on a terminal, a plain line every few seconds otherwise
 * (logs of {@code ./exam test}). It covers the whole run: the exam (by the clock, up to {@link #EXAM_SHARE}) and then
 * the wait for papers, grading and the archive check, so it reaches 100 % only when the run is over.
 */
public final class Progress implements AutoCloseable {
    private final PrintStream out;
    private final boolean terminal;
    private final Thread thread;
    private volatile boolean running = true;
    /** The bar's share for the exam itself; the rest is the verification's wait for papers, grades and the archive. */
    public static final double EXAM_SHARE = 0.9;

    private final Supplier<Double> examFraction;
    private final Supplier<String> examStatus;
    private volatile String phase = "";
    private volatile boolean examOver;
    private volatile double verified;
    private volatile String verifyStatus = "";
    private volatile boolean phaseChanged;

    public Progress(PrintStream out, boolean terminal, Supplier<Double> fraction, Supplier<String> status) {
        this.out = out;
        this.terminal = terminal;
        this.examFraction = fraction;
        this.examStatus = status;
        this.thread = new Thread(this::loop, "progress");
        this.thread.setDaemon(true);
    }

    public Progress start() {
        thread.start();
        return this;
    }

    public void phase(String text) {
        if (!text.equals(phase)) {
            phaseChanged = true;
        }
        phase = text;
    }

    /** The candidates are done: the exam's share is full, whatever the clock said; {@code status} says what follows. */
    public void examOver(String status) {
        verifyStatus = status;
        examOver = true;
        phase("exam over");
    }

    /** A verification step: {@code fraction} (0–1) of the verification done, {@code status} what it waits for. */
    public void verifying(String step, double fraction, String status) {
        examOver = true;
        verified = Math.max(0, Math.min(1, fraction));
        verifyStatus = status;
        phase(step);
    }

    /** The whole run's fraction: the exam by the clock (or full once over), then the verification. */
    double fraction() {
        return examOver ? EXAM_SHARE + (1 - EXAM_SHARE) * verified
                : EXAM_SHARE * Math.max(0, Math.min(1, examFraction.get()));
    }

    String line() {
        return bar(fraction()) + " " + phase + " " + (examOver ? verifyStatus : examStatus.get());
    }

    private void loop() {
        long lastPlain = 0;
        while (running) {
            String line = line();
            if (terminal) {
                out.print("\r" + pad(line, 150));
                out.flush();
            } else if (phaseChanged || System.currentTimeMillis() - lastPlain >= 10_000) {
                // A plain log gets a line at each new phase, so the wait after the exam is never silent.
                phaseChanged = false;
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

    /** Ends the line; after {@link #done()} the last line shows 100 %. */
    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        String line = line();
        out.println(terminal ? "\r" + pad(line, 150) : line);
    }

    /** The run is over: the last line reads 100 %. */
    public void done(String status) {
        verifying("done", 1, status);
    }
}
