package org.examsuite.demo.fuzz;

import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** Oracle violations, grouped by kind and signature, each with a count and its first request and answer. */
final class Findings {
    private static final class Group {
        final String kind;
        final String signature;
        int count;
        String request;
        String response;

        Group(String kind, String signature) {
            this.kind = kind;
            this.signature = signature;
        }
    }

    private final Map<String, Group> groups = new LinkedHashMap<>();
    private int total;

    synchronized void add(String kind, String signature, byte[] request, RawHttp.Response response) {
        add(kind, signature, signature, request, response);
    }

    /** {@code group}: what makes two violations the same finding (kind, status, mutation family), not the random parts. */
    synchronized void add(String kind, String grouping, String signature, byte[] request, RawHttp.Response response) {
        String key = kind + "|" + grouping.replaceAll("[0-9a-f]{8}-[0-9a-f-]{27}", "<id>").replaceAll("\\d{3,}", "<n>");
        Group group = groups.computeIfAbsent(key, k -> new Group(kind, signature));
        group.count++;
        total++;
        if (group.request == null && request != null) {
            group.request = Fuzz.abbreviate(new String(request, 0, Math.min(request.length, 600), StandardCharsets.ISO_8859_1), 400);
        }
        if (group.response == null && response != null) {
            group.response = response.status() + " " + response.headers() + " " + Fuzz.abbreviate(response.text(), 300);
        }
    }

    synchronized boolean isEmpty() {
        return total == 0;
    }

    synchronized int total() {
        return total;
    }

    synchronized void print(PrintStream out) {
        out.println("  findings: " + total + (total == 0 ? "" : " in " + groups.size() + " groups"));
        for (Group g : groups.values()) {
            out.printf("  - [%s] x%d %s%n", g.kind, g.count, g.signature);
            if (g.request != null) {
                out.println("      request:  " + g.request);
            }
            if (g.response != null) {
                out.println("      response: " + g.response);
            }
        }
    }

    synchronized ArrayNode json() {
        ArrayNode list = Fuzz.NODES.arrayNode();
        for (Group g : groups.values()) {
            list.addObject().put("kind", g.kind).put("count", g.count).put("signature", g.signature).put("request", g.request)
                    .put("response", g.response);
        }
        return list;
    }
}
