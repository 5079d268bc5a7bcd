package org.examsuite.tools.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * bench/start-surge (issue 19): CANDIDATES enrolled candidates start their session at once,
 * IN_FLIGHT at a time, each retrying a 429/503 after its Retry-After (Surge.java), against one
 * session-service of the bench's own (port 18093, database exam_bench_surge, Redis db 12).
 */
final class StartSurge implements Benchmark {
    @Override
    public void run(BenchRun r) throws Exception {
        int candidates = r.envInt("CANDIDATES", 10000);
        String inFlight = r.env("IN_FLIGHT", "200");
        // a first surge of other candidates of the same exam, not reported: the service has served
        // enrolments and earlier exams' starts before an exam begins; a fresh JVM would be measured compiling
        int warmup = r.envInt("WARMUP_CANDIDATES", 2000);
        String questions = r.env("QUESTIONS", "20");
        SessionService session = new SessionService(r, 18093, "exam_bench_surge", 12);
        Path work = r.work();
        ProcFs proc = r.proc();
        Path surge = r.dir().resolve("Surge.java");

        r.need("psql");
        ServiceProcess service = session.start();
        String url = session.url();
        Path candidatesFile = work.resolve("candidates.txt");
        r.java(List.of(surge.toString(), "enroll", url, Integer.toString(warmup + candidates), questions,
                r.keys().privateFile("operator").toString(), candidatesFile.toString()), null);
        Path examFile = work.resolve("candidates.txt.exam");
        Files.copy(examFile, work.resolve("sessions.txt.exam"), StandardCopyOption.REPLACE_EXISTING); // what the cleanup deletes

        if (warmup > 0) {
            r.java(List.of(surge.toString(), "surge", url, candidatesFile.toString(), "0", Integer.toString(warmup), inFlight,
                    work.resolve("warmup.md").toString(), work.resolve("warmup-ids.txt").toString()), work.resolve("warmup.out"));
            append(work.resolve("warmup-ids.txt"), work.resolve("sessions.txt"));
        }
        String loadBefore = proc.loadAverage();
        long[] cpu0 = snapshot(proc, service.pid());
        Path out = work.resolve("surge.out");
        r.java(List.of(surge.toString(), "surge", url, candidatesFile.toString(), Integer.toString(warmup), Integer.toString(candidates),
                inFlight, work.resolve("surge.md").toString(), work.resolve("surge-ids.txt").toString()), out);
        long[] cpu1 = snapshot(proc, service.pid());
        System.out.print(r.read(out)); // as tee showed it
        append(work.resolve("surge-ids.txt"), work.resolve("sessions.txt"));
        String driverMs = Markdown.value(r.read(out), "driver-cpu-ms");
        String seconds = Markdown.value(r.read(out), "seconds");
        String inDb = session.db().query("SELECT count(*) FROM exam_session.session WHERE exam_id = '" + r.read(examFile).strip() + "'");

        r.report("# Exam-start surge — " + r.stamp(), "",
                "Machine: " + Runtime.getRuntime().availableProcessors() + " cores, " + proc.memoryGib() + " GiB; load average before the surge: "
                        + loadBefore + "; driver on the same machine.",
                candidates + " candidates (after a warm-up surge of " + warmup + " others of the same exam), " + inFlight + " in flight, "
                        + questions + " questions; clients honour Retry-After.",
                "");
        String md = r.read(work.resolve("surge.md"));
        r.report(md.endsWith("\n") ? md.substring(0, md.length() - 1) : md);
        r.report("| sessions of the exam in PostgreSQL (warm-up + surge) | " + inDb + " |");
        r.report(cpuRows(candidates, cpu0, cpu1, Awk.number(driverMs), Awk.number(seconds)));
        r.report("", "session-service: " + session.javaOpts() + ", MALLOC_ARENA_MAX=" + r.env("MALLOC_ARENA_MAX") + "; peak RSS (VmHWM) "
                + proc.mib(service.pid(), "VmHWM", "") + ".");
        DeadlineStorm.errors(r, service.log());
        r.show("report: " + r.out());
    }

    /** ms of CPU: session-service, PostgreSQL (all, with what it reaped), Redis; the machine's busy ticks. */
    static long[] snapshot(ProcFs proc, long pid) {
        return new long[] {CpuFigures.ms(proc.ticks(pid)), CpuFigures.ms(proc.postgresTicks()), CpuFigures.ms(proc.redisTicks()),
            proc.machineBusy()};
    }

    static List<String> cpuRows(int n, long[] before, long[] after, double driverMs, double seconds) {
        double s = after[0] - before[0];
        double p = after[1] - before[1];
        double redis = after[2] - before[2];
        double m = CpuFigures.ms(after[3] - before[3]);
        return List.of(
                "| CPU ms per start: session-service / PostgreSQL (all) / Redis (shared) / driver / whole machine | " + Awk.fixed(s / n, 2)
                        + " / " + Awk.fixed(p / n, 2) + " / " + Awk.fixed(redis / n, 2) + " / " + Awk.fixed(driverMs / n, 2) + " / "
                        + Awk.fixed(m / n, 2) + " |",
                "| CPU s during the surge (" + Awk.fixed(seconds, 1) + " s): session-service / PostgreSQL / Redis / driver / whole machine | "
                        + Awk.fixed(s / 1000, 1) + " / " + Awk.fixed(p / 1000, 1) + " / " + Awk.fixed(redis / 1000, 1) + " / "
                        + Awk.fixed(driverMs / 1000, 1) + " / " + Awk.fixed(m / 1000, 1) + " |");
    }

    /** cat FROM >> TO. */
    private static void append(Path from, Path to) throws java.io.IOException {
        if (Files.exists(from)) {
            Files.write(to, Files.readAllBytes(from), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
    }
}
