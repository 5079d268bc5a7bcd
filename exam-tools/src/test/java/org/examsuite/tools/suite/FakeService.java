package org.examsuite.tools.suite;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;

/** A stand-in for a service's quarkus-run.jar: ready on EXAM_HTTP_PORT until SIGTERM. */
public final class FakeService {
    private FakeService() {
    }

    public static void main(String[] args) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(System.getenv("EXAM_HTTP_PORT"))), 0);
        server.createContext("/q/health/ready", exchange -> {
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
        Thread.currentThread().join();
    }
}
