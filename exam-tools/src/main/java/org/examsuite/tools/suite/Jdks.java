package org.examsuite.tools.suite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** The JDKs of this machine: this JVM, or the newest in /usr/lib/jvm, when a program needs a newer one. */
public final class Jdks {
    private static final Path JVMS = Path.of("/usr/lib/jvm");

    private Jdks() {
    }

    /** A JDK home of feature release {@code feature} or newer: this JVM when it is one, else the newest found. */
    public static Optional<Path> atLeast(int feature) {
        if (Runtime.version().feature() >= feature) {
            return Optional.of(Path.of(System.getProperty("java.home")));
        }
        try (var jvms = Files.list(JVMS)) {
            return jvms.filter(j -> Files.isExecutable(j.resolve("bin/java")) && feature(j) >= feature)
                    .max((a, b) -> Integer.compare(feature(a), feature(b)));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The feature release a JDK home's release file names; 0 when unreadable. */
    static int feature(Path jdk) {
        try {
            for (String line : Files.readAllLines(jdk.resolve("release"))) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String v = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                    return Integer.parseInt(v.split("[.+-]")[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }
}
