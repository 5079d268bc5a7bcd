package org.examsuite.tools.infra;

/**
 * The host and port of a Redis URL (redis://[user:pass@]host[:port][/db]). A Redis Cluster's
 * EXAM_REDIS_URL is a comma-separated list of seeds: {@link #first} reads the first.
 */
public record RedisUrl(String host, int port, boolean tls) {

    public static RedisUrl first(String urls) {
        return parse(urls.split(",", -1)[0]);
    }

    public static RedisUrl parse(String url) {
        String rest = url.strip();
        boolean tls = rest.startsWith("rediss://");
        int scheme = rest.indexOf("://");
        if (scheme >= 0) {
            rest = rest.substring(scheme + 3);
        }
        rest = rest.substring(rest.lastIndexOf('@') + 1);
        rest = cut(cut(rest, '/'), '?');
        String host;
        String port;
        if (rest.startsWith("[")) { // [::1]:6379
            int close = rest.indexOf(']');
            host = rest.substring(1, close < 0 ? rest.length() : close);
            port = close < 0 ? "" : rest.substring(close + 1);
        } else {
            int colon = rest.indexOf(':');
            host = colon < 0 ? rest : rest.substring(0, colon);
            port = colon < 0 ? "" : rest.substring(colon);
        }
        port = port.startsWith(":") ? port.substring(1) : port;
        int number;
        try {
            number = port.isEmpty() ? 6379 : Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw new org.examsuite.tools.host.Fail("not a Redis URL: '" + url + "' (redis://host:port)");
        }
        return new RedisUrl(host.isEmpty() ? "127.0.0.1" : host, number, tls);
    }

    private static String cut(String s, char at) {
        int i = s.indexOf(at);
        return i < 0 ? s : s.substring(0, i);
    }
}
