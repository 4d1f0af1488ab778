package dev.cubed.bench.cli;

import dev.cubed.cli.CommandProvider;
import java.util.List;

/**
 * The commands cubed-bench adds to {@code cubed} ({@code bench}, {@code bench-user}): found by the
 * command line through {@code META-INF/services/dev.cubed.cli.CommandProvider} when this module's
 * jar is on its class path (the launcher puts it there), so the command line does not depend on the
 * benchmarks.
 */
public final class BenchCommands implements CommandProvider {
  @Override
  public List<Object> commands() {
    return List.of(new BenchCommand(), new BenchUserCommand());
  }
}
