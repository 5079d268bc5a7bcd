package org.examsuite.demo.drill;

import java.nio.file.Path;

/** Where the drill keeps its files: everything under {@code $EXAM_HOME/.exam/drill} (docs/drill.md). */
public record DrillPaths(Path examHome) {
    public Path dir() {
        return examHome.resolve(".exam/drill");
    }

    public Path logs() {
        return dir().resolve("logs");
    }

    public Path previousLogs() {
        return dir().resolve("logs.1");
    }

    /** Pid files of the replicas. */
    public Path state() {
        return dir().resolve("state");
    }

    public Path nginx() {
        return dir().resolve("nginx");
    }

    public Path pgData() {
        return dir().resolve("pg");
    }

    public Path pgRun() {
        return dir().resolve("pg-run");
    }

    public Path redisDir() {
        return dir().resolve("redis");
    }

    public Path redisStandalone() {
        return dir().resolve("redis-standalone");
    }

    /** One line per finished fault; exam-demo reads it for the report. */
    public Path faultsTsv() {
        return dir().resolve("faults.tsv");
    }

    /** Written when the schedule has ended: exam-demo waits for it. */
    public Path faultsDone() {
        return dir().resolve("faults.tsv.done");
    }

    /** exam-demo writes each fault's window there (ImpactsFile) for the drill's RecoveryCheck. */
    public Path impacts() {
        return dir().resolve("impacts.tsv");
    }

    /** exam-demo writes the epoch ms its candidates start at: the fault schedule's clock. */
    public Path examStarted() {
        return dir().resolve("exam-started");
    }

    public Path keys() {
        return examHome.resolve(".exam/keys");
    }

    public Path log(String name) {
        return logs().resolve(name);
    }
}
