package org.examsuite.tools.images;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON as the bash wrote it: the expected strings are jq's and printf's output for the same input. */
class OciJsonTest {
    static final String CREATED = "2026-12-06T08:00:00Z";
    static final String ID = "sha256:88c86d0701c893d2ce6cd6d0191603a4e2cee5d801154c7c6069ec1d761e1855";

    @Test
    void configIsJqsCompactOutputWithEscapes() {
        Map<String, Object> config = OciJson.object("User", "185", "WorkingDir", "/tmp",
                "Env", List.of("PATH=/opt/java/bin:/usr/bin:/bin"),
                "Labels", OciJson.object("a.b", "17.0.15", "q", "x\"y\u0001\u007fé"));

        assertEquals("{\"architecture\":\"amd64\",\"os\":\"linux\",\"created\":\"2026-12-06T08:00:00Z\",\"config\":"
                + "{\"User\":\"185\",\"WorkingDir\":\"/tmp\",\"Env\":[\"PATH=/opt/java/bin:/usr/bin:/bin\"],"
                + "\"Labels\":{\"a.b\":\"17.0.15\",\"q\":\"x\\\"y\\u0001\\u007fé\"}},\"rootfs\":{\"type\":\"layers\","
                + "\"diff_ids\":[\"" + ID + "\",\"" + ID + "\"]},\"history\":[{\"created\":\"2026-12-06T08:00:00Z\","
                + "\"created_by\":\"./exam images\"},{\"created\":\"2026-12-06T08:00:00Z\",\"created_by\":\"./exam images\"}]}\n",
                OciJson.config(config, List.of(ID, ID), CREATED));
    }

    @Test
    void baseImageConfig() {
        assertEquals("{\"User\":\"185\",\"WorkingDir\":\"/tmp\",\"Env\":[\"PATH=/opt/java/bin:/usr/bin:/bin\","
                + "\"JAVA_HOME=/opt/java\",\"LANG=C.UTF-8\"],\"Labels\":{\"org.opencontainers.image.title\":\"jre17\","
                + "\"org.opencontainers.image.version\":\"17.0.15\",\"org.opencontainers.image.description\":"
                + "\"jlink JRE on a minimal root filesystem (./exam images)\"}}", Json.write(BaseImage.config("17.0.15")));
    }

    @Test
    void pageImageConfig() {
        assertEquals("{\"User\":\"101:101\",\"WorkingDir\":\"/tmp\",\"ExposedPorts\":{\"8080/tcp\":{}},"
                + "\"Env\":[\"PATH=/usr/sbin:/usr/bin:/bin\"],\"Entrypoint\":[\"/usr/sbin/nginx\",\"-e\",\"stderr\",\"-g\","
                + "\"daemon off;\"],\"StopSignal\":\"SIGQUIT\",\"Labels\":{\"org.opencontainers.image.title\":\"exam-client\","
                + "\"org.opencontainers.image.description\":\"The reference exam page, its SDK and the proctor console "
                + "(static files on nginx)\",\"org.opencontainers.image.version\":\"1.0.0-SNAPSHOT\","
                + "\"org.opencontainers.image.revision\":\"abc123\",\"org.opencontainers.image.created\":\"2026-12-06T08:00:00Z\","
                + "\"org.opencontainers.image.vendor\":\"Exam Suite\",\"org.opencontainers.image.licenses\":\"NOASSERTION\"}}",
                Json.write(PageImage.config("1.0.0-SNAPSHOT", "abc123", CREATED)));
    }

    @Test
    void nativeImageConfigFromTheServicesProperties() throws Exception {
        List<String> properties = Files.readAllLines(
                Path.of("../session-service/src/main/resources/application.properties"));

        assertEquals("{\"User\":\"1001\",\"WorkingDir\":\"/tmp\",\"ExposedPorts\":{\"8081/tcp\":{}},\"Env\":[\"LANG=C.UTF-8\"],"
                + "\"Entrypoint\":[\"/app/service\"],\"Cmd\":[\"-Xmx112m\",\"-Xmn16m\",\"-Dvertx.disableURIValidation=true\"],"
                + "\"Labels\":{\"org.opencontainers.image.title\":\"session-service\",\"org.opencontainers.image.description\":"
                + "\"Exams, enrollment, sessions, candidate tokens, server-side time and auto-submit, heartbeats, proctoring. "
                + "Native executable.\",\"org.opencontainers.image.version\":\"1.0.0-SNAPSHOT\",\"org.opencontainers.image.vendor\":"
                + "\"Exam Suite\",\"org.opencontainers.image.licenses\":\"NOASSERTION\",\"org.opencontainers.image.revision\":"
                + "\"abc123\",\"org.opencontainers.image.created\":\"2026-12-06T08:00:00Z\"}}",
                Json.write(NativeImage.config(properties, "-Xmx112m -Xmn16m -Dvertx.disableURIValidation=true",
                        "1.0.0-SNAPSHOT", "abc123", CREATED)));
    }

    @Test
    void nativeImageConfigWithoutLabelsPortOrFlags() {
        Map<String, Object> config = NativeImage.config(List.of(), "", "1", "r", CREATED);

        assertEquals("{\"/tcp\":{}}", Json.write(config.get("ExposedPorts")));
        assertEquals("[]", Json.write(config.get("Cmd")));
        assertEquals(" Native executable.", ((Map<?, ?>) config.get("Labels")).get("org.opencontainers.image.description"));
    }

    @Test
    void manifestAsPrintfWroteIt() {
        String manifest = OciJson.manifest(new OciJson.Blob("sha256:c0", 812),
                List.of(new OciJson.Blob("sha256:a1", 1234), new OciJson.Blob("sha256:b2", 56)));

        assertEquals(String.format("{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\","
                + "\"config\":{\"mediaType\":\"application/vnd.oci.image.config.v1+json\",\"digest\":\"%s\",\"size\":%s},"
                + "\"layers\":[%s]}", "sha256:c0", 812,
                "{\"mediaType\":\"application/vnd.oci.image.layer.v1.tar+gzip\",\"digest\":\"sha256:a1\",\"size\":1234},"
                        + "{\"mediaType\":\"application/vnd.oci.image.layer.v1.tar+gzip\",\"digest\":\"sha256:b2\",\"size\":56}"),
                manifest);
    }

    @Test
    void readsBackWhatItWrites() {
        String text = "{\"a\":[1,\"x\\\"\\u0001é\",true,null,{}],\"b\":{\"c\":-2.5}}";

        Object parsed = Json.parse(text);

        assertEquals(text.replace("-2.5", "-2.5"), Json.write(parsed));
        assertEquals(-2.5, Json.at(parsed, "b", "c"));
    }
}
