package org.examsuite.tools.images;

import java.util.ArrayList;
import java.util.List;

/**
 * .exam/images/values.yaml: what ./exam images pushed (registry, tag, each image's digest), the
 * values file the chart is rendered with (helm -f). Lines are added as the images are pushed.
 */
final class ValuesFile {
    private final List<String> lines = new ArrayList<>();
    private String frontend;

    ValuesFile(String created, String revision, String valuesPath, String registry, String tag) {
        lines.add("# Written by ./exam images at " + created + " (revision " + revision + "): the images it pushed.");
        lines.add("# Render the chart with it: helm template exam-suite k8s/chart/exam-suite -f " + valuesPath);
        lines.add("image:");
        lines.add("  registry: \"" + registry + "\"");
        lines.add("  tag: \"" + tag + "\"");
        lines.add("services:");
    }

    /** A service under services.KEY; NATIVE_DIGEST null when no native image was pushed. */
    void service(String key, String repository, String digest, String nativeDigest) {
        lines.add("  " + key + ": {image: {repository: \"" + repository + "\", digest: \"" + digest + "\""
                + (nativeDigest == null || nativeDigest.isEmpty() ? "" : ", nativeDigest: \"" + nativeDigest + "\"") + "}}");
    }

    /** The page: frontend, enabled, after the services whatever the chart's order. */
    void frontend(String repository, String digest) {
        frontend = "frontend: {enabled: true, image: {repository: \"" + repository + "\", digest: \"" + digest + "\"}}";
    }

    String text() {
        StringBuilder out = new StringBuilder();
        lines.forEach(line -> out.append(line).append('\n'));
        if (frontend != null) {
            out.append(frontend).append('\n');
        }
        return out.toString();
    }

    /** What the smoke run reads back: image.registry, image.tag, and the services with a native image. */
    record Pushed(String registry, String tag, List<String> nativeRepositories) {
        static Pushed read(List<String> values) {
            String registry = "";
            String tag = "";
            List<String> natives = new ArrayList<>();
            java.util.regex.Pattern nativeLine = java.util.regex.Pattern
                    .compile("^  [a-z]*: \\{image: \\{repository: \"([^\"]*)\".*nativeDigest.*");
            for (String line : values) {
                if (line.startsWith("  registry:") && registry.isEmpty()) {
                    registry = quoted(line);
                } else if (line.startsWith("  tag:") && tag.isEmpty()) {
                    tag = quoted(line);
                }
                java.util.regex.Matcher m = nativeLine.matcher(line);
                if (m.matches()) {
                    natives.add(m.group(1));
                }
            }
            return new Pushed(registry, tag, natives);
        }

        private static String quoted(String line) {
            String[] parts = line.split("\"", -1);
            return parts.length > 1 ? parts[1] : "";
        }
    }
}
