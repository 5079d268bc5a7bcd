package org.examsuite.tools.host;

/** What ./exam tells its user: progress on stdout, warnings on stderr (stdout may carry a result). */
public final class Say {
    private Say() {
    }

    public static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    public static void err(String line) {
        System.err.println(line);
        System.err.flush();
    }

    public static void warn(String message) {
        err("exam: " + message);
    }

    /** The last 40 lines of LOG on stderr, when it exists (why something did not start). */
    public static void tail(java.nio.file.Path log) {
        if (!java.nio.file.Files.isRegularFile(log)) {
            return;
        }
        try {
            java.util.List<String> lines = java.nio.file.Files.readAllLines(log, java.nio.charset.StandardCharsets.ISO_8859_1);
            err("--- last lines of " + log + " ---");
            lines.subList(Math.max(0, lines.size() - 40), lines.size()).forEach(Say::err);
            err("---");
        } catch (java.io.IOException e) {
            // unreadable: nothing to show
        }
    }
}
