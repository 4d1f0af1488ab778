package dev.cubed.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code ./cubed bench}: not implemented yet. */
@Command(name = "bench", description = "(not implemented yet)")
final class BenchCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UnsupportedOperationException("./cubed bench is not implemented yet");
  }
}
