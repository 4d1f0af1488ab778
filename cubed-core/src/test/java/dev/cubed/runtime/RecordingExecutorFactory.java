package dev.cubed.runtime;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A test executor factory registered with ServiceLoader (test resources) under "recording": it
 * remembers the settings it was given and runs tasks on a threads executor.
 */
public final class RecordingExecutorFactory implements ExecutorFactory {
  /** Settings of every executor created, in order. */
  public static final List<ExecutorSettings> CREATED =
      Collections.synchronizedList(new ArrayList<>());

  @Override
  public String name() {
    return "recording";
  }

  @Override
  public Executor create(ExecutorSettings settings) {
    if ("yes".equals(settings.option("fail", "no"))) {
      settings.requireOption("required.key");
    }
    CREATED.add(settings);
    return ThreadsExecutor.builder()
        .workers(settings.workers())
        .attempts(settings.attempts())
        .build();
  }
}
