package org.examsuite.tools.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChartTest {
    private final Chart chart = new Chart(Path.of("../k8s/chart/exam-suite"));

    @Test
    void repositoriesOfTheChartInItsOrder() {
        assertEquals(List.of(new Chart.Repository("session", "examsuite/session-service"),
                new Chart.Repository("answer", "examsuite/answer-service"),
                new Chart.Repository("submission", "examsuite/submission-service"),
                new Chart.Repository("grading", "examsuite/grading-saga"),
                new Chart.Repository("frontend", "examsuite/exam-client")), chart.repositories());
    }

    @Test
    void theTagIsTheAppVersion() {
        assertTrue(chart.tag().matches("\\d+\\.\\d+\\.\\d+.*"), chart.tag());
    }

    @Test
    void readsOneLineFlowMapsOnlyUnderServicesAndFrontend() {
        List<String> yaml = List.of("image:", "  repository: nope", "services:", "  one:",
                "    image: {repository: a/one, pullPolicy: Always}", "  two:", "    image: { repository: a/two}",
                "other:", "  image: {repository: a/other}", "frontend:", "  image: {repository: a/page}");

        assertEquals(List.of(new Chart.Repository("one", "a/one"), new Chart.Repository("two", "a/two"),
                new Chart.Repository("frontend", "a/page")), Chart.repositories(yaml));
        assertEquals("page", Chart.repositories(yaml).get(2).name());
    }
}
