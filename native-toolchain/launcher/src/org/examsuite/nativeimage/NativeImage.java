package org.examsuite.nativeimage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The {@code native-image} command of the toolchain that {@code ./exam native toolchain} assembles.
 * GraalVM's own driver is not published on Maven Central (svm-driver stops at 20.3), so this one
 * turns the documented command line into a direct call of the builder published there
 * ({@code org.graalvm.nativeimage:svm}): image options are translated through the builder's own
 * {@code @APIOption} declarations ({@link ApiOptions}), jars contribute their
 * {@code META-INF/native-image} configuration ({@link MetaInf}), and the builder JVM is started
 * with the flags GraalVM's launcher gives it ({@link BuilderCommand}).
 */
public final class NativeImage {

    private NativeImage() {
    }

    public static void main(String[] args) throws Exception {
        Home home = Home.fromSystemProperties();
        List<String> arguments = ArgFiles.expand(List.of(args));
        if (arguments.contains("--version")) {
            home.printVersion(System.out);
            return;
        }
        if (arguments.isEmpty() || arguments.contains("--help") || arguments.contains("-h")) {
            System.out.println(usage());
            return;
        }
        Request request;
        try {
            request = Request.parse(arguments, ApiOptions.load(), Path.of("").toAbsolutePath());
        } catch (UsageException e) {
            System.err.println("native-image: " + e.getMessage());
            System.exit(2);
            return;
        }
        List<String> command = BuilderCommand.of(home, request, UUID.randomUUID());
        if (request.verbose() || request.dryRun()) {
            System.out.println(String.join(" \\\n  ", command));
        }
        if (request.dryRun()) {
            return;
        }
        Path argFile = Files.createTempFile("native-image-", ".args");
        try {
            // The builder's own argument-file form (NUL separated) keeps long class paths off the command line.
            List<String> jvm = command.subList(0, command.indexOf(BuilderCommand.RUNNER_MODULE) + 1);
            List<String> builder = command.subList(jvm.size(), command.size());
            Files.writeString(argFile, String.join("\0", builder));
            List<String> launched = new ArrayList<>(jvm);
            launched.add(BuilderCommand.ARG_FILE_OPTION + argFile);
            ProcessBuilder pb = new ProcessBuilder(launched).inheritIO();
            // Builder 25.0.4 on the machine's JDK 25.0.3: Graal's JVMCI check would refuse the older JDK (a warning instead).
            pb.environment().putIfAbsent("JVMCI_VERSION_CHECK", "warn");
            Process process = pb.start();
            int exit = process.waitFor();
            System.exit(exit);
        } finally {
            Files.deleteIfExists(argFile);
        }
    }

    static String usage() {
        return """
                Usage: native-image [options] class [imagename] [options]
                       native-image [options] -jar jarfile [imagename] [options]
                The options are those of GraalVM's native-image (--help of a GraalVM distribution lists them):
                image options (--features=..., --initialize-at-build-time=..., -O2, --gc=serial, -march=...),
                -H:<builder option>, -J<builder JVM option>, -D<builder system property>, -cp, -jar, -o,
                --exclude-config <jar regex> <resource regex>, @argfile, --verbose, --dry-run, --version.""";
    }

    /** A command line that cannot be carried out; printed to the user as it is. */
    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }
}
