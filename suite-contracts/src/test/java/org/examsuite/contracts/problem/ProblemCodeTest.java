package org.examsuite.contracts.problem;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProblemCodeTest {

    /** A code a client may receive is one a reader of the API reference can look up. */
    @Test
    void everyCodeIsInTheApiReference() throws Exception {
        String api = Files.readString(Path.of("..", "docs", "api.md"));
        List<String> missing = Arrays.stream(ProblemCode.values()).map(Enum::name)
                .filter(code -> !api.contains("`" + code + "`")).toList();
        assertEquals(List.of(), missing);
    }
}
