package org.examsuite.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * `helm test`'s script run against the running suite (./exam test live): the same shell lines the Pod runs, its
 * Service addresses turned into the suite's loopback ones — so a probe path, a route or an auth answer the chart
 * expects but the services do not give fails here, without a cluster.
 */
@Tag("live")
class LiveHelmTestScriptTest {

    @Test
    void theHelmTestScriptPassesAgainstTheRunningSuite() throws Exception {
        LiveSuite.requireReady();
        String script = HelmTestPodTest.script(HelmTestPodTest.pod(Chart.Values.defaults()));
        for (String service : LiveSuite.SERVICES) {
            script = script.replace("http://" + Chart.fullName(service) + ":", "http://127.0.0.1:");
        }
        Process sh = new ProcessBuilder("/bin/sh", "-ec", script).redirectErrorStream(true).start();
        String output = new String(sh.getInputStream().readAllBytes());
        assertTrue(sh.waitFor(60, TimeUnit.SECONDS), "the script ended");

        assertEquals(0, sh.exitValue(), output);
        assertEquals(8, output.lines().filter(line -> line.startsWith("ok   ")).count(), output);
    }
}
