package org.examsuite.tools.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Workspace;
import org.junit.jupiter.api.Test;

class OptionsTest {
    private final Workspace plain = new Workspace(Path.of("."), Map.of());

    @Test
    void theBashsOptions() {
        assertEquals(new Images.Options("127.0.0.1:5001", true, true),
                Images.Options.parse(List.of("--registry", "127.0.0.1:5001", "--push", "--no-verify")));
        assertEquals(Images.Options.defaults(), Images.Options.parse(List.of()));
    }

    @Test
    void unknownOptionsAndAMissingRegistryAreUsageErrors() {
        Fail unknown = assertThrows(Fail.class, () -> Images.Options.parse(List.of("--tag", "x")));
        assertEquals(2, unknown.exitCode());
        assertEquals("images: unknown option --tag (--registry HOST:PORT, --push, --no-verify)", unknown.getMessage());
        assertEquals(2, assertThrows(Fail.class, () -> Images.Options.parse(List.of("--registry"))).exitCode());
        assertEquals(2, assertThrows(Fail.class, () -> Images.Options.parse(List.of("--registry", ""))).exitCode());
        assertEquals(2, assertThrows(Fail.class, () -> new Images.Options("a b:1", false, false)).exitCode());
    }

    @Test
    void theRegistryIsTheOptionThenExamImageRegistryThenTheDefault() {
        Workspace configured = new Workspace(Path.of("."), Map.of("EXAM_IMAGE_REGISTRY", "127.0.0.1:5002"));

        assertEquals("127.0.0.1:5000", Images.Options.defaults().registryOr(plain));
        assertEquals("127.0.0.1:5002", Images.Options.defaults().registryOr(configured));
        assertEquals("127.0.0.1:5003", new Images.Options("127.0.0.1:5003", false, false).registryOr(configured));
    }
}
