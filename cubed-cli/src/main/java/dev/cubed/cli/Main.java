package dev.cubed.cli;

import dev.cubed.plan.MemoryBudgetExceededException;
import dev.cubed.plan.durable.TargetBusyException;
import dev.cubed.runtime.ExecutorUnavailableException;
import dev.cubed.runtime.TaskFailedException;
import dev.cubed.zarr.store.Stores;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.ServiceLoader;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParameterException;

/**
 * Entry point of the {@code ./cubed} command line.
 *
 * <p>Errors: a bad command line (unknown option, missing parameter, malformed option value) prints
 * one line {@code cubed CMD: what was wrong; see 'cubed CMD --help'} on standard error and exits
 * with code 2. A failure while running (bad input data, a plan that does not fit {@code
 * --allowed-mem}, a store that cannot be written) prints one line {@code cubed CMD: message} and
 * exits with code 1. No stack trace is printed unless the environment variable {@code CUBED_DEBUG}
 * is 1, true or yes (any case; {@link #debugFrom}); an unexpected exception (a bug) says so and
 * names CUBED_DEBUG.
 */
@Command(
    name = "cubed",
    mixinStandardHelpOptions = true,
    version = "cubed 0.1.0-SNAPSHOT",
    description = "Bounded-memory chunked arrays on the JVM.",
    subcommands = {
      InfoCommand.class,
      DemoCommand.class,
      RechunkCommand.class,
      CleanCommand.class,
      EnvCommand.class,
      MeasureReservedMemCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {

  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }

  public static void main(String[] args) {
    int rc =
        execute(
            new PrintWriter(System.out, true),
            new PrintWriter(System.err, true),
            debugFrom(System.getenv("CUBED_DEBUG")),
            args);
    recordExitStatus(System.getProperty("cubed.exitStatusFile"), rc);
    System.exit(rc);
  }

  /**
   * Writes the command's exit status to {@code file} (when not null) before the JVM exits. The
   * launcher asks for it on the run that writes the class-data-sharing archive at exit: if the JVM
   * then dies while dumping (a JDK 17 fault seen with some libraries' lambdas), the command itself
   * had finished, and the launcher exits with this status instead of the crash's.
   */
  static void recordExitStatus(String file, int rc) {
    if (file == null || file.isEmpty()) {
      return;
    }
    try {
      Files.writeString(Path.of(file), Integer.toString(rc));
    } catch (IOException | RuntimeException e) {
      // the launcher then reports the JVM's own status, as before
    }
  }

  /**
   * Whether a {@code CUBED_DEBUG} value turns stack traces on: 1, true or yes (any case, blanks
   * around ignored); anything else (unset, empty, 0, false, no, ...) leaves them off.
   */
  static boolean debugFrom(String value) {
    if (value == null) {
      return false;
    }
    String v = value.strip().toLowerCase(Locale.ROOT);
    return v.equals("1") || v.equals("true") || v.equals("yes");
  }

  /**
   * Runs the command line with the error handling described in the class comment.
   *
   * @return the exit code: 0 success, 1 runtime error, 2 usage error
   */
  public static int execute(PrintWriter out, PrintWriter err, boolean debug, String... args) {
    return commandLine(out, err, debug).execute(args);
  }

  /**
   * The configured command line (handlers for usage and runtime errors), with the commands of every
   * {@link CommandProvider} on the class path added after the built-in ones.
   */
  public static CommandLine commandLine(PrintWriter out, PrintWriter err, boolean debug) {
    CommandLine cl = new CommandLine(new Main());
    for (CommandProvider p :
        ServiceLoader.load(CommandProvider.class, Main.class.getClassLoader())) {
      for (Object command : p.commands()) {
        cl.addSubcommand(command);
      }
    }
    cl.setOut(out);
    cl.setErr(err);
    cl.setParameterExceptionHandler(
        (ParameterException ex, String[] a) -> {
          CommandLine cmd = ex.getCommandLine();
          String name = cmd.getCommandSpec().qualifiedName();
          cmd.getErr()
              .println(name + ": " + oneLine(ex.getMessage()) + "; see '" + name + " --help'");
          if (debug) {
            ex.printStackTrace(cmd.getErr());
          }
          cmd.getErr().flush();
          return 2;
        });
    cl.setExecutionExceptionHandler(
        (ex, cmd, parsed) -> {
          String name = cmd.getCommandSpec().qualifiedName();
          cmd.getErr().println(name + ": " + describe(ex, debug));
          if (debug) {
            ex.printStackTrace(cmd.getErr());
          }
          cmd.getErr().flush();
          return 1;
        });
    return cl;
  }

  /** The one-line message for a failure while running, in the command line's words. */
  static String describe(Exception ex, boolean debug) {
    if (ex instanceof Cli.Resumable r) {
      return describe(r.failure(), debug) + r.hint();
    }
    if (ex instanceof MemoryBudgetExceededException m) {
      return "operation '"
          + m.opName()
          + "' needs a projected "
          + Cli.bytes(m.projectedMem())
          + " per task, more than --allowed-mem "
          + Cli.bytes(m.allowedMem())
          + " (of which "
          + "--reserved-mem "
          + Cli.bytes(m.reservedMem())
          + " is the worker's own baseline);"
          + " raise --allowed-mem or use smaller chunks; nothing was run";
    }
    String msg = ex.getMessage() == null ? "" : oneLine(ex.getMessage());
    if (isUserError(ex)) {
      return msg.isEmpty() ? ex.getClass().getSimpleName() : msg;
    }
    // a task that failed on bad input (a corrupt chunk, a full disk): report that input error
    for (Throwable c = ex.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
      if (isUserError(c) && c.getMessage() != null) {
        String where =
            ex instanceof TaskFailedException t
                ? " (task " + Arrays.toString(t.key()) + " of operation " + t.opName() + ")"
                : "";
        return oneLine(c.getMessage()) + where;
      }
    }
    return "internal error: "
        + ex.getClass().getName()
        + (msg.isEmpty() ? "" : ": " + msg)
        + (debug ? "" : " (run with CUBED_DEBUG=1 for the stack trace, and please report it)");
  }

  private static boolean isUserError(Throwable ex) {
    return ex instanceof IllegalArgumentException
        || ex instanceof UncheckedIOException
        || ex instanceof TargetBusyException
        || ex instanceof ExecutorUnavailableException
        || ex instanceof UnsupportedOperationException
        || ex instanceof IOException;
  }

  /**
   * Collapses a message to one line, with the credentials of any URL in it redacted ({@link
   * dev.cubed.zarr.store.Stores#redact}: an S3 endpoint given as http://user:secret@host).
   */
  static String oneLine(String s) {
    return Stores.redact(s.strip().replaceAll("\\s*\\R\\s*", " "));
  }
}
