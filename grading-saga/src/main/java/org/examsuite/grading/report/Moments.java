package org.examsuite.grading.report;

/**
 * Means, variances and the covariance of pairs (x, y), updated one pair at a time (Welford's
 * method: no second pass, and no cancellation from sums of squares).
 */
final class Moments {
    private long n;
    private double meanX;
    private double meanY;
    private double m2x;
    private double m2y;
    private double cxy;

    void add(double x, double y) {
        n++;
        double dx = x - meanX;
        meanX += dx / n;
        double dy = y - meanY;
        meanY += dy / n;
        m2x += dx * (x - meanX);
        m2y += dy * (y - meanY);
        cxy += dx * (y - meanY);
    }

    void add(double x) {
        add(x, 0);
    }

    long count() {
        return n;
    }

    double meanX() {
        return meanX;
    }

    /** The sample variance of x (n − 1); NaN below two pairs. */
    double varianceX() {
        return n < 2 ? Double.NaN : m2x / (n - 1);
    }

    /** Pearson's r of x and y; NaN below two pairs or when either does not vary. */
    double correlation() {
        if (n < 2 || m2x <= 0 || m2y <= 0) {
            return Double.NaN;
        }
        return cxy / Math.sqrt(m2x * m2y);
    }
}
