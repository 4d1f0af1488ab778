package dev.cubed.plan.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cubed.Spec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * The digest warm-up a {@code Spec} builder starts: its digest is a stable one (the lambda and
 * boxed values it writes serialize), and digests made on many threads at once while it may run
 * still agree with each other.
 */
class NodeDigestWarmUpTest {
  @Test
  void theWarmUpDigestIsStable() {
    assertTrue(NodeDigest.warmUp());
  }

  @Test
  void digestsOnManyThreadsBesideTheWarmUpAgree() throws Exception {
    Spec.builder(); // starts the warm-up once per JVM
    int n = Math.max(8, 4 * Runtime.getRuntime().availableProcessors());
    CountDownLatch go = new CountDownLatch(1);
    List<String> got = java.util.Collections.synchronizedList(new ArrayList<>());
    List<Thread> ts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Thread t =
          new Thread(
              () -> {
                try {
                  go.await();
                  long[] shape = {3, 4};
                  got.add(NodeDigest.of(out -> out.writeObject(shape)).hex());
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              });
      t.start();
      ts.add(t);
    }
    go.countDown();
    for (Thread t : ts) {
      t.join();
    }
    assertEquals(n, got.size());
    assertEquals(1, got.stream().distinct().count(), "one digest for the same content");
  }
}
