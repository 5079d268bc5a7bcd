package org.examsuite.tools.images;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The image config (oci_config) and the manifest (oci_push_image), byte for byte as the bash wrote them. */
final class OciJson {
    static final String LAYER_TYPE = "application/vnd.oci.image.layer.v1.tar+gzip";
    static final String CONFIG_TYPE = "application/vnd.oci.image.config.v1+json";
    static final String MANIFEST_TYPE = "application/vnd.oci.image.manifest.v1+json";

    private OciJson() {
    }

    /**
     * An image config (linux/amd64) whose rootfs lists the layers' uncompressed digests
     * (DIFF_IDS, "sha256:..."); CONFIG is its "config" object (User, Env, ...).
     */
    static String config(Map<String, Object> config, List<String> diffIds, String created) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("architecture", "amd64");
        root.put("os", "linux");
        root.put("created", created);
        root.put("config", config);
        Map<String, Object> rootfs = new LinkedHashMap<>();
        rootfs.put("type", "layers");
        rootfs.put("diff_ids", diffIds);
        root.put("rootfs", rootfs);
        List<Object> history = new ArrayList<>();
        for (int i = 0; i < diffIds.size(); i++) {
            Map<String, Object> step = new LinkedHashMap<>();
            step.put("created", created);
            step.put("created_by", "./exam images");
            history.add(step);
        }
        root.put("history", history);
        return Json.write(root) + "\n"; // jq ends its output with a newline
    }

    /** A layer or config reference: its digest ("sha256:...") and size. */
    record Blob(String digest, long size) {
        static Blob of(Path file) {
            return new Blob("sha256:" + Layers.sha256(file), Layers.size(file));
        }
    }

    /** The OCI manifest (no trailing newline: printf wrote it). */
    static String manifest(Blob config, List<Blob> layers) {
        StringBuilder list = new StringBuilder();
        for (Blob layer : layers) {
            if (list.length() > 0) {
                list.append(',');
            }
            list.append("{\"mediaType\":\"").append(LAYER_TYPE).append("\",\"digest\":\"").append(layer.digest())
                    .append("\",\"size\":").append(layer.size()).append('}');
        }
        return "{\"schemaVersion\":2,\"mediaType\":\"" + MANIFEST_TYPE + "\",\"config\":{\"mediaType\":\"" + CONFIG_TYPE
                + "\",\"digest\":\"" + config.digest() + "\",\"size\":" + config.size() + "},\"layers\":[" + list + "]}";
    }

    /** An ordered JSON object from KEY, VALUE pairs. */
    static Map<String, Object> object(Object... pairs) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], pairs[i + 1]);
        }
        return map;
    }
}
