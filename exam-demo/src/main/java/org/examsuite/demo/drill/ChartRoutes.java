package org.examsuite.demo.drill;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The public route prefixes of each service, read from the Helm chart's catalogue
 * ({@code k8s/chart/exam-suite/templates/_helpers.tpl}, {@code define "exam-suite.catalogue"}): the ingress the drill
 * renders routes exactly what the chart's Ingress routes.
 */
public final class ChartRoutes {
    public static final String HELPERS = "k8s/chart/exam-suite/templates/_helpers.tpl";
    private static final Pattern KEY = Pattern.compile("^([a-z]+):$");
    private static final Pattern ROUTES = Pattern.compile("^  routes:.*\\[(.*)\\].*");

    private ChartRoutes() {
    }

    public static Map<String, List<String>> read(Path examHome) throws IOException {
        return parse(Files.readString(examHome.resolve(HELPERS)));
    }

    /** Service key (session, answer, ...) → its routes, from the catalogue's "routes: [...]" lines. */
    public static Map<String, List<String>> parse(String helpers) {
        Map<String, List<String>> routes = new LinkedHashMap<>();
        boolean inCatalogue = false;
        String key = null;
        for (String line : helpers.split("\n", -1)) {
            if (!inCatalogue) {
                inCatalogue = line.contains("define \"exam-suite.catalogue\"");
                continue;
            }
            Matcher k = KEY.matcher(line);
            if (k.matches()) {
                key = k.group(1);
            }
            Matcher r = ROUTES.matcher(line);
            if (r.matches() && key != null) {
                List<String> list = new ArrayList<>();
                for (String route : r.group(1).split("[,\\s]+")) {
                    if (!route.isEmpty()) {
                        list.add(route);
                    }
                }
                routes.put(key, list);
            }
            if (line.contains("end -")) {
                break;
            }
        }
        return routes;
    }
}
