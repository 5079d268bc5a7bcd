package org.examsuite.demo.stats;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time of this process and of the whole machine between two readings, so that a run can say what the driver
 * itself cost (it shares the machine with the suite). The machine's figures come from Linux's /proc/stat; elsewhere
 * they are -1.
 */
public final class CpuUse {
    private static final Path PROC_STAT = Path.of("/proc/stat");
    /** USER_HZ: the unit of /proc/stat on every Linux this runs on. */
    private static final long TICK_MS = 10;

    private final long processNanos;
    private final long machineBusyTicks;
    private final long machineAllTicks;

    private CpuUse(long processNanos, long machineBusyTicks, long machineAllTicks) {
        this.processNanos = processNanos;
        this.machineBusyTicks = machineBusyTicks;
        this.machineAllTicks = machineAllTicks;
    }

    public static CpuUse now() {
        long process = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
        long busy = -1;
        long all = -1;
        try {
            String[] fields = Files.readAllLines(PROC_STAT).get(0).trim().split("\\s+");
            // cpu user nice system idle iowait irq softirq steal ...: idle and iowait are not work
            all = 0;
            for (int i = 1; i < Math.min(fields.length, 9); i++) {
                all += Long.parseLong(fields[i]);
            }
            busy = all - Long.parseLong(fields[4]) - Long.parseLong(fields[5]);
        } catch (IOException | RuntimeException e) {
            // not Linux: the machine's share stays unknown
        }
        return new CpuUse(process, busy, all);
    }

    /** Adds to {@code counters} what passed since {@code earlier}: driver.cpu-ms, machine.busy-ms, machine.cpu-ms. */
    public void since(CpuUse earlier, Counters counters) {
        if (processNanos >= 0 && earlier.processNanos >= 0) {
            counters.add("driver.cpu-ms", (processNanos - earlier.processNanos) / 1_000_000);
        }
        if (machineAllTicks >= 0 && earlier.machineAllTicks >= 0) {
            counters.add("machine.busy-ms", (machineBusyTicks - earlier.machineBusyTicks) * TICK_MS);
            counters.add("machine.cpu-ms", (machineAllTicks - earlier.machineAllTicks) * TICK_MS);
        }
    }
}
