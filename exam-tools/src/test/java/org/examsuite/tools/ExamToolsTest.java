package org.examsuite.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line ./exam calls: scripts read the token from the last line of stdout. */
class ExamToolsTest {
    @TempDir
    Path dir;

    @Test
    void tokenCommandPrintsTheTokenAloneAndMakesMissingKeys() throws Exception {
        String out = capture("token", "operator", "--keys", dir.toString(), "alice@school");

        String[] lines = out.strip().split("\n");
        assertEquals(1, lines.length, out);
        String[] parts = lines[0].split("\\.");
        assertEquals(3, parts.length);
        String claims = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
        assertTrue(claims.contains("\"sub\":\"alice@school\""), claims);
        assertTrue(dir.resolve("operator.private.pem").toFile().isFile());
    }

    @Test
    void unknownCommandsAndMissingOptionsAreUsageErrors() {
        assertThrows(ExamTools.UsageException.class, () -> ExamTools.run(new String[] {}));
        assertThrows(ExamTools.UsageException.class, () -> ExamTools.run(new String[] {"launch"}));
        assertThrows(ExamTools.UsageException.class, () -> ExamTools.run(new String[] {"keys"}));
        assertThrows(ExamTools.UsageException.class,
                () -> ExamTools.run(new String[] {"token", "candidate", "--keys", dir.toString()}));
        assertThrows(ExamTools.UsageException.class, () -> ExamTools.run(new String[] {"infra"}));
    }

    private static String capture(String... args) throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        try {
            assertEquals(0, ExamTools.run(args));
        } finally {
            System.setOut(original);
        }
        return buffer.toString(StandardCharsets.UTF_8);
    }
}
