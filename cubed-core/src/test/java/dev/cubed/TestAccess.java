package dev.cubed;

import dev.cubed.plan.node.ArrayNode;

/** Test-only access to package-private parts of the API layer, for tests in other packages. */
public final class TestAccess {
  private TestAccess() {}

  /** The array's DAG node. */
  public static ArrayNode node(CubedArray a) {
    return a.node();
  }
}
