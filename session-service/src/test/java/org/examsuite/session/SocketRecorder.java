package org.examsuite.session;

import java.net.http.WebSocket;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

/** Collects what the server sends, and how it closed. */
public final class SocketRecorder implements WebSocket.Listener {
    public final List<String> messages = new CopyOnWriteArrayList<>();
    public volatile Integer closeCode;
    private final StringBuilder partial = new StringBuilder();

    @Override
    public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
            messages.add(partial.toString());
            partial.setLength(0);
        }
        socket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket socket, int statusCode, String reason) {
        closeCode = statusCode;
        return null;
    }

    public boolean received(String fragment) {
        return messages.stream().anyMatch(m -> m.contains(fragment));
    }
}
