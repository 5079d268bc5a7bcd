package org.examsuite.demo.drill;

import java.util.ArrayList;
import java.util.List;

/**
 * Issue 39's target, per fault: every service served again within the target after the fault began, and no
 * candidate request answered 500 or 502 in its window (only 200/201, the contract's 4xx, and 503/429 with
 * Retry-After). A drill run with a target (--spaced: 10 s) fails on any window that misses it.
 */
public final class RecoveryCheck {
    private RecoveryCheck() {
    }

    /** What misses the target, one line per fault; empty when every window meets it. */
    public static List<String> misses(List<ImpactsFile.Window> windows, long targetMs) {
        List<String> misses = new ArrayList<>();
        for (ImpactsFile.Window w : windows) {
            if (!InfraFault.KINDS.contains(w.kind())) {
                continue; // a crash-restart the supervisor saw is a finding, not a fault injected
            }
            List<String> why = new ArrayList<>();
            if (w.recoveryMs() < 0) {
                why.add("not served again in its window");
            } else if (w.recoveryMs() > targetMs) {
                why.add("served again after " + w.recoveryMs() / 100 / 10.0 + " s");
            }
            for (String bad : List.of("500", "502")) {
                long n = w.statuses().getOrDefault(bad, 0L);
                if (n > 0) {
                    why.add(n + " × " + bad);
                }
            }
            if (!why.isEmpty()) {
                misses.add(w.kind() + " " + w.target() + ": " + String.join(", ", why));
            }
        }
        return misses;
    }
}
