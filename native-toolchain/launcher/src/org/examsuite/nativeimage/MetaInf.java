package org.examsuite.nativeimage;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * What jars say about their own native build under {@code META-INF/native-image/}: the
 * {@code Args} and {@code JavaArgs} of each {@code native-image.properties} (read by the driver,
 * not the builder), and the configuration files, which the builder reads as class-path resources
 * once the driver names them. {@code --exclude-config} removes both kinds.
 */
final class MetaInf {

    private static final String ROOT = "META-INF/native-image/";

    /** Configuration file name → the builder option that reads it as a resource. */
    private static final Map<String, String> CONFIG_FILES = Map.of(
            "reflect-config.json", "ReflectionConfigurationResources",
            "resource-config.json", "ResourceConfigurationResources",
            "proxy-config.json", "DynamicProxyConfigurationResources",
            "serialization-config.json", "SerializationConfigurationResources",
            "jni-config.json", "JNIConfigurationResources",
            "reachability-metadata.json", "ReachabilityMetadataResources",
            "predefined-classes-config.json", "PredefinedClassesConfigurationResources");

    private MetaInf() {
    }

    static void apply(Request request, ApiOptions api) throws NativeImage.UsageException {
        for (Path entry : List.copyOf(request.classpath)) {
            for (Resource resource : resources(entry)) {
                String name = resource.path().substring(resource.path().lastIndexOf('/') + 1);
                if (request.excludes.stream().anyMatch(x -> x.matches(entry, "/" + resource.path()))) {
                    continue;
                }
                if (name.equals("native-image.properties")) {
                    properties(request, api, resource, origin(entry, resource.path()));
                } else if (CONFIG_FILES.containsKey(name)) {
                    // The builder reads every class-path resource of that name: name each path once.
                    String arg = "-H:" + CONFIG_FILES.get(name) + "=" + resource.path();
                    if (!request.builderArgs.contains(arg)) {
                        request.builderArgs.add(arg);
                    }
                }
            }
        }
    }

    /** Where an option came from, as the builder's OptionOrigin reads it: options of a jar apply to that jar's classes. */
    static String origin(Path entry, String resourcePath) {
        return Files.isDirectory(entry) ? entry.resolve(resourcePath).toUri().toString()
                : "jar:" + entry.toUri() + "!/" + resourcePath;
    }

    /** {@code -H:Name=value} → {@code -H:Name@origin=value}; {@code -H:+Name} → {@code -H:+Name@origin}. */
    static String withOrigin(String arg, String origin) {
        if (!arg.startsWith("-H:") && !arg.startsWith("-R:")) {
            return arg;
        }
        int eq = arg.indexOf('=');
        String head = eq < 0 ? arg : arg.substring(0, eq);
        if (head.contains("@")) {
            return arg;
        }
        return head + "@" + origin + (eq < 0 ? "" : arg.substring(eq));
    }

    private static void properties(Request request, ApiOptions api, Resource resource, String origin) throws NativeImage.UsageException {
        Properties p = new Properties();
        try {
            p.load(new StringReader(resource.text()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String dir = resource.path().substring(0, resource.path().lastIndexOf('/'));
        for (String arg : ArgFiles.split(p.getProperty("JavaArgs", "").replace("${.}", dir))) {
            request.builderJvmArgs.add(arg);
        }
        List<String> args = ArgFiles.split(p.getProperty("Args", "").replace("${.}", dir));
        for (int i = 0; i < args.size(); ) {
            int before = request.builderArgs.size();
            i += request.option(args, i, api);
            for (int k = before; k < request.builderArgs.size(); k++) {
                request.builderArgs.set(k, withOrigin(request.builderArgs.get(k), origin));
            }
        }
    }

    record Resource(String path, String text) {
    }

    private static List<Resource> resources(Path entry) {
        List<Resource> out = new ArrayList<>();
        try {
            if (Files.isDirectory(entry)) {
                Path root = entry.resolve(ROOT);
                if (Files.isDirectory(root)) {
                    try (Stream<Path> files = Files.walk(root)) {
                        for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                            out.add(new Resource(entry.relativize(f).toString().replace('\\', '/'), wanted(f.getFileName().toString()) ? Files.readString(f) : ""));
                        }
                    }
                }
            } else if (Files.isRegularFile(entry) && entry.toString().endsWith(".jar")) {
                try (JarFile jar = new JarFile(entry.toFile())) {
                    Enumeration<JarEntry> entries = jar.entries();
                    while (entries.hasMoreElements()) {
                        JarEntry e = entries.nextElement();
                        String name = e.getName();
                        if (!e.isDirectory() && name.startsWith(ROOT)) {
                            String file = name.substring(name.lastIndexOf('/') + 1);
                            String text = "";
                            if (file.equals("native-image.properties")) {
                                try (InputStream in = jar.getInputStream(e)) {
                                    text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
                                }
                            }
                            out.add(new Resource(name, text));
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + entry, e);
        }
        return out;
    }

    private static boolean wanted(String fileName) {
        return fileName.equals("native-image.properties");
    }
}
