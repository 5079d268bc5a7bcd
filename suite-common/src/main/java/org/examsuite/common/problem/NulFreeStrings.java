package org.examsuite.common.problem;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.deser.std.StringDeserializer;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;
import java.io.IOException;

/**
 * A JSON string field of a request body may not hold U+0000: PostgreSQL text cannot store it, so
 * it failed deep inside as a 500 (./exam fuzz, docs/fuzzing.md). Refused while reading instead,
 * as 400 INVALID_FIELD naming the field. Answer values are JSON trees, not string fields: an
 * essay keeps its characters as sent.
 */
@Singleton
public class NulFreeStrings implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.registerModule(new SimpleModule("exam-nul-free-strings").addDeserializer(String.class, new Deserializer()));
    }

    static final class Deserializer extends StdScalarDeserializer<String> {
        Deserializer() {
            super(String.class);
        }

        @Override
        public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String value = StringDeserializer.instance.deserialize(p, ctxt);
            if (value != null && value.indexOf('\u0000') >= 0) {
                throw InvalidFormatException.from(p, "A string may not contain U+0000.", value, String.class);
            }
            return value;
        }
    }
}
