package org.examsuite.tools.images;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Procs;

/**
 * build_page_image: exam-client's static files (page, SDK, proctor console) on this machine's
 * nginx (Debian nginx-light) with its shared libraries, as 101:101 on 8080.
 */
final class PageImage {
    private final Procs procs;
    private final Children children;
    private final Layers layers;
    private final RootFs rootFs;
    private final Path home;
    private final Path work;

    PageImage(Procs procs, Children children, Layers layers, RootFs rootFs, Path home, Path imagesDir) {
        this.procs = procs;
        this.children = children;
        this.layers = layers;
        this.rootFs = rootFs;
        this.home = home;
        this.work = imagesDir.resolve("exam-client");
    }

    /** Builds and pushes REPO:TAG; its manifest digest, null without nginx (need() said why). */
    String build(Registry registry, String repo, String tag, String revision, String created) {
        if (!procs.need("nginx", "nginx-light")) {
            return null;
        }
        Path nginx = procs.which("nginx").orElseThrow();
        RootFs.remove(work);
        Path root = work.resolve("root");
        Path files = work.resolve("files");
        RootFs.mkdirs(root.resolve("usr/sbin"));
        RootFs.mkdirs(root.resolve("etc/nginx"));
        Path srv = RootFs.mkdirs(files.resolve("srv/exam-client"));
        rootFs.create(root);
        RootFs.copy(nginx, root.resolve("usr/sbin/nginx"));
        rootFs.copyLibs(root, work, List.of(nginx));
        RootFs.copy(Path.of("/etc/nginx/mime.types"), root.resolve("etc/nginx/mime.types"));
        RootFs.copy(home.resolve("images/exam-client-nginx.conf"), root.resolve("etc/nginx/nginx.conf"));
        // the console without an identity provider (pasted tokens); the chart mounts its own over /etc/exam-client
        Path console = RootFs.mkdirs(root.resolve("etc/exam-client"));
        RootFs.write(console.resolve("console-config.json"), "{\"issuer\":null,\"clientId\":null}\n");
        RootFs.write(console.resolve("console-idp.conf"), "set $idp_origin \"\";\n");
        // nginx opens its compiled-in log and temp paths before reading the configuration
        Path logs = RootFs.mkdirs(root.resolve("var/log/nginx"));
        RootFs.mkdirs(root.resolve("var/lib/nginx"));
        try {
            Files.deleteIfExists(logs.resolve("error.log"));
            Files.createSymbolicLink(logs.resolve("error.log"), Path.of("/dev/stderr"));
        } catch (IOException e) {
            throw new Fail("cannot link " + logs.resolve("error.log") + ": " + e.getMessage());
        }
        // cp -r keeps the tree's links and modes as the bash copied them
        if (children.quiet(List.of("cp", "-r", home.resolve("exam-client/page").toString(),
                home.resolve("exam-client/sdk").toString(), home.resolve("exam-client/console").toString(),
                srv + "/")) != 0) {
            throw new Fail("cannot copy exam-client's files to " + srv);
        }
        rootFs.chmod(List.of("-R", "a+rX,go-w"), root, files);
        rootFs.chmod(List.of("1777"), root.resolve("tmp"));
        Path rootLayer = work.resolve("root.tar.gz");
        Path filesLayer = work.resolve("files.tar.gz");
        layers.layer(root, rootLayer);
        layers.layer(files, filesLayer);
        Path config = work.resolve("config.json");
        RootFs.write(config, OciJson.config(config(tag, revision, created), Images.diffIds(rootLayer, filesLayer), created));
        return registry.pushImage(repo, tag, config, List.of(rootLayer, filesLayer));
    }

    static Map<String, Object> config(String tag, String revision, String created) {
        return OciJson.object("User", "101:101", "WorkingDir", "/tmp",
                "ExposedPorts", OciJson.object("8080/tcp", OciJson.object()),
                "Env", List.of("PATH=/usr/sbin:/usr/bin:/bin"),
                "Entrypoint", List.of("/usr/sbin/nginx", "-e", "stderr", "-g", "daemon off;"),
                "StopSignal", "SIGQUIT",
                "Labels", OciJson.object("org.opencontainers.image.title", "exam-client",
                        "org.opencontainers.image.description",
                        "The reference exam page, its SDK and the proctor console (static files on nginx)",
                        "org.opencontainers.image.version", tag, "org.opencontainers.image.revision", revision,
                        "org.opencontainers.image.created", created,
                        "org.opencontainers.image.vendor", "Exam Suite", "org.opencontainers.image.licenses", "NOASSERTION"));
    }
}
