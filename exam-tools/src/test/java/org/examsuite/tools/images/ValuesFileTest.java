package org.examsuite.tools.images;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ValuesFileTest {
    @Test
    void rendersAsTheBashDidWithThePageLast() {
        ValuesFile values = new ValuesFile("2026-12-06T08:00:00Z", "abc123", "/x/.exam/images/values.yaml", "127.0.0.1:5000",
                "1.0.0-SNAPSHOT");
        values.service("session", "examsuite/session-service", "sha256:s1", "sha256:n1");
        values.frontend("examsuite/exam-client", "sha256:p1");
        values.service("answer", "examsuite/answer-service", "sha256:a1", null);

        assertEquals("""
                # Written by ./exam images at 2026-12-06T08:00:00Z (revision abc123): the images it pushed.
                # Render the chart with it: helm template exam-suite k8s/chart/exam-suite -f /x/.exam/images/values.yaml
                image:
                  registry: "127.0.0.1:5000"
                  tag: "1.0.0-SNAPSHOT"
                services:
                  session: {image: {repository: "examsuite/session-service", digest: "sha256:s1", nativeDigest: "sha256:n1"}}
                  answer: {image: {repository: "examsuite/answer-service", digest: "sha256:a1"}}
                frontend: {enabled: true, image: {repository: "examsuite/exam-client", digest: "sha256:p1"}}
                """, values.text());
    }

    @Test
    void theSmokeRunReadsRegistryTagAndNativeImagesBack() {
        ValuesFile values = new ValuesFile("t", "r", "v", "127.0.0.1:5099", "2.0");
        values.service("session", "examsuite/session-service", "sha256:s1", "sha256:n1");
        values.service("answer", "examsuite/answer-service", "sha256:a1", null);
        values.service("grading", "examsuite/grading-saga", "sha256:g1", "sha256:n2");

        ValuesFile.Pushed pushed = ValuesFile.Pushed.read(values.text().lines().toList());

        assertEquals(new ValuesFile.Pushed("127.0.0.1:5099", "2.0",
                List.of("examsuite/session-service", "examsuite/grading-saga")), pushed);
    }
}
