package dev.cubed.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code ./cubed} command line. */
@Command(
    name = "cubed",
    mixinStandardHelpOptions = true,
    version = "cubed 0.1.0-SNAPSHOT",
    description = "Bounded-memory chunked arrays on the JVM.",
    subcommands = {
      InfoCommand.class,
      DemoCommand.class,
      RechunkCommand.class,
      BenchCommand.class,
      CleanCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {

  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }

  public static void main(String[] args) {
    int code = new CommandLine(new Main())
        .setExecutionExceptionHandler((ex, cmd, parsed) -> {
          cmd.getErr().println("cubed " + cmd.getCommandName() + ": " + ex.getMessage());
          if (System.getenv("CUBED_DEBUG") != null) {
            ex.printStackTrace(cmd.getErr());
          }
          return 1;
        })
        .execute(args);
    System.exit(code);
  }
}
