package dev.cubed.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class LazyLogTest {
  @Test
  void givesTheNamedLoggerOnceFromEveryThread() throws Exception {
    LazyLog log = new LazyLog("dev.cubed.runtime.LazyLogTest.named");
    Set<Logger> seen = ConcurrentHashMap.newKeySet();
    CountDownLatch go = new CountDownLatch(1);
    Thread[] ts = new Thread[Math.max(8, 4 * Runtime.getRuntime().availableProcessors())];
    for (int i = 0; i < ts.length; i++) {
      ts[i] =
          new Thread(
              () -> {
                try {
                  go.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                seen.add(log.get());
              });
      ts[i].start();
    }
    go.countDown();
    for (Thread t : ts) {
      t.join();
    }
    assertThat(seen).hasSize(1);
    Logger l = seen.iterator().next();
    assertThat(l.getName()).isEqualTo("dev.cubed.runtime.LazyLogTest.named");
    assertThat(l).isSameAs(Logger.getLogger("dev.cubed.runtime.LazyLogTest.named"));
    assertThat(log.get()).isSameAs(l);
  }
}
