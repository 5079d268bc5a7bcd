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
}
