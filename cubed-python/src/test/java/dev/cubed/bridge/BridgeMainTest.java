package dev.cubed.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.runtime.TaskFailedException;
import dev.cubed.zarr.store.ZarrStoreException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** The server loop in-process: frames in, replies out, malformed frames answered and survived. */
class BridgeMainTest {

  /** One reply: status, and either the raw value bytes or (class, message). */
  record Reply(int status, int kind, String cls, String message, ByteBuffer value) {}

  private static byte[] frame(byte[] payload) {
    ByteBuffer b = ByteBuffer.allocate(4 + payload.length).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(payload.length).put(payload);
    return b.array();
  }

  private static byte[] call(String name, byte[]... args) {
    Wire.Out o = new Wire.Out();
    o.u8(BridgeMain.OP_CALL);
    o.str(name);
    o.u8(args.length);
    for (byte[] a : args) {
      o.write(a, 0, a.length);
    }
    return o.toByteArray();
  }

  private static byte[] f64Array(double... xs) {
    Wire.Out o = new Wire.Out();
    o.u8(Wire.NDARRAY);
    o.str("float64");
    o.u8(1);
    o.i64(xs.length);
    o.i64(8L * xs.length);
    for (double x : xs) {
      o.f64(x);
    }
    return o.toByteArray();
  }

  private static byte[] ints(long... xs) {
    Wire.Out o = new Wire.Out();
    o.u8(Wire.INTS);
    o.i32(xs.length);
    for (long x : xs) {
      o.i64(x);
    }
    return o.toByteArray();
  }

  private static byte[] handle(long id) {
    Wire.Out o = new Wire.Out();
    o.u8(Wire.HANDLE);
    o.i64(id);
    return o.toByteArray();
  }

  private static byte[] list(byte[]... xs) {
    Wire.Out o = new Wire.Out();
    o.u8(Wire.LIST);
    o.i32(xs.length);
    for (byte[] x : xs) {
      o.write(x, 0, x.length);
    }
    return o.toByteArray();
  }

  private static byte[] f64(double v) {
    Wire.Out o = new Wire.Out();
    o.u8(Wire.FLOAT);
    o.f64(v);
    return o.toByteArray();
  }

