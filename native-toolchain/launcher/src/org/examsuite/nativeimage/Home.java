package org.examsuite.nativeimage;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The assembled GraalVM-like home: a JDK 25 with the builder jars under {@code lib/svm/builder},
 * the Graal compiler under {@code lib/jvmci}, SubstrateVM's C libraries and the JDK's static
 * libraries. {@code bin/native-image} passes its path and the builder's version as system properties.
 */
record Home(Path path, String builderVersion) {

    static Home fromSystemProperties() {
        String home = System.getProperty("examsuite.graalvm.home");
        if (home == null) {
            throw new IllegalStateException("examsuite.graalvm.home is not set: run bin/native-image of an assembled home");
        }
        return new Home(Path.of(home), System.getProperty("examsuite.graalvm.version", "25.0.4"));
    }

    Path java() {
        return path.resolve("bin/java");
    }

    Path compilerJar() {
        return jars(path.resolve("lib/jvmci")).stream().filter(p -> p.getFileName().toString().startsWith("compiler-"))
                .findFirst().orElseThrow(() -> new IllegalStateException("no Graal compiler jar in " + path.resolve("lib/jvmci")));
    }

    /** The builder's module path: every jar of lib/svm/builder, lib/jvmci (but the compiler, which upgrades the JDK's) and lib/truffle. */
    List<Path> builderModulePath() {
        Path compiler = compilerJar();
        return Stream.of("lib/svm/builder", "lib/jvmci", "lib/truffle")
                .flatMap(dir -> jars(path.resolve(dir)).stream())
                .filter(p -> !p.equals(compiler))
                .toList();
    }

    Path cLibraries() {
        return path.resolve("lib/svm/clibraries/linux-amd64");
    }

    /**
     * The lines Quarkus parses ({@code GraalVM.VersionParseHelper}): the JDK's version on the first,
     * vendor and builder version on the next two, in GraalVM Community's format.
     */
    void printVersion(PrintStream out) {
        Runtime.Version jdk = Runtime.version();
        String date = System.getProperty("java.version.date", "");
        out.println("native-image " + jdk.feature() + "." + jdk.interim() + "." + jdk.update() + " " + date);
        // The build info must parse as a Runtime.Version: the builder's own version is not written into it.
        out.println("GraalVM Runtime Environment " + vendorVersion() + " (build " + jdkBuild() + "-jvmci-b01)");
        out.println("Substrate VM " + vendorVersion() + " (build " + jdkBuild() + ", serial gc)");
    }

    /**
     * GraalVM Community's vendor version for this JDK: libraries (Quarkus) read it at build time from
     * {@code org.graalvm.vendorversion}, which GraalVM's JDK defines, to know the builder they run in.
     */
    String vendorVersion() {
        return "GraalVM CE " + jdkBuild() + ".1";
    }

    private static String jdkBuild() {
        Runtime.Version jdk = Runtime.version();
        return jdk.feature() + "." + jdk.interim() + "." + jdk.update() + "+" + jdk.build().orElse(0);
    }

    private static List<Path> jars(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
