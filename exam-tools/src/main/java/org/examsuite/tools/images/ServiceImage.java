package org.examsuite.tools.images;

import java.nio.file.Path;
import java.util.List;

/**
 * build_service_image: the service's fast-jar on BASE with quarkus-container-image-jib, pushed by
 * jib (Maven, its output in .exam/logs/image-SERVICE.log); its JVM flags are java_opts_for's (the
 * chart's javaToolOptions carry the same).
 */
final class ServiceImage {
    private final Children children;
    private final Path home;
    private final Path logDir;

    ServiceImage(Children children, Path home, Path logDir) {
        this.children = children;
        this.home = home;
        this.logDir = logDir;
    }

    /** Builds and pushes REPO:TAG; its manifest digest as the registry tells it, null when Maven failed (its log's tail shown). */
    String build(Registry registry, String service, String jvmOpts, String repo, String tag, String base,
            String revision, String created) {
        Path log = logDir.resolve("image-" + service + ".log");
        int rc = children.toLog(command(registry.address(), service, jvmOpts, repo, tag, base, revision, created), log);
        if (rc != 0) {
            Children.logTail(log);
            return null;
        }
        return registry.manifestDigest(repo, tag);
    }

    List<String> command(String registry, String service, String jvmOpts, String repo, String tag, String base,
            String revision, String created) {
        String jvmArgs = "-Djava.util.logging.manager=org.jboss.logmanager.LogManager " + jvmOpts;
        int slash = repo.lastIndexOf('/');
        return List.of(home.resolve("mvnw").toString(), "-B", "-q", "package", "-DskipTests", "-pl", service,
                "-Dquarkus.container-image.build=true", "-Dquarkus.container-image.push=true",
                "-Dquarkus.container-image.registry=" + registry, "-Dquarkus.container-image.insecure=true",
                "-Dquarkus.container-image.group=" + (slash < 0 ? repo : repo.substring(0, slash)),
                "-Dquarkus.container-image.name=" + repo.substring(slash + 1),
                "-Dquarkus.container-image.tag=" + tag, "-Dquarkus.container-image.additional-tags=",
                "-Dquarkus.jib.base-jvm-image=" + base, "-Dquarkus.jib.jvm-arguments=" + jvmArgs.replace(' ', ','),
                "-Dquarkus.container-image.labels.\"org.opencontainers.image.revision\"=" + revision,
                "-Dquarkus.container-image.labels.\"org.opencontainers.image.created\"=" + created);
    }
}
