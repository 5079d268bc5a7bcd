package org.examsuite.demo.drill;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The machine as the drill uses it: external programs (nginx, nft, tc, pg_ctl, redis-cli, ./exam cluster), signals,
 * and HTTP status probes (what curl did in the bash drill).
 */
public final class Host {
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final Map<String, String> env;

    /** ENV: the environment every program gets (the drill's own plus the services' variables). */
    public Host(Map<String, String> env) {
        this.env = env;
    }

    public record Result(int exitCode, String out) {
        public boolean ok() {
            return exitCode == 0;
        }
    }

    /** Runs COMMAND to its end, stdout and stderr together captured (stdin: INPUT, or none). */
    public Result capture(List<String> command, String input) {
        ProcessBuilder pb = builder(command).redirectErrorStream(true);
        if (input == null) {
            pb.redirectInput(new File("/dev/null"));
        }
        try {
            Process process = pb.start();
            if (input != null) {
                try (OutputStream in = process.getOutputStream()) {
                    in.write(input.getBytes(StandardCharsets.UTF_8));
                }
            }
            String out;
            try (InputStream stdout = process.getInputStream()) {
                out = new String(stdout.readAllBytes(), StandardCharsets.UTF_8);
            }
            return new Result(waitFor(process), out);
        } catch (IOException e) {
            return new Result(127, command.get(0) + ": " + e.getMessage());
        }
    }

    public Result capture(List<String> command) {
        return capture(command, null);
    }

    /** Runs COMMAND, stdout and stderr appended to LOG; its exit code. */
    public int toLog(List<String> command, Path log) {
        try {
            Process process = builder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).redirectInput(new File("/dev/null"))
                    .start();
            return waitFor(process);
        } catch (IOException e) {
            return 127;
        }
    }

    /** Runs COMMAND, its output thrown away; true when it succeeded. */
    public boolean quietly(List<String> command) {
        try {
            Process process = builder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(new File("/dev/null")).start();
            return waitFor(process) == 0;
        } catch (IOException e) {
            return false;
        }
    }

    public ProcessBuilder builder(List<String> command) {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().clear();
        pb.environment().putAll(env);
        return pb;
    }

    private static int waitFor(Process process) {
        try {
            return process.waitFor();
        } catch (InterruptedException e) {
            process.destroy();
            Thread.currentThread().interrupt();
            return 130;
        }
    }

    // --- signals: Java has SIGTERM and SIGKILL only; SIGSTOP, SIGCONT and SIGQUIT go through kill(1) ---

    public static boolean alive(long pid) {
        return pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    public void signal(long pid, String signal) {
        if (pid > 0) {
            quietly(List.of("kill", "-" + signal, Long.toString(pid)));
        }
    }

    /** PID's command line, its arguments joined by blanks ("" when it does not run): is it still ours? */
    public static String commandLine(long pid) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            return new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').strip();
        } catch (IOException e) {
            return "";
        }
    }

    /** The pid a pid file holds, 0 when there is none. */
    /** The pid on the first line of a pid file (postmaster.pid has more lines); 0 when there is none. */
    public static long readPid(Path file) {
        try {
            return Long.parseLong(Files.readString(file).lines().findFirst().orElse("").strip());
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    public static boolean isRoot() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return line.split("\\s+")[1].equals("0");
                }
            }
        } catch (IOException e) {
            // not Linux: not root as far as the drill knows
        }
        return false;
    }

    /** COMMAND on the PATH. */
    public boolean has(String command) {
        for (String dir : env.getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, command);
            if (Files.isExecutable(candidate) && !Files.isDirectory(candidate)) {
                return true;
            }
        }
        return false;
    }

    /** need_tool, as ./exam's: apt-get installs it when missing, or the drill stops naming it. */
    public void need(String command, String debianPackage) {
        if (has(command)) {
            return;
        }
        install(debianPackage);
        if (!has(command)) {
            throw new DrillFailure(command + " is missing (Debian package " + debianPackage + ")");
        }
    }

    /** COMMAND run as USER (setpriv: its uid, its group, no other groups), for a root drill's PostgreSQL. */
    public List<String> asUser(String user, List<String> command) {
        String gid = capture(List.of("id", "-g", user)).out().strip();
        List<String> wrapped = new java.util.ArrayList<>(List.of("setpriv", "--reuid=" + user, "--regid=" + gid, "--clear-groups", "--"));
        wrapped.addAll(command);
        return wrapped;
    }

    /** apt-get install of a Debian package when the drill is root and apt-get is there (else nothing). */
    public void install(String debianPackage) {
        if (has("apt-get") && isRoot()) {
            Drill.say("installing " + debianPackage + " (apt-get)");
            quietly(List.of("apt-get", "update", "-qq"));
            quietly(List.of("env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-qq",
                    "--no-install-recommends", debianPackage));
        }
    }

    /** The status of GET URL within TIMEOUT, 0 when nothing answered (curl's 000). */
    public int httpStatus(String url, Duration timeout) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(timeout).GET().build();
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException | IllegalArgumentException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    public int httpStatus(String url) {
        return httpStatus(url, Duration.ofSeconds(2));
    }

    /** Something accepts connections on 127.0.0.1:PORT. */
    public static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    public static void sleepMs(long ms) throws InterruptedException {
        if (ms > 0) {
            TimeUnit.MILLISECONDS.sleep(ms);
        }
    }

    public static void sleepUntil(long epochMs) throws InterruptedException {
        sleepMs(epochMs - System.currentTimeMillis());
    }
}
