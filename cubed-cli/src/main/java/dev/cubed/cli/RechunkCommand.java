package dev.cubed.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code ./cubed rechunk}: not implemented yet. */
@Command(name = "rechunk", description = "(not implemented yet)")
final class RechunkCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UnsupportedOperationException("./cubed rechunk is not implemented yet");
  }
}
