package dev.cubed.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TaskWorkerTest {
  /**
   * A task function that ran its work in another process names it ({@link TaskWorker#ranIn}): the
   * task's event carries that name and peak; an attempt that recorded one and then failed leaves
   * nothing for the next attempt.
   */
  @Test
  void theEventNamesTheProcessTheFunctionRecorded() {
    Map<Long, Events.TaskEnd> ends = new ConcurrentHashMap<>();
    AtomicInteger tries = new AtomicInteger();
    Operation op =
        new Operation(
            "py",
            List.of(new long[] {0}, new long[] {1}, new long[] {2}),
            k -> {
              if (k[0] == 0) {
                TaskWorker.ranIn("python worker pid 42", 1234);
              } else if (k[0] == 2 && tries.getAndIncrement() == 0) {
                TaskWorker.ranIn("python worker pid 43", 99);
                throw new IOException("the worker died");
              }
            },
            10);
    Callback cb =
        new Callback() {
          @Override
          public void onTaskEnd(Events.TaskEnd e) {
            ends.put(e.key()[0], e);
          }
        };
    new ThreadsExecutor(1, 3).execute("c", List.of(op), List.of(cb));
    assertThat(ends.get(0L).worker()).isEqualTo("python worker pid 42");
    assertThat(ends.get(0L).peakRss()).isEqualTo(1234);
    assertThat(ends.get(0L).allocatedBytes()).isGreaterThanOrEqualTo(0);
    // no record: the thread's name, as before
    assertThat(ends.get(1L).worker()).doesNotContain("python").isNotNull();
    assertThat(ends.get(1L).peakRss()).isEqualTo(-1);
    // the failed attempt's record is not the successful one's
    assertThat(ends.get(2L).attempts()).isEqualTo(2);
    assertThat(ends.get(2L).worker()).doesNotContain("python");
  }

  /**
   * The hook of executors that run task functions themselves (Spark, Beam): {@link
   * TaskWorker#reported} gives what the attempt recorded once, and {@link TaskWorker#beginAttempt}
   * forgets an earlier attempt's record.
   */
  @Test
  void engineExecutorsReadWhatTheAttemptRecordedOnce() {
    TaskWorker.beginAttempt();
    assertThat(TaskWorker.reported()).isNull();
    TaskWorker.ranIn("python worker pid 7", 512);
    assertThat(TaskWorker.reported()).isEqualTo(new TaskWorker.Ran("python worker pid 7", 512));
    assertThat(TaskWorker.reported()).as("taken once").isNull();
    TaskWorker.ranIn("python worker pid 8", 1);
    TaskWorker.beginAttempt();
    assertThat(TaskWorker.reported()).as("an earlier attempt's record is forgotten").isNull();
  }
}
