package org.examsuite.tools.images;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Say;

/**
 * A registry's HTTP API (plain http, as the loopback registry and jib's insecure push speak it):
 * blobs uploaded once (a HEAD says whether the registry has one), manifests put by tag, and read
 * back for the smoke run. A status of 400 or more is a failure, as curl -f took it.
 */
final class Registry {
    static final String ACCEPT = "application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json";

    private final String address;
    private final HttpClient http;

    /** ADDRESS: HOST:PORT. */
    Registry(String address) {
        this.address = address;
        // HTTP/1.1: without it the client asks a plain-http registry for an h2c upgrade
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(3)).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    String address() {
        return address;
    }

    private URI uri(String path) {
        return URI.create("http://" + address + path);
    }

    /** registry_answers: GET /v2/ within 3 s, a status below 400. */
    boolean answers() {
        try {
            HttpRequest request = HttpRequest.newBuilder(uri("/v2/")).timeout(Duration.ofSeconds(3)).GET().build();
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() < 400;
        } catch (IOException | IllegalArgumentException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** oci_push_blob: FILE uploaded to REPO unless the registry has it; its digest. */
    String pushBlob(String repo, Path file) {
        String digest = "sha256:" + Layers.sha256(file);
        if (status(HttpRequest.newBuilder(uri("/v2/" + repo + "/blobs/" + digest))
                .method("HEAD", HttpRequest.BodyPublishers.noBody())) < 400) {
            return digest;
        }
        HttpResponse<Void> started = send(HttpRequest.newBuilder(uri("/v2/" + repo + "/blobs/uploads/"))
                .POST(HttpRequest.BodyPublishers.noBody()), "upload of " + file + " to " + address + "/" + repo + " failed");
        Optional<String> location = started.headers().firstValue("Location");
        if (location.isEmpty() || location.get().isBlank()) {
            throw new Fail("no upload location from " + address + " for " + repo);
        }
        String target = location.get().strip();
        if (!target.startsWith("http")) {
            target = "http://" + address + target;
        }
        target += (target.contains("?") ? "&" : "?") + "digest=" + digest;
        try {
            send(HttpRequest.newBuilder(URI.create(target)).header("Content-Type", "application/octet-stream")
                    .PUT(HttpRequest.BodyPublishers.ofFile(file)), "upload of " + file + " to " + address + "/" + repo + " failed");
        } catch (java.io.FileNotFoundException e) {
            throw new Fail("cannot read " + file);
        }
        return digest;
    }

    /**
     * oci_push_image: the layers, the config and an OCI manifest (written beside CONFIG as
     * manifest.json) pushed as REPO:TAG; the manifest's digest.
     */
    String pushImage(String repo, String tag, Path config, List<Path> layers) {
        List<OciJson.Blob> blobs = new ArrayList<>();
        for (Path layer : layers) {
            blobs.add(new OciJson.Blob(pushBlob(repo, layer), Layers.size(layer)));
        }
        OciJson.Blob configBlob = new OciJson.Blob(pushBlob(repo, config), Layers.size(config));
        byte[] manifest = OciJson.manifest(configBlob, blobs).getBytes(StandardCharsets.UTF_8);
        Path file = config.resolveSibling("manifest.json");
        try {
            Files.write(file, manifest);
        } catch (IOException e) {
            throw new Fail("cannot write " + file + ": " + e.getMessage());
        }
        send(HttpRequest.newBuilder(uri("/v2/" + repo + "/manifests/" + tag)).header("Content-Type", OciJson.MANIFEST_TYPE)
                .PUT(HttpRequest.BodyPublishers.ofByteArray(manifest)), "manifest of " + address + "/" + repo + ":" + tag + " refused");
        return "sha256:" + Layers.sha256(manifest);
    }

    /** manifest_digest: the Docker-Content-Digest of REPO:TAG's manifest, "" when there is none. */
    String manifestDigest(String repo, String tag) {
        try {
            HttpResponse<Void> response = http.send(HttpRequest.newBuilder(uri("/v2/" + repo + "/manifests/" + tag))
                    .header("Accept", ACCEPT).method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.discarding());
            if (response.statusCode() >= 400) {
                Say.warn("no manifest " + repo + ":" + tag + " at " + address + " (HEAD: " + response.statusCode() + ")");
                return "";
            }
            return response.headers().firstValue("Docker-Content-Digest").orElse("").strip();
        } catch (IOException e) {
            Say.warn(address + " does not answer: " + e.getMessage());
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** REPO:TAG's manifest, parsed. */
    Object manifest(String repo, String tag) {
        return Json.parse(new String(get("/v2/" + repo + "/manifests/" + tag, true), StandardCharsets.UTF_8));
    }

    byte[] blob(String repo, String digest) {
        return get("/v2/" + repo + "/blobs/" + digest, false);
    }

    /** A blob as a stream (the registry redirects none of ours: the loopback one serves them itself). */
    InputStream blobStream(String repo, String digest) {
        HttpRequest request = HttpRequest.newBuilder(uri("/v2/" + repo + "/blobs/" + digest)).GET().build();
        try {
            HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            if (response.statusCode() >= 400) {
                response.body().close();
                throw new Fail("GET " + request.uri() + ": " + response.statusCode());
            }
            return response.body();
        } catch (IOException e) {
            throw new Fail("GET " + request.uri() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Fail("interrupted");
        }
    }

    private byte[] get(String path, boolean manifest) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri(path)).GET();
        if (manifest) {
            builder.header("Accept", ACCEPT);
        }
        HttpRequest request = builder.build();
        try {
            HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() >= 400) {
                throw new Fail("GET " + request.uri() + ": " + response.statusCode());
            }
            return response.body();
        } catch (IOException e) {
            throw new Fail("GET " + request.uri() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Fail("interrupted");
        }
    }

    private int status(HttpRequest.Builder builder) {
        try {
            return http.send(builder.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return 599;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Fail("interrupted");
        }
    }

    private HttpResponse<Void> send(HttpRequest.Builder builder, String what) {
        HttpRequest request = builder.build();
        try {
            HttpResponse<Void> response = http.send(request, HttpResponse.BodyHandlers.discarding());
            if (response.statusCode() >= 400) {
                throw new Fail(what + " (" + request.method() + " " + request.uri().getPath() + ": " + response.statusCode() + ")");
            }
            return response;
        } catch (IOException e) {
            throw new Fail(what + " (" + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Fail("interrupted");
        }
    }
}
