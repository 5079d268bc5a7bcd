package org.examsuite.tools.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.Map;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Workspace;
import org.junit.jupiter.api.Test;

class OptionsTest {
    private final Workspace plain = new Workspace(Path.of("."), Map.of());

    @Test
    void aBlankRegistryOrOneWithBlanksIsAUsageError() {
        assertEquals(2, assertThrows(Fail.class, () -> new Images.Options("", false, false)).exitCode());
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
