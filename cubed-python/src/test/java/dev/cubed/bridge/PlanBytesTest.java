package dev.cubed.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.nd.Complex;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.store.Stores;
import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

/** The bridge calls serialize and deserialize (Python's pickle of an array): plans, not data. */
class PlanBytesTest {
  @TempDir Path tmp;

  private static Object call(Calls.Session s, String name, Object... args) throws Throwable {
    return Calls.call(s, name, List.of(args));
  }

  private static Wire.Handle put(Calls.Session s, Object array) {
    return new Wire.Handle(s.put((CubedArray) array));
  }

  private static double[] values(CubedArray x) {
    return (double[]) Cubed.compute(x).get(0).data();
  }

  @Test
  void anExpressionOverInMemoryDataComesBackInAnotherSessionWithItsSpec() throws Throwable {
    Calls.Session a = new Calls.Session();
    a.spec = Spec.builder().allowedMem("777MB").reservedMem(0).workDir(tmp).build();
    Wire.Handle x =
        put(a, call(a, "fromArray", NDArray.of(new double[] {1, 2, 3, 4, 5}), new long[] {2}));
    Wire.Handle y = put(a, call(a, "Xp.multiply", x, 10.0));
    NDArray bytes = (NDArray) call(a, "serialize", y);
    assertThat(bytes.dtype()).isEqualTo(DType.UINT8);
    assertThat(bytes.ndim()).isEqualTo(1);

    Calls.Session b = new Calls.Session(); // a session with the default spec
    CubedArray back = (CubedArray) call(b, "deserialize", bytes);
    assertThat(back.chunkShape()).containsExactly(2);
    assertThat(back.spec().allowedMem()).isEqualTo(777_000_000L);
    assertThat(b.spec.allowedMem()).isNotEqualTo(777_000_000L);
    assertThat(values(back)).containsExactly(10, 20, 30, 40, 50);
  }

  @Test
  void aComplexScalarInAnOpTravels() throws Throwable {
    Calls.Session s = new Calls.Session();
    Wire.Handle x = put(s, call(s, "fromArray", NDArray.of(new double[] {1, 2}), new long[] {1}));
    Wire.Handle y = put(s, call(s, "Xp.multiply", x, new Complex(0, 2)));
    CubedArray back = (CubedArray) call(s, "deserialize", call(s, "serialize", y));
    assertThat(back.dtype()).isEqualTo(DType.COMPLEX128);
    assertThat(values(back)).containsExactly(0, 2, 0, 4); // interleaved re, im
  }

  @Test
  void aZarrInputIsReferencedByItsStoreAndReadWhenComputed() throws Throwable {
    Calls.Session s = new Calls.Session();
    String path = tmp.resolve("in.zarr").toString();
    long n = 200_000;
    Cubed.toZarr(
        Cubed.fromArray(NDArray.arange(n), new long[] {50_000}, s.spec),
        Stores.open(path),
        "",
        false);
    Wire.Handle y = put(s, call(s, "Xp.add", put(s, call(s, "fromZarr", path)), 1L));
    NDArray bytes = (NDArray) call(s, "serialize", y);
    assertThat(bytes.size()).isLessThan(20_000); // 1.6 MB of data stay in the store
    long[] twice = new long[(int) n];
    for (int i = 0; i < n; i++) {
      twice[i] = 2L * i;
    }
    Cubed.toZarr(
        Cubed.fromArray(NDArray.of(twice, n), new long[] {50_000}, s.spec),
        Stores.open(path),
        "",
        true);
    long[] got = (long[]) Cubed.compute((CubedArray) call(s, "deserialize", bytes)).get(0).data();
    assertThat(got[0]).isEqualTo(1);
    assertThat(got[(int) n - 1]).isEqualTo(2 * (n - 1) + 1);
  }

  /** Not Serializable. */
  static final class Opaque {
    final double v = 3;
  }

  @Test
  void aPlanHoldingANonSerializableValueIsRefusedNamingIt() throws Throwable {
    Calls.Session s = new Calls.Session();
    Opaque o = new Opaque();
    CubedArray f =
        Cubed.fromFunction(
            new long[] {4},
            new long[] {2},
            DType.FLOAT64,
            (index, start, shape) -> NDArray.full(DType.FLOAT64, o.v, shape),
            s.spec);
    Wire.Handle h = put(s, f);
    assertThat(values(f)).containsExactly(3, 3, 3, 3); // it computes: only pickling fails
    assertThatThrownBy(() -> call(s, "serialize", h))
        .isInstanceOf(PlanBytes.NotSerializablePlan.class)
        .hasMessageContaining("dev.cubed.bridge.PlanBytesTest$Opaque")
        .hasMessageContaining("not java.io.Serializable");
  }

