package org.examsuite.common.problem;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/** A configured list of routes, each {@code "METHOD /path"} exactly or {@code "METHOD /prefix/*"} for a subtree. */
public final class RouteList {
    private final Set<String> routes;

    public RouteList(Optional<List<String>> configured) {
        this.routes = Set.copyOf(configured.orElse(List.of()).stream().map(String::trim).toList());
    }

    public boolean contains(String method, String path) {
        if (path == null) {
            return false;
        }
        String route = method + " " + path;
        if (routes.contains(route)) {
            return true;
        }
        for (String listed : routes) {
            if (listed.endsWith("/*") && route.startsWith(listed.substring(0, listed.length() - 1))) {
                return true;
            }
        }
        return false;
    }
}
