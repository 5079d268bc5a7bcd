package org.examsuite.answer.draft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The value-size limit counts UTF-8 bytes exactly as the encoder would, without encoding. */
class Utf8LengthTest {
    @Test
    void countsAsTheEncoderDoes() {
        for (String text : List.of("", "plain", "\"quoted \\\" text\"", "café", "日本語", "emoji 😀 x", "lone \ud800 high",
                "lone \udc00 low", "end \ud83d", "ü".repeat(1000))) {
            assertEquals(text.getBytes(StandardCharsets.UTF_8).length, AutosaveRequest.utf8Length(text, Integer.MAX_VALUE),
                    text);
        }
    }

    @Test
    void stopsOncePastTheLimit() {
        String text = "日".repeat(10_000);
        long counted = AutosaveRequest.utf8Length(text, 100);
        assertTrue(counted > 100 && counted <= 103, "stopped at " + counted);
    }
}
