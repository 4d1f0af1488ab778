package dev.cubed.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code ./cubed demo}: not implemented yet. */
@Command(name = "demo", description = "(not implemented yet)")
final class DemoCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UnsupportedOperationException("./cubed demo is not implemented yet");
  }
}