  @Test
  void bytesThatAreNotAPlanOrNameOtherClassesAreRefused() throws Throwable {
    Calls.Session s = new Calls.Session();
    byte[] junk = "hello".getBytes(StandardCharsets.US_ASCII);
    assertThatThrownBy(
            () -> call(s, "deserialize", new NDArray(DType.UINT8, new long[] {junk.length}, junk)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a pickled cubed_java array");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write("cubed-java-plan-1\n".getBytes(StandardCharsets.US_ASCII));
    try (ObjectOutputStream oos = new ObjectOutputStream(out)) {
      oos.writeObject(new AssertionFailedError("not an engine class"));
    }
    byte[] other = out.toByteArray();
    assertThatThrownBy(
            () ->
                call(s, "deserialize", new NDArray(DType.UINT8, new long[] {other.length}, other)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("names classes outside the engine");
    assertThat(s.handles).isEmpty();
  }

  /** The classic "SerialDOS": 100 levels of pairs of sets; reading it hashes 2^100 sets. */
  static Object serialDos() {
    java.util.Set<Object> root = new java.util.HashSet<>();
    java.util.Set<Object> s1 = root;
    java.util.Set<Object> s2 = new java.util.HashSet<>();
    for (int i = 0; i < 100; i++) {
      java.util.Set<Object> t1 = new java.util.HashSet<>();
      java.util.Set<Object> t2 = new java.util.HashSet<>();
      t1.add("foo"); // t1 != t2
      s1.add(t1);
      s1.add(t2);
      s2.add(t1);
      s2.add(t2);
      s1 = t1;
      s2 = t2;
    }
    return root;
  }

  /** The header and a Java serialization of {@code o}, as a crafted pickle would carry. */
  static byte[] crafted(Object o) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.write(PlanBytes.MAGIC);
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(o);
    }
    return bytes.toByteArray();
  }

  /** Reads {@code b} as the bridge's deserialize does; returns the seconds it took to refuse. */
  static double refusedWithin(byte[] b, String message) {
    long t0 = System.nanoTime();
    assertTimeoutPreemptively(
        java.time.Duration.ofSeconds(20),
        () ->
            assertThatThrownBy(() -> PlanBytes.read(b))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message));
    return (System.nanoTime() - t0) / 1e9;
  }

  @Test
  void aSerialDosPayloadIsRefusedAtOnce() throws Exception {
    byte[] b = crafted(serialDos());
    assertThat(b.length).isLessThan(8_000);
    assertThat(refusedWithin(b, "filter status: REJECTED")).as("seconds").isLessThan(0.5);
  }

  @Test
  void nestedImmutableSetsAndHugeArraysAreRefusedAtOnce() throws Exception {
    Object s = Set.of("x");
    for (int i = 0; i < 100; i++) {
      s = Set.of(List.of(s, s), List.of(s)); // Set.of hashes its elements when read
    }
    assertThat(refusedWithin(crafted(s), "immutable set or map")).isLessThan(0.5);
    // an array declared far longer than the payload: refused before it is allocated
    byte[] b = crafted(new double[4]);
    int at = b.length - 4 * 8 - 4; // the length field before the 4 elements
    java.nio.ByteBuffer.wrap(b).putInt(at, Integer.MAX_VALUE - 8);
    assertThat(refusedWithin(b, "filter status: REJECTED")).isLessThan(0.5);
  }

  @Test
  void aPlanHoldingImmutableListsStillTravels() throws Throwable {
    Calls.Session s = new Calls.Session();
    Wire.Handle x =
        put(s, call(s, "fromArray", NDArray.of(new double[] {1, 2, 3, 4}), new long[] {2}));
    Wire.Handle y = x;
    for (int i = 0; i < 200; i++) { // a deep plan: depth far beyond any hash bomb's
      y = put(s, call(s, "Xp.add", y, 1.0));
    }
    CubedArray back = (CubedArray) call(s, "deserialize", call(s, "serialize", y));
    assertThat(values(back)).containsExactly(201, 202, 203, 204);
  }
}
