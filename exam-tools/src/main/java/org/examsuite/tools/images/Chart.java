package org.examsuite.tools.images;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.examsuite.tools.host.Fail;

/**
 * What the chart says about the images: the tag (Chart.yaml's appVersion) and the repositories
 * (services.KEY.image.repository, frontend.image.repository in values.yaml, one-line flow maps),
 * read line by line as chart_tag and chart_repositories' awk did.
 */
final class Chart {
    /** A repository the chart names: KEY is the service's key under services, or "frontend". */
    record Repository(String key, String repository) {
        boolean frontend() {
            return key.equals("frontend");
        }

        /** The last path element: the service (its Maven module) or exam-client. */
        String name() {
            return repository.substring(repository.lastIndexOf('/') + 1);
        }
    }

    private static final Pattern APP_VERSION = Pattern.compile("^appVersion:[^\"]*\"([^\"]*)\".*");
    private static final Pattern TOP = Pattern.compile("^([a-z]\\S*).*");
    private static final Pattern SERVICE_KEY = Pattern.compile("^  ([a-z]+):$");
    private static final Pattern IMAGE = Pattern.compile("image: *\\{ *repository:");
    private static final Pattern REPOSITORY = Pattern.compile(".*repository: *([^ ,}]*).*");

    private final Path dir;

    Chart(Path dir) {
        this.dir = dir;
    }

    String tag() {
        for (String line : lines(dir.resolve("Chart.yaml"))) {
            Matcher m = APP_VERSION.matcher(line);
            if (m.matches()) {
                return m.group(1);
            }
        }
        return "";
    }

    List<Repository> repositories() {
        return repositories(lines(dir.resolve("values.yaml")));
    }

    static List<Repository> repositories(List<String> valuesYaml) {
        List<Repository> found = new ArrayList<>();
        String top = "";
        String key = "";
        for (String line : valuesYaml) {
            Matcher t = TOP.matcher(line);
            if (t.matches()) {
                top = t.group(1).replaceFirst(":", "");
            }
            Matcher k = SERVICE_KEY.matcher(line);
            if (top.equals("services") && k.matches()) {
                key = k.group(1);
            }
            if ((top.equals("services") || top.equals("frontend")) && IMAGE.matcher(line).find()) {
                Matcher r = REPOSITORY.matcher(line);
                if (r.matches()) {
                    found.add(new Repository(top.equals("frontend") ? "frontend" : key, r.group(1)));
                }
            }
        }
        return found;
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new Fail("cannot read " + file + ": " + e.getMessage());
        }
    }
}
