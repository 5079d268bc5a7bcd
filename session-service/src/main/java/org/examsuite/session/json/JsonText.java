package org.examsuite.session.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Our own values (maps, registered records) always serialise; a failure is a bug, not bad input. */
public final class JsonText {
    private JsonText() {
    }

    public static String write(ObjectMapper json, Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("could not write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }
}
