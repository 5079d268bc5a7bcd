package org.examsuite.tools.suite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.examsuite.tools.DevKeys;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Workspace;

/** The local suite's dev key pairs in .exam/keys, generated when missing, as the services take them. */
public final class Keys {
    private final Path dir;

    public Keys(Workspace ws) {
        this.dir = ws.keysDir();
    }

    public Path dir() {
        return dir;
    }

    public void ensure() {
        try {
            new DevKeys(dir).ensure();
        } catch (IOException e) {
            throw new Fail("cannot generate the dev keys in " + dir + ": " + e.getMessage());
        }
    }

    /** A key as one line of base64 (the PEM without its header lines and line breaks). */
    public String line(String name, String kind) {
        Path file = dir.resolve(name + "." + kind + ".pem");
        try {
            List<String> lines = Files.readAllLines(file);
            return lines.stream().filter(l -> !l.contains("-----")).map(String::strip).collect(Collectors.joining());
        } catch (IOException e) {
            throw new Fail("cannot read " + file + ": " + e.getMessage());
        }
    }
}
