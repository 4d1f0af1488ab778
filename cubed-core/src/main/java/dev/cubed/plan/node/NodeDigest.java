package dev.cubed.plan.node;

import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import dev.cubed.zarr.store.MemoryStore;
import dev.cubed.zarr.store.Store;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

/**
 * Content digests of array nodes, the basis of their names (see {@link ArrayNode#name()}).
 *
 * <p>A node's content is written with Java serialization into a SHA-256 digest (nothing is kept or
 * written anywhere). Lambdas in block, key and generator functions are {@code Serializable}; their
 * serialized form ({@code SerializedLambda}: capturing class, implementation method, captured
 * values) is the same in every run of the same program. A few values are replaced by a stable token
 * before they are written: an {@link ArrayNode} by its digest (so a node's digest covers its whole
 * input graph without serializing it again), an {@link NDArray} by its dtype, shape and a 128-bit
 * hash of its data ({@link DataHash}), a {@link NamedContent} by its name (no data hashed), a
 * {@link FileSystemStore} by its absolute root, a named {@link MemoryStore} by its name, any other
 * store by a per-instance number (unique in this JVM, different in the next one), a {@link Path} by
 * its absolute form. If something cannot be serialized the node gets a random digest instead and is
 * marked not stable: its name then differs from run to run, and so do the names of every node built
 * on it, so a resume recomputes them rather than reusing anything.
 */
public final class NodeDigest {
  /**
   * Random digests and this JVM's token, made on first use: seeding a {@code SecureRandom} costs a
   * fresh JVM tens of milliseconds, and most runs never need one.
   */
  private static final class RandomSource {
    static final SecureRandom RANDOM = new SecureRandom();

    /** Distinguishes per-instance store ids of this JVM from those of another run. */
    static final String JVM_TOKEN = Long.toHexString(RANDOM.nextLong());
  }

  private static final AtomicLong INSTANCES = new AtomicLong();
  private static final Map<Store, Long> STORE_IDS =
      Collections.synchronizedMap(new WeakHashMap<>());

  private NodeDigest() {}

  /** A digest: the hex SHA-256 (or random hex), whether it is stable, and why not. */
  record Result(String hex, boolean stable, String reason) {}

  /** Something written into the digest in place of an object that has no stable serial form. */
  private record Token(String kind, String value) implements Serializable {}

  /** Writes a node's content. */
  @FunctionalInterface
  interface Content {
    void write(ObjectOutputStream out) throws IOException;
  }

  private static final AtomicBoolean WARMING = new AtomicBoolean();

  /**
   * Starts, once per JVM, a daemon thread that makes one digest of a serializable lambda capturing
   * boxed values and an array, as node digests do: a fresh JVM's first digest sets up the SHA-256
   * provider and Java serialization's class descriptors (generated constructor accessors for {@code
   * SerializedLambda} and the boxed types), some 20-40 ms that the caller's first {@code fromZarr}
   * would otherwise wait for. Called when a {@code Spec} builder is made; later calls do nothing,
   * and a digest made meanwhile on another thread is unaffected (the caches involved are
   * thread-safe).
   */
  public static void warmUpInBackground() {
    if (!WARMING.compareAndSet(false, true)) {
      return;
    }
    Thread t = new Thread(NodeDigest::warmUp, "cubed-digest-warm-up");
    t.setDaemon(true);
    t.start();
  }

  /** One digest of the kind {@link #warmUpInBackground} describes; true if it was stable. */
  static boolean warmUp() {
    int i = 1;
    long l = 2L;
    double d = 3.0;
    boolean b = true;
    long[] shape = {4L};
    Content c =
        out ->
            out.writeObject(
                (IntSupplier & Serializable) () -> (int) (i + l + d + (b ? shape[0] : 0)));
    return of(c).stable();
  }

  static Result of(Content content) {
    MessageDigest md = sha256();
    try (ObjectOutputStream out =
        new HashingStream(new DigestOutputStream(OutputStream.nullOutputStream(), md))) {
      content.write(out);
      out.flush();
    } catch (IOException | RuntimeException e) {
      byte[] r = new byte[32];
      RandomSource.RANDOM.nextBytes(r);
      return new Result(HexFormat.of().formatHex(r), false, e.toString());
    }
    return new Result(HexFormat.of().formatHex(md.digest()), true, null);
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available in this JVM", e);
    }
  }

  /** The hex SHA-256 of a UTF-8 string. */
  public static String sha256Hex(String s) {
    return HexFormat.of().formatHex(sha256().digest(s.getBytes(StandardCharsets.UTF_8)));
  }

  static String storeToken(Store s) {
    if (s instanceof FileSystemStore f) {
      return "file:" + f.root().toAbsolutePath().normalize();
    }
    if (s instanceof MemoryStore m && m.name() != null) {
      return "memory://" + m.name();
    }
    return s.getClass().getName()
        + "#"
        + STORE_IDS.computeIfAbsent(s, k -> INSTANCES.incrementAndGet())
        + "@"
        + RandomSource.JVM_TOKEN;
  }

  private static final class HashingStream extends ObjectOutputStream {
    HashingStream(OutputStream out) throws IOException {
      super(out);
      enableReplaceObject(true);
    }

    @Override
    protected Object replaceObject(Object o) {
      if (o instanceof ArrayNode n) {
        return new Token("node", n.digest());
      }
      if (o instanceof NamedContent c && c.contentName() != null) {
        return new Token("named", c.contentName());
      }
      if (o instanceof NDArray a) {
        return new Token(
            "ndarray",
            a.dtype()
                + Arrays.toString(a.shape())
                + ":"
                + HexFormat.of().formatHex(DataHash.of(a)));
      }
      if (o instanceof ZarrArray.SerializedForm z) {
        // (a ZarrArray arrives here as its serialized form: writeReplace runs before this)
        // by location and content, without the incomplete mark a crashed compute leaves on a target
        return new Token("zarr", storeToken(z.store()) + "|" + z.path() + "|" + z.identity());
      }
      if (o instanceof Store s) {
        return new Token("store", storeToken(s));
      }
      if (o instanceof Path p) {
        return new Token("path", p.toAbsolutePath().normalize().toString());
      }
      return o;
    }
  }
}
