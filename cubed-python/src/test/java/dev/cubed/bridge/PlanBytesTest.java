package dev.cubed.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.nd.Complex;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.Stores;
import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
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
}
