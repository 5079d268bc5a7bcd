package org.examsuite.tools.infra;

import org.examsuite.tools.host.Workspace;

/** STUB until the cli-cluster branch is merged. */
public final class ExternalCluster {
    private ExternalCluster() {
    }

    public static void check(Workspace ws) {
        throw new UnsupportedOperationException();
    }
}
