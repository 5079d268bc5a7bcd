package org.examsuite.answer.draft;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** {@code exam.answer.limits.*} and {@code exam.answer.autosave.*}: what one autosave may carry, and its fast route. */
@ConfigMapping(prefix = "exam.answer")
public interface DraftConfig {
    Limits limits();

    Autosave autosave();

    interface Limits {
        /** One answer's value, as JSON. */
        int maxValueBytes();

        /** One request's body. */
        long maxRequestBytes();
    }

    interface Autosave {
        /** The Vert.x route that answers autosaves before JAX-RS (AutosaveRoute); off: REST only. */
        @WithDefault("true")
        boolean fastPath();
    }
}
