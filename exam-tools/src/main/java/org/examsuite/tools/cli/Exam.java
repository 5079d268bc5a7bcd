package org.examsuite.tools.cli;

import java.util.concurrent.Callable;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Workspace;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * ./exam — run and test the Exam Suite on one machine (README.md). The launcher script builds
 * this program once and hands it the arguments; every command has --help.
 */
@Command(name = "./exam", mixinStandardHelpOptions = true, versionProvider = Exam.Version.class,
        description = "Run and test the Exam Suite on one machine: the four services with PostgreSQL and Redis, "
                + "the demo, the drill, the benchmarks and every test. Everything it creates lives in .exam/ (git-ignored).",
        commandListHeading = "%nCommands:%n",
        footer = {"", "Configuration: EXAM_DB_HOST, EXAM_DB_PORT, EXAM_DB_NAME, EXAM_DB_USER, EXAM_DB_PASSWORD, EXAM_REDIS_URL,",
            "EXAM_REDIS_CLUSTER, EXAM_REDIS_WAIT_REPLICAS, OTEL_EXPORTER_OTLP_ENDPOINT, EXAM_JAVA_OPTS, EXAM_UP_TIMEOUT (README.md).",
            "./exam COMMAND --help: that command's options. Completions: source <(./exam completion)"},
        subcommands = {
            SuiteCommands.Up.class, SuiteCommands.Down.class, SuiteCommands.Status.class, SuiteCommands.Token.class,
            TestCommand.class, RunCommands.Demo.class, RunCommands.Fuzz.class, RunCommands.Drill.class,
            RunCommands.Bench.class, SuiteCommands.Build.class, SuiteCommands.Native.class, SuiteCommands.Cluster.class,
            SuiteCommands.Capacity.class, RunCommands.Images.class, Exam.Completion.class, TestCommand.StageProcess.class})
public final class Exam implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    public static int run(String... args) {
        return commandLine().execute(args);
    }

    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new Exam());
        cli.setUsageHelpWidth(110);
        cli.getSubcommands().get("test").getCommandSpec().usageMessage().footer(TestCommand.stageList());
        cli.setExecutionExceptionHandler((e, line, parsed) -> {
            if (e instanceof Fail fail) {
                line.getErr().println("exam: " + fail.getMessage());
                return fail.exitCode();
            }
            throw e;
        });
        cli.setParameterExceptionHandler((e, a) -> {
            CommandLine line = e.getCommandLine();
            line.getErr().println("exam: " + e.getMessage());
            line.getErr().println("(" + line.getCommandSpec().qualifiedName() + " --help lists the options)");
            return 2;
        });
        return cli;
    }

    /** No command: the overview of every command. */
    @Override
    public Integer call() {
        spec.commandLine().usage(System.out);
        return 0;
    }

    /** The workspace of this run: the repository the launcher found (-Dexam.home). */
    static Toolbox toolbox() {
        return new Toolbox(Workspace.current());
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            Package p = Exam.class.getPackage();
            return new String[] {"Exam Suite ./exam " + (p.getImplementationVersion() == null ? "1.0.0-SNAPSHOT" : p.getImplementationVersion())};
        }
    }

    @Command(name = "completion", mixinStandardHelpOptions = true,
            description = "Print a bash completion script for ./exam: source <(./exam completion)")
    static final class Completion implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            String script = picocli.AutoComplete.bash("exam", spec.parent().commandLine());
            java.io.PrintWriter out = spec.commandLine().getOut();
            out.print(script);
            out.println("complete -F _complete_exam ./exam");
            out.flush();
            return 0;
        }
    }
}
