package dev.cubed.bench.cli;

import dev.cubed.bench.userpath.UserPath;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code ./cubed bench-user EXPRESSION --inputs DIR ...}: the user-path benchmark ({@link
 * UserPath}, public API only) from the command line; its arguments and messages are {@link
 * UserPath}'s ({@code --help} lists the expressions). Exit codes: 0, 2 for a usage error, 1 for a
 * failure.
 */
@Command(
    name = "bench-user",
    description = {
      "Run one user-path expression (public API only) on"
          + " stored Zarr inputs and print its JSON line; --help lists the expressions."
    })
public final class BenchUserCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  /** Every argument, in order: {@link UserPath} parses them. */
  @Unmatched List<String> args = new ArrayList<>();

  @Override
  public Integer call() {
    return UserPath.run(
        "cubed bench-user",
        args.toArray(String[]::new),
        spec.commandLine().getOut(),
        spec.commandLine().getErr());
  }
}
