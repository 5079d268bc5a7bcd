package org.examsuite.demo.drill;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * Every requested kind ran, the schedule finished, and nothing FAILED (an injection that did not work, a replica that
 * did not come back): otherwise the drill did not test what it says, and it exits 1 whatever the demo verified.
 */
public final class ScheduleCheck {
    private final DrillPaths paths;
    private final List<String> kinds;

    public ScheduleCheck(DrillPaths paths, List<String> kinds) {
        this.paths = paths;
        this.kinds = kinds;
    }

    /** Says what is wrong (stdout, "drill: ..."); true when nothing is. */
    public boolean passed() {
        boolean ok = true;
        if (!Files.exists(paths.faultsDone())) {
            Drill.say("the fault schedule had not finished when the demo ended");
            ok = false;
        }
        List<InfraFault> faults;
        try {
            faults = InfraFault.read(paths.faultsTsv());
        } catch (IOException | IllegalArgumentException e) {
            Drill.say("cannot read " + paths.faultsTsv() + ": " + e.getMessage());
            faults = List.of();
            ok = false;
        }
        for (String kind : kinds) {
            if (faults.stream().noneMatch(f -> f.kind().equals(kind))) {
                Drill.say("no '" + kind + "' fault ran (see " + paths.log("faults.log") + ")");
                ok = false;
            }
        }
        List<InfraFault> failed = new ArrayList<>(faults.stream().filter(InfraFault::failed).toList());
        if (!failed.isEmpty()) {
            Drill.say("faults that FAILED:");
            failed.forEach(f -> System.out.println("  " + f.kind() + " " + f.target() + ": " + f.detail()));
            ok = false;
        }
        return ok;
    }
}
