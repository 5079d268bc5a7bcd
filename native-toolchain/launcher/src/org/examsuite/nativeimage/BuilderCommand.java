package org.examsuite.nativeimage;

import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/** The builder JVM's command line for one request. */
final class BuilderCommand {

    static final String RUNNER_MODULE = "org.graalvm.nativeimage.builder/com.oracle.svm.hosted.NativeImageGeneratorRunner";
    /** NativeImageGeneratorRunner.IMAGE_BUILDER_ARG_FILE_OPTION: a NUL-separated file of builder arguments. */
    static final String ARG_FILE_OPTION = "--image-args-file=";

    /** Builder modules that must load native code themselves (without it: "platform encoding not initialized"). */
    private static final String NATIVE_ACCESS = "org.graalvm.nativeimage.objectfile,org.graalvm.nativeimage.builder,"
            + "org.graalvm.nativeimage.pointsto,org.graalvm.nativeimage.base";

    /** JDK modules whose internals the builder uses; all resolved in its JVM (its requires and ALL-DEFAULT). */
    static final Set<String> JDK_MODULES = Set.of("java.base", "jdk.internal.vm.ci", "jdk.jfr", "jdk.management",
            "java.management", "jdk.zipfs", "jdk.unsupported", "java.instrument", "jdk.net");

    private BuilderCommand() {
    }

    static List<String> of(Home home, Request request, UUID buildId) {
        List<String> cmd = new ArrayList<>();
        cmd.add(home.java().toString());
        cmd.addAll(List.of(
                "-XX:+UnlockExperimentalVMOptions", "-XX:+EnableJVMCI", "-XX:-UseJVMCICompiler",
                "-XX:+UseParallelGC", "-Xss10m", "-Xshare:off",
                "-Dorg.graalvm.version=" + home.builderVersion(), "-Dorg.graalvm.vendor=GraalVM Community (assembled by exam-suite's native-toolchain)",
                "-Dorg.graalvm.vendorversion=" + home.vendorVersion(),
                "-Dcom.oracle.graalvm.isaot=true", "-Dorg.graalvm.nativeimage.imagecode=buildtime",
                "-Djava.system.class.loader=com.oracle.svm.hosted.NativeImageSystemClassLoader",
                // Lambdas and method handles are spun by the builder itself; the JDK must not initialise them eagerly.
                "-Djdk.internal.lambda.disableEagerInitialization=true",
                "-Djdk.internal.lambda.eagerlyInitialize=false",
                "-Djava.lang.invoke.InnerClassLambdaMetafactory.initializeLambdas=false",
                "--add-modules=ALL-DEFAULT",
                "--enable-native-access=" + NATIVE_ACCESS,
                // Libraries initialise JBoss threads and the like at build time by reflection on java.lang.
                "--add-opens=java.base/java.lang=ALL-UNNAMED"));
        cmd.addAll(jdkExports());
        cmd.add("--upgrade-module-path");
        cmd.add(home.compilerJar().toString());
        cmd.add("--module-path");
        cmd.add(home.builderModulePath().stream().map(Path::toString).collect(Collectors.joining(":")));
        cmd.addAll(request.builderJvmArgs);
        cmd.add("--module");
        cmd.add(RUNNER_MODULE);
        cmd.add("-imagecp");
        cmd.add(request.classpath.stream().map(Path::toString).collect(Collectors.joining(":")));
        // Options this launcher sets itself carry the origin "driver", as GraalVM's do (not listed as the user's experimental options).
        cmd.add("-H:CLibraryPath@driver=" + home.cLibraries());
        cmd.add("-H:ImageBuildID@driver=" + buildId);
        cmd.add("-H:Path@driver=" + request.imageDir);
        cmd.add("-H:Name@driver=" + request.imageName);
        if (request.mainClass != null) {
            cmd.add("-H:Class@driver=" + request.mainClass);
        }
        cmd.addAll(request.builderArgs);
        return cmd;
    }

    /**
     * The builder reaches into the JDK's internals (JVMCI, jdk.internal.*); GraalVM's own JDK grants
     * it with qualified exports built into the image, a plain JDK 25 needs them on the command line.
     */
    private static List<String> jdkExports() {
        String builderModules = String.join(",", List.of("org.graalvm.nativeimage.builder", "org.graalvm.nativeimage.pointsto",
                "org.graalvm.nativeimage.base", "org.graalvm.nativeimage.objectfile", "org.graalvm.nativeimage.configure",
                "jdk.graal.compiler", "org.graalvm.truffle.compiler"));
        List<String> out = new ArrayList<>();
        for (ModuleReference module : ModuleFinder.ofSystem().findAll()) {
            String name = module.descriptor().name();
            if (JDK_MODULES.contains(name)) {
                for (String pkg : module.descriptor().packages().stream().sorted().toList()) {
                    out.add("--add-exports=" + name + "/" + pkg + "=" + builderModules);
                }
            }
        }
        return out;
    }
}
