package org.examsuite.tools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * CPU time and memory of processes and of the machine, out of /proc (clock ticks of USER_HZ, KiB),
 * as the bench scripts read them with awk: a process that vanished counts 0.
 */
final class ProcFs {
    /** USER_HZ: what getconf CLK_TCK says on every Linux the suite runs on (the kernel's ABI fixes it). */
    static final int HZ = 100;

    private final Path proc;

    ProcFs(Path proc) {
        this.proc = proc;
    }

    ProcFs() {
        this(Path.of("/proc"));
    }

    /** The fields of a stat line after "(comm) ": [0] is the state, [11] utime, [12] stime, [19] starttime. */
    static String[] statFields(String stat) {
        int close = stat.lastIndexOf(") ");
        return (close < 0 ? stat : stat.substring(close + 2)).trim().split("\\s+");
    }

    /** utime+stime of PID (or "PID/task/TID"). */
    long ticks(String pid) {
        String[] f = statFields(read(pid + "/stat"));
        return f.length > 12 ? Long.parseLong(f[11]) + Long.parseLong(f[12]) : 0;
    }

    long ticks(long pid) {
        return ticks(Long.toString(pid));
    }

    /** cutime+cstime: what PID reaped from its ended children (the postmaster's ended backends). */
    long childTicks(long pid) {
        String[] f = statFields(read(pid + "/stat"));
        return f.length > 14 ? Long.parseLong(f[13]) + Long.parseLong(f[14]) : 0;
    }

    long ticks(List<Long> pids) {
        return pids.stream().mapToLong(this::ticks).sum();
    }

    /** pgrep -x NAME: the processes named NAME, oldest first (pgrep -o: the first). */
    List<Long> named(String name) {
        List<Long> pids = new ArrayList<>();
        try (Stream<Path> all = Files.list(proc)) {
            all.map(p -> p.getFileName().toString()).filter(s -> s.matches("[0-9]+"))
                    .filter(pid -> read(pid + "/comm").strip().equals(name)).forEach(pid -> pids.add(Long.parseLong(pid)));
        } catch (IOException e) {
            return List.of();
        }
        pids.sort(Comparator.comparingLong(this::startTime));
        return pids;
    }

    long startTime(long pid) {
        String[] f = statFields(read(pid + "/stat"));
        return f.length > 19 ? Long.parseLong(f[19]) : Long.MAX_VALUE;
    }

    /** cpu_snapshot: ticks of SERVICE, of redis-server and of every postgres process. */
    long[] snapshot(long service) {
        return new long[] {ticks(service), ticks(named("redis-server")), ticks(named("postgres"))};
    }

    /** Every postgres process plus what the postmaster reaped from ended backends, in ticks. */
    long postgresTicks() {
        List<Long> pids = named("postgres");
        return ticks(pids) + (pids.isEmpty() ? 0 : childTicks(pids.get(0)));
    }

    /** The oldest redis-server's ticks (0 when none runs). */
    long redisTicks() {
        List<Long> pids = named("redis-server");
        return pids.isEmpty() ? 0 : ticks(pids.get(0));
    }

    /** /proc/stat's first line's numbers (user nice system idle iowait irq softirq steal ...). */
    long[] machine() {
        String[] w = read("stat").lines().findFirst().orElse("cpu").trim().split("\\s+");
        long[] v = new long[w.length - 1];
        for (int i = 1; i < w.length; i++) {
            v[i - 1] = Long.parseLong(w[i]);
        }
        return v;
    }

    /** Every core's busy ticks: user + nice + system + irq + softirq + steal. */
    long machineBusy() {
        long[] v = machine();
        return v.length < 8 ? 0 : v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
    }

    /** The first three numbers of /proc/loadavg. */
    String loadAverage() {
        String[] w = read("loadavg").trim().split("\\s+");
        return w.length < 3 ? "" : w[0] + " " + w[1] + " " + w[2];
    }

    /** A /proc/PID/status figure in KiB (VmHWM, VmRSS); -1 when the process is gone. */
    long statusKib(long pid, String key) {
        for (String line : read(pid + "/status").split("\n")) {
            if (line.startsWith(key + ":")) {
                return Long.parseLong(line.substring(key.length() + 1).trim().split("\\s+")[0]);
            }
        }
        return -1;
    }

    /** "%d MiB" of a status figure, as the scripts' awk printed it; FALLBACK when the process is gone. */
    String mib(long pid, String key, String fallback) {
        long kib = statusKib(pid, key);
        return kib < 0 ? fallback : kib / 1024 + " MiB";
    }

    /** A thread: its name (comm) and its ticks. */
    record Task(String name, long ticks) {
    }

    /** Each thread of PID. */
    List<Task> threads(long pid) {
        List<Task> out = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(proc.resolve(pid + "/task"))) {
            tasks.forEach(t -> {
                String tid = pid + "/task/" + t.getFileName();
                out.add(new Task(read(tid + "/comm").strip(), ticks(tid)));
            });
        } catch (IOException e) {
            return out;
        }
        return out;
    }

    /** MemTotal in whole GiB, rounded down as free -g shows it. */
    String memoryGib() {
        for (String line : read("meminfo").split("\n")) {
            if (line.startsWith("MemTotal:")) {
                return Long.toString(Long.parseLong(line.trim().split("\\s+")[1]) / (1024 * 1024));
            }
        }
        return "";
    }

    /** /proc/uptime in ms (the clock of starttime). */
    long uptimeMs() {
        String[] w = read("uptime").trim().split("\\s+");
        return w[0].isEmpty() ? 0 : Math.round(Double.parseDouble(w[0]) * 1000);
    }

    String read(String relative) {
        try {
            return Files.readString(proc.resolve(relative));
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
