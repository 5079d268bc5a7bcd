package org.examsuite.demo.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, one request per connection. The JDK's HttpClient refuses what the fuzzer must
 * send (invalid URIs, raw bytes in the request line, restricted or duplicate headers, odd methods), so requests
 * are written byte for byte as built.
 */
public final class RawHttp {
    /** An answer; status -1 when the connection failed or timed out before a status line. */
    public record Response(int status, Map<String, List<String>> headers, byte[] body, String failure) {
        public String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null || values.isEmpty() ? null : values.get(0);
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** A request as bytes: request line, headers and body are whatever the caller put there. */
    public record Request(String label, int port, byte[] bytes, boolean head) {
    }

    private final String host;
    private final int timeoutMs;

    public RawHttp(String host, int timeoutMs) {
        this.host = host;
        this.timeoutMs = timeoutMs;
    }

    /** Builds a request from parts; {@code headers} may repeat names. Adds Host, Connection and Content-Length unless given. */
    public static byte[] build(String method, String target, List<String[]> headers, byte[] body) {
        StringBuilder head = new StringBuilder();
        head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
        boolean host = false, connection = false, length = false;
        for (String[] h : headers) {
            String name = h[0].toLowerCase(Locale.ROOT);
            host |= name.equals("host");
            connection |= name.equals("connection");
            length |= name.equals("content-length") || name.equals("transfer-encoding");
            head.append(h[0]).append(": ").append(h[1]).append("\r\n");
        }
        if (!host) {
            head.append("Host: 127.0.0.1\r\n");
        }
        if (!connection) {
            head.append("Connection: close\r\n");
        }
        if (body != null && !length) {
            head.append("Content-Length: ").append(body.length).append("\r\n");
        }
        head.append("\r\n");
        byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        if (body == null) {
            return headBytes;
        }
        byte[] all = new byte[headBytes.length + body.length];
        System.arraycopy(headBytes, 0, all, 0, headBytes.length);
        System.arraycopy(body, 0, all, headBytes.length, body.length);
        return all;
    }

    public Response send(Request request) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, request.port()), timeoutMs);
            socket.setSoTimeout(timeoutMs);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request.bytes());
                out.flush();
            } catch (IOException e) {
                // The server may answer (413, 431) and close before it read everything we wrote: read what it said.
            }
            return read(socket.getInputStream(), request.head());
        } catch (IOException e) {
            return new Response(-1, Map.of(), new byte[0], e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    static Response read(InputStream in, boolean head) throws IOException {
        String statusLine = line(in);
        if (statusLine == null) {
            return new Response(-1, Map.of(), new byte[0], "connection closed without an answer");
        }
        String[] parts = statusLine.split(" ", 3);
        int status;
        try {
            status = Integer.parseInt(parts[1]);
        } catch (RuntimeException e) {
            return new Response(-1, Map.of(), new byte[0], "unreadable status line: " + statusLine);
        }
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
            int colon = header.indexOf(':');
            if (colon > 0) {
                headers.computeIfAbsent(header.substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                        .add(header.substring(colon + 1).trim());
            }
        }
        if (status == 100) {
            return read(in, head);
        }
        if (head || status == 204 || status == 304) {
            return new Response(status, headers, new byte[0], null);
        }
        List<String> length = headers.get("content-length");
        List<String> encoding = headers.get("transfer-encoding");
        byte[] body;
        if (encoding != null && encoding.get(0).toLowerCase(Locale.ROOT).contains("chunked")) {
            ByteArrayOutputStream chunks = new ByteArrayOutputStream();
            while (true) {
                String size = line(in);
                if (size == null) {
                    break;
                }
                int n = Integer.parseInt(size.split(";")[0].trim(), 16);
                if (n == 0) {
                    break;
                }
                chunks.write(in.readNBytes(n));
                line(in);
            }
            body = chunks.toByteArray();
        } else if (length != null) {
            body = in.readNBytes(Integer.parseInt(length.get(0)));
        } else {
            body = in.readAllBytes();
        }
        return new Response(status, headers, body, null);
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1) {
            if (b == '\n') {
                break;
            }
            if (b != '\r') {
                buffer.write(b);
            }
        }
        if (b == -1 && buffer.size() == 0) {
            return null;
        }
        return buffer.toString(StandardCharsets.ISO_8859_1);
    }
}
