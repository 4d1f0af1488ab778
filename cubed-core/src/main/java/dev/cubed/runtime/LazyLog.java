package dev.cubed.runtime;

import java.util.logging.Logger;

/**
 * A {@code java.util.logging} logger made on first use. The engine logs only the unusual (retries,
 * backups, resumes, failures), and starting {@code java.util.logging} in a fresh JVM looks for a
 * logger finder in every jar on the class path: tens of milliseconds before a compute's first task
 * when a class holds its logger from the start. Thread-safe; every call after the first returns the
 * same logger.
 */
public final class LazyLog {
  private final String name;
  private volatile Logger logger;

  /** The logger named {@code name}, made when {@link #get()} is first called. */
  public LazyLog(String name) {
    this.name = name;
  }

  /** The logger. */
  public Logger get() {
    Logger l = logger;
    if (l == null) {
      l = Logger.getLogger(name);
      logger = l;
    }
    return l;
  }
}
