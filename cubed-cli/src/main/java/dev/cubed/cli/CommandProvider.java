package dev.cubed.cli;

import java.util.List;

/**
 * Commands that another module adds to {@code cubed} without the command line depending on it: a
 * class named in that module's {@code META-INF/services/dev.cubed.cli.CommandProvider}, found by
 * {@link java.util.ServiceLoader} on the class path when {@link Main} starts. cubed-bench provides
 * {@code bench} and {@code bench-user} this way; the launcher ({@code ./cubed}, the distribution's
 * {@code bin/cubed}) puts its jar on the class path. A command is a picocli {@code @Command} object
 * and may use the public option mixins {@link ExecutorOptions} and {@link DiagnosticsOptions} and
 * the value parsers of {@link Cli}; its errors are reported as every command's ({@link Main}).
 */
public interface CommandProvider {
  /** New instances of the commands, in the order {@code cubed --help} lists them. */
  List<Object> commands();
}
