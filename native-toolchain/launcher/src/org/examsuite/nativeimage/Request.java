package org.examsuite.nativeimage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Pattern;

/** One native-image command line, parsed: what to build, from which class path, with which builder options. */
final class Request {

    /** {@code --exclude-config}: configuration in jars matching {@code jar} whose resource path matches {@code resource} is not read. */
    record Exclude(Pattern jar, Pattern resource) {
        boolean matches(Path entry, String resourcePath) {
            return jar.matcher(entry.toString()).find() && resource.matcher(resourcePath).find();
        }
    }

    final List<String> builderJvmArgs = new ArrayList<>();
    final LinkedHashSet<Path> classpath = new LinkedHashSet<>();
    final List<String> builderArgs = new ArrayList<>();
    final List<Exclude> excludes = new ArrayList<>();
    String mainClass;
    String imageName;
    Path imageDir;
    private boolean verbose;
    private boolean dryRun;

    boolean verbose() {
        return verbose;
    }

    boolean dryRun() {
        return dryRun;
    }

    static Request parse(List<String> args, ApiOptions api, Path cwd) throws NativeImage.UsageException {
        Request r = new Request();
        r.imageDir = cwd;
        Path jar = null;
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            switch (arg) {
                case "-cp", "-classpath", "--class-path" -> r.addClasspath(next(args, ++i, arg), cwd);
                case "-jar" -> jar = cwd.resolve(next(args, ++i, arg)).normalize();
                case "-o" -> r.output(next(args, ++i, arg), cwd);
                case "--exclude-config" -> {
                    r.excludes.add(new Exclude(Pattern.compile(next(args, ++i, arg)), Pattern.compile(next(args, ++i, arg))));
                }
                case "--verbose" -> r.verbose = true;
                case "--dry-run" -> r.dryRun = true;
                case "-p", "--module-path", "--add-modules", "-m", "--module" ->
                        throw new NativeImage.UsageException(arg + ": module-path builds are not supported by this launcher");
                default -> {
                    if (arg.startsWith("--class-path=")) {
                        r.addClasspath(arg.substring("--class-path=".length()), cwd);
                    } else if (!arg.startsWith("-")) {
                        positional.add(arg);
                    } else {
                        i += r.option(args, i, api) - 1;
                    }
                }
            }
        }
        if (jar != null) {
            r.addJar(jar);
        }
        if (r.mainClass == null && !positional.isEmpty() && jar == null) {
            r.mainClass = positional.remove(0);
        }
        if (r.imageName == null && !positional.isEmpty()) {
            r.output(positional.remove(0), cwd);
        }
        if (!positional.isEmpty()) {
            throw new NativeImage.UsageException("unexpected arguments: " + positional);
        }
        if (r.imageName == null) {
            if (jar != null) {
                r.imageName = jar.getFileName().toString().replaceFirst("\\.jar$", "");
            } else if (r.mainClass != null) {
                r.imageName = r.mainClass.toLowerCase();
            } else {
                throw new NativeImage.UsageException("nothing to build: give a main class or -jar");
            }
        }
        MetaInf.apply(r, api);
        return r;
    }

    /** One option that is not about the class path; returns how many arguments it consumed. */
    int option(List<String> args, int i, ApiOptions api) throws NativeImage.UsageException {
        String arg = args.get(i);
        if (arg.startsWith("-J")) {
            builderJvmArgs.add(arg.substring(2));
            return 1;
        }
        if (arg.startsWith("-D")) {
            builderJvmArgs.add(arg);
            return 1;
        }
        if (arg.startsWith("-E")) {
            return 1; // the builder inherits this launcher's whole environment
        }
        if (arg.startsWith("-H:") || arg.startsWith("-R:")) {
            builderArgs.add(arg);
            return 1;
        }
        Optional<ApiOptions.Translation> t = api.translate(args, i);
        if (t.isEmpty()) {
            throw new NativeImage.UsageException("unknown option " + arg);
        }
        builderArgs.add(t.get().builderArgument());
        return t.get().consumed();
    }

    private void output(String value, Path cwd) {
        Path out = cwd.resolve(value).normalize();
        imageDir = out.getParent();
        imageName = out.getFileName().toString();
    }

    private void addClasspath(String value, Path cwd) {
        for (String entry : value.split(":")) {
            if (!entry.isEmpty()) {
                classpath.add(cwd.resolve(entry).normalize());
            }
        }
    }

    /** {@code -jar}: the jar, the Class-Path of its manifest (relative to the jar), and its Main-Class. */
    private void addJar(Path jar) throws NativeImage.UsageException {
        classpath.add(jar);
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            if (manifest == null) {
                return;
            }
            Attributes main = manifest.getMainAttributes();
            String cp = main.getValue(Attributes.Name.CLASS_PATH);
            if (cp != null) {
                for (String entry : cp.trim().split("\\s+")) {
                    if (!entry.isEmpty()) {
                        classpath.add(jar.getParent().resolve(entry).normalize());
                    }
                }
            }
            if (mainClass == null) {
                mainClass = main.getValue(Attributes.Name.MAIN_CLASS);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jar, e);
        }
        if (mainClass == null) {
            throw new NativeImage.UsageException(jar + " has no Main-Class");
        }
    }

    private static String next(List<String> args, int i, String option) throws NativeImage.UsageException {
        if (i >= args.size()) {
            throw new NativeImage.UsageException(option + " needs a value");
        }
        return args.get(i);
    }
}
