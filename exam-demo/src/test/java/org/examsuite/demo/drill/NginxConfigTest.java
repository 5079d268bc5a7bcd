package org.examsuite.demo.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.examsuite.demo.drill.Topology.Service;
import org.junit.jupiter.api.Test;

class NginxConfigTest {
    private static String resource(String name) throws IOException {
        try (InputStream in = NginxConfigTest.class.getResourceAsStream("/drill/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static NginxConfig config() throws IOException {
        return new NginxConfig(Path.of("/X/nginx"), Path.of("/X/logs"), ChartRoutes.parse(resource("catalogue.tpl")));
    }

    @Test
    void theChartsRoutesPerService() throws IOException {
        Map<String, List<String>> routes = ChartRoutes.parse(resource("catalogue.tpl"));
        assertEquals(List.of("session", "answer", "submission", "grading"), List.copyOf(routes.keySet()));
        assertEquals(List.of("/api/v1/exams", "/api/v1/sessions", "/api/v1/audit"), routes.get("session"));
        assertEquals(List.of("/api/v1/results", "/api/v1/sagas", "/api/v1/archive"), routes.get("grading"));
    }

    /** The file is render_nginx's output for the same chart (the bash drill/run.sh before issue 37), its header aside. */
    @Test
    void rendersWhatRunShRendered() throws IOException {
        assertEquals(resource("nginx-answer-b-down.conf"), config().render(Set.of(Service.ANSWER.b())));
    }

    @Test
    void aReplicaOutOfTheEndpointsIsDown() throws IOException {
        String all = config().render(Set.of());
        assertFalse(all.contains(" down;"));
        String two = config().render(Set.of(Service.SESSION.a(), Service.GRADING.b()));
        assertTrue(two.contains("server 127.0.0.1:28081 max_fails=0 down;"));
        assertTrue(two.contains("server 127.0.0.1:28094 max_fails=0 down;"));
        assertTrue(two.contains("server 127.0.0.1:28091 max_fails=0;"));
    }

    @Test
    void theIngressRefusesTraversalsAndRoutesOnlyPrefixes() throws IOException {
        String conf = config().render(Set.of());
        assertTrue(conf.contains("if ($request_uri ~* \"(%2e|%2f|%5c|/\\.\\.?(/|\\?|$))\") { return 400; }"));
        assertTrue(conf.contains("    location = /api/v1/answers { proxy_pass http://answer; }\n"));
        assertTrue(conf.contains("    location /api/v1/answers/ { proxy_pass http://answer; }\n"));
        assertTrue(conf.contains("    location / { return 404; }\n"));
        assertFalse(conf.contains("location /internal") || conf.contains("location = /internal")
                || conf.contains("location /q") || conf.contains("location = /q"));
    }

    @Test
    void summarisesAReplicasLastError() {
        String line = "{\"timestamp\":\"x\",\"level\":\"ERROR\",\"message\":\"Failed to start application\",\"exception\":"
                + "{\"causedBy\":{\"exception\":{\"refId\":2,\"exceptionType\":\"java.net.ConnectException\",\"message\":"
                + "\"Connection refused\\nat x\"}}}}";
        assertEquals("Failed to start application: java.net.ConnectException: Connection refused", LastError.summarise(line));
        assertEquals("plain text", LastError.summarise("plain\ttext"));
    }
}
