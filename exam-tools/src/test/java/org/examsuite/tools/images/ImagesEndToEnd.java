package org.examsuite.tools.images;

import java.nio.file.Path;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Say;
import org.examsuite.tools.host.Workspace;

/**
 * The end-to-end check, by hand (not a JUnit test: it takes minutes and needs root, a PostgreSQL
 * and a Redis): "stage" is ./exam test images's stage, anything else ./exam images with those
 * arguments. Run from the repository with exam-tools' test and runtime class path.
 */
public final class ImagesEndToEnd {
    private ImagesEndToEnd() {
    }

    public static void main(String[] args) {
        Workspace ws = Workspace.current();
        Procs procs = new Procs(ws);
        Images images = new Images(ws, procs, new ShellImageSupport(ws, procs));
        int rc;
        try {
            rc = args.length == 1 && args[0].equals("stage") ? images.stage() : images.run(new Images.Options(args.length > 0 ? args[0] : null, false, false));
        } catch (Fail e) {
            Say.warn(e.getMessage());
            rc = e.exitCode();
        }
        System.exit(rc);
    }
}
