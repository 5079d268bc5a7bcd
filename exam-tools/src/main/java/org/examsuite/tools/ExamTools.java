package org.examsuite.tools;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The embedded PostgreSQL/Redis daemon ./exam starts where none answers on loopback
 * ({@code ExamTools infra ...}, in a JVM of its own that may run as 'nobody'); it runs until SIGTERM.
 * Everything else of ./exam is org.examsuite.tools.cli.Exam.
 */
@Command(name = "exam-tools", subcommands = ExamTools.Infra.class)
public final class ExamTools {
    private ExamTools() {
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(ExamTools.class).execute(args));
    }

    @Command(name = "infra", mixinStandardHelpOptions = true, description = "Embedded PostgreSQL and/or Redis until SIGTERM.")
    static final class Infra implements Callable<Integer> {
        @Option(names = "--pg-host", defaultValue = "127.0.0.1")
        String pgHost;

        @Option(names = "--pg-port")
        Integer pgPort;

        @Option(names = "--pg-data")
        Path pgData;

        @Option(names = "--pg-bin")
        Path pgBin;

        @Option(names = "--redis-host", defaultValue = "127.0.0.1")
        String redisHost;

        @Option(names = "--redis-port")
        Integer redisPort;

        @Option(names = "--redis-dir")
        Path redisDir;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            if (pgPort == null && redisPort == null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "infra: nothing to start (--pg-port and/or --redis-port)");
            }
            if ((pgPort != null && (pgData == null || pgBin == null)) || (redisPort != null && redisDir == null)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "infra: --pg-port needs --pg-data and --pg-bin, --redis-port --redis-dir");
            }
            EmbeddedInfra.runUntilStopped(pgPort == null ? null : new EmbeddedInfra.PostgresSpec(pgHost, pgPort, pgData, pgBin),
                    redisPort == null ? null : new EmbeddedInfra.RedisSpec(redisHost, redisPort, redisDir));
            return 0;
        }
    }
}
