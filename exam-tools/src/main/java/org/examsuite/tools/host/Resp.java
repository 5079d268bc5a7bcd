package org.examsuite.tools.host;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One command to a Redis over RESP, no client library (the embedded fallback and the drill's
 * cluster checks use it too). A simple, integer or bulk reply comes back as its text, an array
 * as its elements' texts on lines; an error reply throws {@link ErrorReply}.
 */
public final class Resp {
    private Resp() {
    }

    /** An error reply (-ERR ..., -NOAUTH ...): something answered, and refused. */
    public static final class ErrorReply extends IOException {
        public ErrorReply(String message) {
            super(message);
        }
    }

    public static String call(String host, int port, String... args) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 3000);
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.UTF_8));
            for (String arg : args) {
                byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
                request.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.UTF_8));
                request.writeBytes(bytes);
                request.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
            }
            out.write(request.toByteArray());
            out.flush();
            return read(new BufferedInputStream(socket.getInputStream()));
        }
    }

    static String read(InputStream in) throws IOException {
        String line = line(in);
        if (line.isEmpty()) {
            throw new IOException("empty reply");
        }
        String rest = line.substring(1);
        switch (line.charAt(0)) {
            case '+', ':' -> {
                return rest;
            }
            case '-' -> throw new ErrorReply(rest);
            case '$' -> {
                int length = Integer.parseInt(rest);
                if (length < 0) {
                    return "";
                }
                byte[] body = in.readNBytes(length + 2);
                return new String(body, 0, Math.min(length, body.length), StandardCharsets.UTF_8).replace("\r", "");
            }
            case '*' -> {
                int count = Integer.parseInt(rest);
                StringBuilder all = new StringBuilder();
                for (int i = 0; i < count; i++) {
                    all.append(i == 0 ? "" : "\n").append(read(in));
                }
                return all.toString();
            }
            default -> {
                return line;
            }
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int c; (c = in.read()) != '\n';) {
            if (c < 0) {
                throw new IOException("connection closed");
            }
            if (c != '\r') {
                bytes.write(c);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** The value of FIELD in a "field:value" reply (INFO, CLUSTER INFO); "" when absent. */
    public static String field(String reply, String field) {
        for (String line : reply.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).equals(field)) {
                return line.substring(colon + 1).strip();
            }
        }
        return "";
    }
}