  private static List<Reply> serve(int[] status, long maxFrame, byte[]... frames) throws Exception {
    ByteArrayOutputStream in = new ByteArrayOutputStream();
    for (byte[] f : frames) {
      in.write(f);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    status[0] = new BridgeMain(new ByteArrayInputStream(in.toByteArray()), out, maxFrame).serve();
    ByteBuffer b = ByteBuffer.wrap(out.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
    List<Reply> replies = new ArrayList<>();
    while (b.hasRemaining()) {
      int len = b.getInt();
      ByteBuffer p = b.slice(b.position(), len).order(ByteOrder.LITTLE_ENDIAN);
      b.position(b.position() + len);
      int st = p.get();
      if (st == BridgeMain.STATUS_OK || st == BridgeMain.STATUS_EVENT) {
        replies.add(new Reply(st, -1, null, null, p.slice().order(ByteOrder.LITTLE_ENDIAN)));
      } else {
        int kind = p.get();
        replies.add(new Reply(st, kind, Wire.readString(p), Wire.readString(p), null));
      }
    }
    return replies;
  }

  @Test
  void aLazyOpAndItsComputeRoundTrip() throws Exception {
    int[] st = new int[1];
    List<Reply> r =
        serve(
            st,
            BridgeMain.MAX_FRAME,
            frame(call("fromArray", f64Array(1, 2, 3, 4, 5), ints(2))),
            frame(call("Xp.multiply", handle(1), f64(10.0))),
            frame(call("compute", list(handle(2)))));
    assertThat(st[0]).isZero();
    assertThat(r).hasSize(3).allMatch(x -> x.status() == 0);
    ByteBuffer info = r.get(1).value();
    assertThat(info.get()).isEqualTo((byte) Wire.ARRAYINFO);
    assertThat(info.getLong()).isEqualTo(2L);
    assertThat(Wire.readString(info)).isEqualTo("float64");
    assertThat(info.get()).isEqualTo((byte) 1);
    assertThat(info.getLong()).isEqualTo(5L);
    assertThat(info.getInt()).isEqualTo(BridgeMain.REGULAR_AXIS); // blocks 2, 2, 1: regular
    assertThat(info.getLong()).isEqualTo(2L);
    ByteBuffer v = r.get(2).value();
    assertThat(v.get()).isEqualTo((byte) Wire.LIST);
    assertThat(v.getInt()).isEqualTo(1);
    assertThat(v.get()).isEqualTo((byte) Wire.NDARRAY);
    assertThat(Wire.readString(v)).isEqualTo("float64");
    assertThat(v.get()).isEqualTo((byte) 1);
    assertThat(v.getLong()).isEqualTo(5L);
    assertThat(v.getLong()).isEqualTo(40L);
    double[] got = new double[5];
    v.asDoubleBuffer().get(got);
    assertThat(got).containsExactly(10, 20, 30, 40, 50);
  }

  @Test
  void linalgRecordsComeBackAsListsAndOnlyTheListedClassesAreReachable() throws Exception {
    int[] st = new int[1];
    Wire.Out m = new Wire.Out(); // the 2 x 2 matrix [[2, 0], [0, 3]]
    m.u8(Wire.NDARRAY);
    m.str("float64");
    m.u8(2);
    m.i64(2);
    m.i64(2);
    m.i64(32);
    for (double x : new double[] {2, 0, 0, 3}) {
      m.f64(x);
    }
    List<Reply> r =
        serve(
            st,
            BridgeMain.MAX_FRAME,
            frame(call("fromArray", m.toByteArray(), ints(1, 2))),
            frame(call("XpLinalg.qr", handle(1))),
            frame(call("XpLinalg.det", handle(1))),
            frame(call("compute", list(handle(4)))),
            frame(call("XpNorms.vectorNorm", handle(1))),
            frame(call("dev.cubed.Xp.add", handle(1), handle(1))));
    assertThat(st[0]).isZero();
    assertThat(r).hasSize(6);
    ByteBuffer qr = r.get(1).value();
    assertThat(qr.get()).isEqualTo((byte) Wire.LIST);
    assertThat(qr.getInt()).isEqualTo(2); // (Q, R)
    assertThat(qr.get()).isEqualTo((byte) Wire.ARRAYINFO);
    assertThat(qr.getLong()).isEqualTo(2L);
    ByteBuffer det = r.get(3).value();
    assertThat(det.get()).isEqualTo((byte) Wire.LIST);
    assertThat(det.getInt()).isEqualTo(1);
    assertThat(det.get()).isEqualTo((byte) Wire.NDARRAY);
    assertThat(Wire.readString(det)).isEqualTo("float64");
    assertThat(det.get()).isEqualTo((byte) 0);
    assertThat(det.getLong()).isEqualTo(8L);
    assertThat(det.getDouble()).isCloseTo(6.0, Offset.offset(1e-12));
    for (int i = 4; i <= 5; i++) {
      assertThat(r.get(i).kind()).isEqualTo(BridgeMain.ERR_UNSUPPORTED);
      assertThat(r.get(i).message()).contains("no bridge function");
    }
  }

  @Test
  void malformedFramesGetErrorsAndTheServerGoesOn() throws Exception {
    int[] st = new int[1];
    byte[] badTag = call("echo", new byte[] {99});
    byte[] truncated = call("echo", new byte[] {Wire.INT, 1, 2});
    byte[] badDtype = call("echo", list(new byte[] {Wire.DTYPE, 2, 0, 0, 0, 'f', '9'}));
    List<Reply> r =
        serve(
            st,
            64,
            frame(new byte[0]),
            frame(new byte[] {42}),
            frame(badTag),
            frame(truncated),
            frame(badDtype),
            frame(new byte[100]),
            frame(call("Xp.sin", handle(77))),
            frame(call("Runtime.exec", f64(1))),
            frame(new byte[] {BridgeMain.OP_PING}));
    assertThat(st[0]).isZero();
    assertThat(r).hasSize(9);
    assertThat(r.get(0).message()).contains("empty frame");
    assertThat(r.get(1).message()).contains("unknown op 42");
    assertThat(r.get(2).message()).contains("unknown value tag 99");
    assertThat(r.get(3).message()).contains("ends inside a value");
    assertThat(r.get(4).message()).contains("unknown dtype 'f9'");
    assertThat(r.get(5).message()).contains("100 bytes exceeds the limit of 64");
    for (int i = 0; i <= 5; i++) {
      assertThat(r.get(i).cls()).isEqualTo("MalformedFrame");
      assertThat(r.get(i).kind()).isEqualTo(BridgeMain.ERR_MALFORMED);
    }
    assertThat(r.get(6).cls()).isEqualTo("java.lang.IllegalArgumentException");
    assertThat(r.get(6).kind()).isEqualTo(BridgeMain.ERR_ARGUMENT);
    assertThat(r.get(6).message()).contains("no array with handle 77");
    assertThat(r.get(7).kind()).isEqualTo(BridgeMain.ERR_UNSUPPORTED);
    assertThat(r.get(7).message()).contains("no bridge function 'Runtime.exec'");
    assertThat(r.get(8).status()).isZero();
  }

  @Test
  void aNegativeLengthEndsTheSessionWithAnError() throws Exception {
    int[] st = new int[1];
    byte[] neg = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(-3).array();
    List<Reply> r = serve(st, BridgeMain.MAX_FRAME, neg, frame(new byte[] {0}));
    assertThat(st[0]).isEqualTo(2);
    assertThat(r).hasSize(1);
    assertThat(r.get(0).message()).contains("frame length -3 is negative");
  }

  @Test
  void javaExceptionsComeBackWithClassAndMessage() throws Exception {
    int[] st = new int[1];
    List<Reply> r =
        serve(
            st,
            BridgeMain.MAX_FRAME,
            frame(call("fromArray", f64Array(1, 2, 3), ints(3))),
            frame(call("Xp.reshape", handle(1), ints(2, 2))));
    assertThat(r.get(1).status()).isEqualTo(1);
    assertThat(r.get(1).kind()).isEqualTo(BridgeMain.ERR_ARGUMENT);
    assertThat(r.get(1).message()).contains("3").contains("2");
    assertThat(new String(r.get(1).cls().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))
        .endsWith("Exception");
  }

  /** The kind (first element, a string) of an event frame's list value. */
  private static String eventKind(Reply r) {
    ByteBuffer v = r.value().duplicate().order(ByteOrder.LITTLE_ENDIAN);
    assertThat(v.get()).isEqualTo((byte) Wire.LIST);
    v.getInt();
    assertThat(v.get()).isEqualTo((byte) Wire.STR);
    return Wire.readString(v);
  }

  @Test
  void computeWithEventsSendsEventFramesBeforeItsReply() throws Exception {
    Wire.Out yes = new Wire.Out();
    yes.u8(Wire.BOOL);
    yes.u8(1);
    int[] st = new int[1];
    List<Reply> r =
        serve(
            st,
            BridgeMain.MAX_FRAME,
            frame(call("fromArray", f64Array(1, 2, 3, 4, 5), ints(2))),
            frame(call("Xp.multiply", handle(1), f64(10.0))),
            frame(call("computeWith", list(handle(2)), list(), yes.toByteArray())),
            frame(call("compute", list(handle(2)))));
    assertThat(st[0]).isZero();
    List<Integer> statuses = r.stream().map(Reply::status).toList();
    // fromArray, multiply; then the events (compute_start, op_start, 3 task ends, op_end,
    // compute_end) and the compute's reply; then the plain compute's reply, with no event
    assertThat(statuses.subList(0, 2)).containsOnly(BridgeMain.STATUS_OK);
    assertThat(statuses.get(statuses.size() - 1)).isEqualTo(BridgeMain.STATUS_OK);
    assertThat(statuses.get(statuses.size() - 2)).isEqualTo(BridgeMain.STATUS_OK);
    List<String> kinds =
        r.subList(2, r.size() - 2).stream()
            .peek(x -> assertThat(x.status()).isEqualTo(BridgeMain.STATUS_EVENT))
            .map(BridgeMainTest::eventKind)
            .toList();
    assertThat(kinds.get(0)).isEqualTo("compute_start");
    assertThat(kinds.get(kinds.size() - 1)).isEqualTo("compute_end");
    assertThat(kinds.stream().filter("task_end"::equals).count()).isEqualTo(3);
  }

  private static byte[] str(String v) {
    Wire.Out o = new Wire.Out();
    o.u8(Wire.STR);
    o.str(v);
    return o.toByteArray();
  }

  @Test
  void aRegularGridIsSentAsItsChunkSizeNotItsBlocks() throws Exception {
    int[] st = new int[1];
    Wire.Out dt = new Wire.Out();
    dt.u8(Wire.DTYPE);
    dt.str("float64");
    long n = 100_000_000L; // 10^8 blocks of one element: an 800 MB list if enumerated
    List<Reply> r =
        serve(
            st,
            BridgeMain.MAX_FRAME,
            frame(
                call("Xp.zeros", ints(n, 3), dt.toByteArray(), ints(1, 2), new byte[] {Wire.SPEC})),
            frame(call("fromArray", f64Array(1, 2, 3, 4, 5), list(ints(2, 3)))));
    assertThat(r).allMatch(x -> x.status() == 0);
    ByteBuffer info = r.get(0).value();
    assertThat(info.remaining()).isLessThan(100);
    assertThat(info.get()).isEqualTo((byte) Wire.ARRAYINFO);
    info.getLong();
    assertThat(Wire.readString(info)).isEqualTo("float64");
    assertThat(info.get()).isEqualTo((byte) 2);
    assertThat(info.getLong()).isEqualTo(n);
    assertThat(info.getLong()).isEqualTo(3L);
    assertThat(info.getInt()).isEqualTo(BridgeMain.REGULAR_AXIS);
    assertThat(info.getLong()).isEqualTo(1L);
    assertThat(info.getInt()).isEqualTo(BridgeMain.REGULAR_AXIS);
    assertThat(info.getLong()).isEqualTo(2L);
    ByteBuffer irregular = r.get(1).value(); // blocks 2, 3: sent as they are
    irregular.get();
    irregular.getLong();
    Wire.readString(irregular);
    irregular.get();
    irregular.getLong();
    assertThat(irregular.getInt()).isEqualTo(2);
    assertThat(irregular.getLong()).isEqualTo(2L);
    assertThat(irregular.getLong()).isEqualTo(3L);
  }

  @Test
  void anOutOfMemoryErrorAnywhereInTheCauseChainIsTheMemoryKind() {
    OutOfMemoryError oom = new OutOfMemoryError("Java heap space");
    assertThat(BridgeMain.kind(oom)).isEqualTo(BridgeMain.ERR_MEMORY);
    assertThat(BridgeMain.kind(new RuntimeException("task 3 failed", new ExecutionException(oom))))
        .isEqualTo(BridgeMain.ERR_MEMORY);
    assertThat(BridgeMain.kind(new IllegalArgumentException("x")))
        .isEqualTo(BridgeMain.ERR_ARGUMENT);
    // a task failing deterministically has its cause's kind (a ValueError for bad data); a
    // task that failed every attempt (transient errors) stays the generic kind
    IllegalArgumentException bad = new IllegalArgumentException("All-NaN slice encountered");
    assertThat(BridgeMain.kind(new TaskFailedException("nanargmax", new long[] {0}, 1, bad, true)))
        .isEqualTo(BridgeMain.ERR_ARGUMENT);
    assertThat(
            BridgeMain.kind(
                new TaskFailedException(
                    "nanargmax", new long[] {0}, 3, new IOException("gone"), false)))
        .isEqualTo(BridgeMain.ERR_OTHER);
    // a store that cannot be reached (the HTTP store after its retries) is Python's OSError
    assertThat(
            BridgeMain.kind(new ZarrStoreException("HTTP read failed", new IOException("refused"))))
        .isEqualTo(BridgeMain.ERR_IO);
    assertThat(BridgeMain.memoryMessage(oom))
        .startsWith("Java heap space (heap limit ")
        .endsWith(" MiB)");
  }

  @Test
  void credentialsInUrlsNeverLeaveTheBridge() throws Exception {
    int[] st = new int[1];
    List<Reply> r =
        serve(
            st,
            BridgeMain.MAX_FRAME,
            frame(call("fromZarr", str("s3://AKIAX:s3cr3t@minio.local:9000/bucket/a.zarr"))),
            frame(call("fromZarr", str("https://ghp_T0KEN@example.org/a.zarr"))));
    assertThat(r).allMatch(x -> x.status() == 1);
    assertThat(r.get(0).message())
        .contains("s3://***@minio.local:9000/bucket/a.zarr")
        .doesNotContain("s3cr3t")
        .doesNotContain("AKIAX");
    // https:// is the HTTP store: an unknown host fails its reads (after retries), and the
    // message names the location with the credentials left out
    assertThat(r.get(1).message())
        .contains("https://")
        .contains("example.org/a.zarr")
        .doesNotContain("T0KEN");
    assertThat(r.get(1).kind()).isEqualTo(BridgeMain.ERR_IO);
    assertThat(Redact.urls("plain /tmp/a@b, file:///x@y and https://h/p@q"))
        .isEqualTo("plain /tmp/a@b, file:///x@y and https://h/p@q");
    // the bridge's standard error (its lines and the engine's log) goes through this stream
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream ps = new PrintStream(Redact.lines(err), true, StandardCharsets.UTF_8);
    ps.print("WARNING: cannot write s3://AKIAX:");
    ps.println("s3cr3t@host/work, retrying");
    ps.println("a line without credentials");
    assertThat(err.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "WARNING: cannot write s3://***@host/work, retrying"
                + System.lineSeparator()
                + "a line without credentials"
                + System.lineSeparator());
  }
}
