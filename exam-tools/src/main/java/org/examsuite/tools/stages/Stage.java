package org.examsuite.tools.stages;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The stages of ./exam test, in the order they run, each with its time limit. A stage runs in a
 * process of its own under that limit, so a hanging test cannot hold CI to its end. Optional
 * stages run only when named (too long for every run on a 2-core machine).
 */
public enum Stage {
    MAVEN("maven", 1500, "Maven verify, every module (unit + @QuarkusTest)"),
    CLUSTER("cluster", 1500, "Maven verify of the four services against a real Redis Cluster"),
    NATIVE("native", 2400, "Native executables: the toolchain's own test, the four services built (later stages run on them)"),
    CLIENT("client", 600, "exam-client SDK tests (Node)"),
    LIVE("live", 1500, "k8s checks against the running suite: live metric names, a real Prometheus, one trace"),
    E2E("e2e", 900, "exam-client in headless Chromium against the running suite", true),
    FUZZ("fuzz", 300, "Hostile input: 5,000 generated requests against the running suite, oracles after every batch", true),
    DEMO("demo", 900, "A short demo: 50 candidates on a weak network, verified lossless", true),
    DRILL("drill", 540, "A short drill: 60 candidates on two replicas of everything, every fault kind once"),
    IMAGES("images", 1200, "OCI images: built without a daemon, pushed to a loopback registry, checked against the chart, run", false, true);

    /** A stage's exit code when what it tests is not in the tree yet. */
    public static final int NOT_APPLICABLE = 3;

    private final String id;
    private final int limitSeconds;
    private final String title;
    private final boolean sharesSuite;
    private final boolean optional;

    Stage(String id, int limitSeconds, String title) {
        this(id, limitSeconds, title, false, false);
    }

    Stage(String id, int limitSeconds, String title, boolean sharesSuite) {
        this(id, limitSeconds, title, sharesSuite, false);
    }

    Stage(String id, int limitSeconds, String title, boolean sharesSuite, boolean optional) {
        this.id = id;
        this.limitSeconds = limitSeconds;
        this.title = title;
        this.sharesSuite = sharesSuite;
        this.optional = optional;
    }

    public String id() {
        return id;
    }

    public int limitSeconds() {
        return limitSeconds;
    }

    public String title() {
        return title;
    }

    /** e2e, fuzz and demo share one start of the suite; any other stage gets the machine without it. */
    public boolean sharesSuite() {
        return sharesSuite;
    }

    public boolean optional() {
        return optional;
    }

    public static Optional<Stage> of(String id) {
        return Arrays.stream(values()).filter(s -> s.id.equals(id)).findFirst();
    }

    public static List<String> ids() {
        return Arrays.stream(values()).map(Stage::id).toList();
    }

    /** What ./exam test NAMES runs: every non-optional stage when none is named, else those named, in order. */
    public static List<Stage> selected(List<String> names) {
        return Arrays.stream(values()).filter(s -> names.isEmpty() ? !s.optional : names.contains(s.id)).toList();
    }
}
