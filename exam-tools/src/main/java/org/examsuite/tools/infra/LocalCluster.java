package org.examsuite.tools.infra;

import java.nio.file.Path;
import java.util.List;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Workspace;

/** STUB until the cli-cluster branch is merged (its LocalCluster replaces this file). */
public final class LocalCluster {
    public static final String DEFAULT_PORTS = "7001-7006";

    public record UpResult(boolean started, boolean created, String seeds) {
    }

    public static List<Integer> parsePorts(String spec) {
        throw new UnsupportedOperationException();
    }

    public static LocalCluster of(Workspace ws, Procs procs, String portsOrNull, String dirOrNull) {
        throw new UnsupportedOperationException();
    }

    public UpResult up() {
        throw new UnsupportedOperationException();
    }

    public void down() {
        throw new UnsupportedOperationException();
    }

    public boolean printStatus() {
        throw new UnsupportedOperationException();
    }

    public boolean anyRunning() {
        throw new UnsupportedOperationException();
    }

    public String seeds() {
        throw new UnsupportedOperationException();
    }

    public long mastersCommandsProcessed() {
        throw new UnsupportedOperationException();
    }

    public Path dir() {
        throw new UnsupportedOperationException();
    }

    public List<Integer> ports() {
        throw new UnsupportedOperationException();
    }
}
