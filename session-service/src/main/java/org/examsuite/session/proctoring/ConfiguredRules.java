package org.examsuite.session.proctoring;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.examsuite.session.exam.DefaultRules;
import org.examsuite.session.exam.ProctoringRule;

/** The default rules of {@link FlagRules} as an exam stores them, by name; a rule missing what its kind needs fails the start. */
@ApplicationScoped
public class ConfiguredRules implements DefaultRules {
    private final List<ProctoringRule> defaults;

    ConfiguredRules(FlagRules config) {
        List<ProctoringRule> rules = new ArrayList<>();
        for (Map.Entry<String, FlagRules.Rule> entry : new TreeMap<>(config.rules()).entrySet()) {
            FlagRules.Rule rule = entry.getValue();
            String name = entry.getKey();
            if (rule.kind() == ProctoringRule.Kind.OFFLINE_NEAR_DEADLINE) {
                rules.add(ProctoringRule.offlineNearDeadline(name,
                        (int) rule.offline().orElseThrow(() -> missing(name, "offline")).toSeconds(),
                        (int) rule.last().orElseThrow(() -> missing(name, "last")).toSeconds()));
            } else {
                rules.add(ProctoringRule.eventCount(name, rule.eventType().orElseThrow(() -> missing(name, "event-type")),
                        rule.count(), (int) rule.window().toSeconds(), rule.minLength().orElse(null)));
            }
        }
        this.defaults = List.copyOf(rules);
    }

    private static IllegalStateException missing(String rule, String property) {
        return new IllegalStateException("exam.proctoring.flags.rules." + rule + "." + property + " is not set");
    }

    @Override
    public List<ProctoringRule> defaults() {
        return defaults;
    }
}
