package org.examsuite.tools.images;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.examsuite.tools.host.Fail;

/** The minimal root filesystem of the images (oci_rootfs) and the shared libraries they load (oci_copy_libs). */
final class RootFs {
    static final String PASSWD = "root:x:0:0:root:/root:/sbin/nologin\n"
            + "default:x:185:185:app:/tmp:/sbin/nologin\n"
            + "native:x:1001:1001:app:/tmp:/sbin/nologin\n"
            + "nginx:x:101:101:nginx:/tmp:/sbin/nologin\n"
            + "nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\n";
    static final String GROUP = "root:x:0:\ndefault:x:185:\nnative:x:1001:\nnginx:x:101:\nnogroup:x:65534:\n";
    static final Path CA_CERTIFICATES = Path.of("/etc/ssl/certs/ca-certificates.crt");

    private final Children children;

    RootFs(Children children) {
        this.children = children;
    }

    /**
     * oci_rootfs ROOT: /etc/passwd and /etc/group with the images' users (185 for the JVM
     * services, as in the ubi openjdk images; 1001 for the native ones, as in ubi-micro; 101 for
     * the page's nginx, as in nginx-unprivileged), /tmp, name resolution and this machine's CA certificates.
     */
    void create(Path root) {
        for (String dir : List.of("etc", "tmp", "usr/bin", "usr/lib", "lib64")) {
            mkdirs(root.resolve(dir));
        }
        chmod(List.of("1777"), root.resolve("tmp")); // the sticky bit: Java's permission API has none
        write(root.resolve("etc/passwd"), PASSWD);
        write(root.resolve("etc/group"), GROUP);
        write(root.resolve("etc/nsswitch.conf"), "passwd: files\ngroup: files\nhosts: files dns\n");
        write(root.resolve("etc/hosts"), "127.0.0.1 localhost\n::1 localhost\n");
        if (Files.isRegularFile(CA_CERTIFICATES)) {
            Path certs = mkdirs(root.resolve("etc/ssl/certs"));
            copy(CA_CERTIFICATES, certs.resolve("ca-certificates.crt"));
        }
    }

    /**
     * oci_copy_libs ROOT FILES: the shared libraries FILES load (ldd), with the dynamic loader,
     * copied into ROOT at their paths on this machine; those under OWN (the directory FILES come
     * from, their RPATH $ORIGIN) are left out: the image has them already.
     */
    void copyLibs(Path root, Path own, List<Path> files) {
        List<String> command = new ArrayList<>();
        command.add("ldd");
        files.forEach(f -> command.add(f.toString()));
        for (String lib : libraries(children.output(command), own)) {
            Path target = root.resolve(lib.substring(1));
            mkdirs(target.getParent());
            copy(Path.of(lib), target);
        }
    }

    /** The library paths in ldd's OUTPUT, sorted, without those under OWN. */
    static TreeSet<String> libraries(String lddOutput, Path own) {
        TreeSet<String> libs = new TreeSet<>();
        for (String line : lddOutput.split("\n")) {
            String[] fields = line.strip().split("\\s+");
            if (line.matches(".*=> /.*") && fields.length >= 3) {
                libs.add(fields[2]);
            }
            if (line.matches("^\\s*/lib.*")) {
                libs.add(fields[0]);
            }
        }
        libs.removeIf(lib -> lib.startsWith(own + "/"));
        return libs;
    }

    /** chmod ARGS PATHS (a child process: modes like 1777 and a+rX have no Java API). */
    void chmod(List<String> args, Path... paths) {
        List<String> command = new ArrayList<>(List.of("chmod"));
        command.addAll(args);
        for (Path p : paths) {
            command.add(p.toString());
        }
        if (children.quiet(command) != 0) {
            throw new Fail(String.join(" ", command) + " failed");
        }
    }

    /** rm -rf DIR (links removed, never followed). */
    static void remove(Path dir) {
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new Fail("cannot remove " + dir + ": " + e.getMessage());
        }
    }

    static Path mkdirs(Path dir) {
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new Fail("cannot create " + dir + ": " + e.getMessage());
        }
    }

    static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new Fail("cannot write " + file + ": " + e.getMessage());
        }
    }

    /** cp -L: the file a link names, its mode (less the umask) kept. */
    static void copy(Path from, Path to) {
        try {
            Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new Fail("cannot copy " + from + " to " + to + ": " + e.getMessage());
        }
    }
}
