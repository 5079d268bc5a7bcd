package org.examsuite.session.exam;

/**
 * A candidate's time accommodation: the exam's duration times {@code permille / 1000}, plus {@code extraSeconds}
 * (docs/api.md §3.1). The exam's window closes as much later for that candidate, so the accommodation is never cut
 * by closesAt.
 */
public record TimeTerms(int permille, int extraSeconds) {
    public static final TimeTerms NONE = new TimeTerms(1000, 0);

    public TimeTerms {
        if (permille < 1000 || permille > 4000 || extraSeconds < 0 || extraSeconds > 86_400) {
            throw new IllegalArgumentException("time terms out of range: " + permille + "‰, +" + extraSeconds + " s");
        }
    }

    /** The candidate's duration in seconds (rounded up: an accommodation never gives less). */
    public long durationSeconds(int examDurationSeconds) {
        return (examDurationSeconds * (long) permille + 999) / 1000 + extraSeconds;
    }
}
