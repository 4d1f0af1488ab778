package dev.cubed.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code ./cubed info}: not implemented yet. */
@Command(name = "info", description = "(not implemented yet)")
final class InfoCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UnsupportedOperationException("./cubed info is not implemented yet");
  }
}
