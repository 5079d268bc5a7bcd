package org.examsuite.demo.drill;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One process or infrastructure fault of {@code ./exam drill} (the drill, {@link Drill}, writes one line per finished fault
 * to {@code .exam/drill/faults.tsv}: start and end in epoch ms, kind, target, detail, tab-separated).
 */
public record InfraFault(long startEpochMs, long endEpochMs, String kind, String target, String detail) {
    /** The kinds of the drill's {@code --faults}, in the order of docs/drill.md (the JSON summary names them all). */
    public static final List<String> KINDS = List.of("kill", "rollingRestart", "redisMasterKill", "redisReplicaKill",
            "postgresRestart", "pause", "partition", "postgresFailover");

    /**
     * What {@code --faults all} means: every kind but {@code postgresFailover}, which needs PostgreSQL run by an HA
     * engine (the drill runs it so when that fault is asked for: {@link PgHa}).
     */
    public static final List<String> ALL = KINDS.stream().filter(kind -> !kind.equals("postgresFailover")).toList();

    /** A replica that exited on its own, started again by the drill's {@link Supervisor} (restartPolicy: Always). */
    public static final String CRASH_RESTART = "crashRestart";

    /** The drill could not inject it or the target did not come back (the detail says which). */
    public boolean failed() {
        return detail.startsWith("FAILED");
    }

    /** Injected at all (a fault of a kind that does not apply, e.g. a replica kill on a standalone Redis, is skipped). */
    public boolean skipped() {
        return detail.startsWith("skipped");
    }

    public static InfraFault parse(String line) {
        String[] fields = line.split("\t", 5);
        if (fields.length < 5) {
            throw new IllegalArgumentException("not a fault line (start, end, kind, target, detail): " + line);
        }
        return new InfraFault(Long.parseLong(fields[0].trim()), Long.parseLong(fields[1].trim()), fields[2], fields[3], fields[4]);
    }

    /** Every fault of the file in order of start; a missing file is no fault at all. */
    public static List<InfraFault> read(Path file) throws IOException {
        List<InfraFault> faults = new ArrayList<>();
        if (!Files.exists(file)) {
            return faults;
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                faults.add(parse(line));
            }
        }
        faults.sort(Comparator.comparingLong(InfraFault::startEpochMs));
        return faults;
    }
}
