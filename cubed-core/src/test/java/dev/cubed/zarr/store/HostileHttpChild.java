package dev.cubed.zarr.store;

import dev.cubed.zarr.ZarrArray;

/**
 * The JVM of {@link HostileHttpTest#endlessBodiesAreRefusedNamingTheKeyInASmallHeap} (run with a 64
 * MB heap): opens the hostile server's arrays and chunks, prints each outcome on one line, then
 * shows it is healthy (allocates and prints "healthy").
 */
public final class HostileHttpChild {
  private HostileHttpChild() {}

  private static void attempt(String label, Runnable r) {
    try {
      r.run();
      System.out.println(label + ": read (not refused)");
    } catch (Throwable t) {
      System.out.println(label + ": " + t.getClass().getSimpleName() + ": " + t.getMessage());
    }
  }

  /** {@code args[0]}: the server's base URL. */
  public static void main(String[] args) {
    String base = args[0];
    attempt("big", () -> ZarrArray.open(Stores.open(base + "big"), ""));
    attempt("endless", () -> ZarrArray.open(Stores.open(base + "endless"), ""));
    ZarrArray a = ZarrArray.open(Stores.open(base + "a"), "");
    attempt("chunk 0", () -> a.readChunk(0));
    attempt("chunk 1", () -> a.readChunk(1));
    double[] d = new double[4 << 20]; // 32 MB: the heap is still there
    d[d.length - 1] = 1;
    System.out.println(d[d.length - 1] == 1 ? "healthy" : "?");
    System.exit(0);
  }
}
