package dev.cubed.plan.durable;

import java.nio.file.Path;

/** Child-process main for {@link WriteLockTest}: holds a target's write lock until stdin closes. */
public final class WriteLockHolder {
  private WriteLockHolder() {}

  /** {@code <dir>}: hold the lock until stdin closes; {@code <dir> try}: report and exit. */
  public static void main(String[] args) throws Exception {
    if (args.length > 1) {
      try (WriteLock lock = WriteLock.acquire(Path.of(args[0]), "child")) {
        System.out.println("LOCKED");
      } catch (IllegalStateException e) {
        System.out.println("REFUSED");
      }
      return;
    }
    try (WriteLock lock = WriteLock.acquire(Path.of(args[0]), "child")) {
      System.out.println("LOCKED");
      System.out.flush();
      while (System.in.read() >= 0) {
        // wait for the parent to close our stdin
      }
    }
    System.out.println("RELEASED");
  }
}
