package dev.cubed.bridge;

import dev.cubed.CubedArray;
import dev.cubed.nd.Complex;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.runtime.TaskFailedException;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM side of the Python package {@code cubed_java}: a server on its own standard input and
 * output, which only the parent process that started it can write to or read from.
 *
 * <p>Frames: a little-endian {@code int32} payload length, then the payload. A request payload is
 * an op byte ({@link #OP_PING} or {@link #OP_CALL}); a CALL carries a function name (a string value
 * body) and a count byte followed by that many tagged values ({@link Wire}). The reply is one
 * frame: status byte 0 and a tagged value, or status 1, an error kind byte ({@code ERR_*}) and two
 * strings (the Java exception's class name and its message). Before it, a call that streams events
 * ({@code computeWith} with callbacks) sends any number of event frames: status {@link
 * #STATUS_EVENT} and one tagged value (the event as a list of plain values), written while the
 * compute runs. A malformed request gets an error reply and the server goes on; a negative length,
 * which leaves no way to find the next frame, gets an error reply and ends the session (exit status
 * 2). Everything the engine logs goes to standard error.
 */
public final class BridgeMain {
  static final int OP_PING = 0;
  static final int OP_CALL = 1;

  /** First byte of a reply: the call's value follows. */
  static final int STATUS_OK = 0;

  /** First byte of a reply: an error follows. */
  static final int STATUS_ERROR = 1;

  /** First byte of an event frame, sent before the reply of a call that streams events. */
  static final int STATUS_EVENT = 2;

  static final int ERR_OTHER = 0;
  static final int ERR_ARGUMENT = 1;
  static final int ERR_UNSUPPORTED = 2;
  static final int ERR_INDEX = 3;
  static final int ERR_ARITHMETIC = 4;
  static final int ERR_MEMORY = 5;
  static final int ERR_MALFORMED = 6;

  /** A store could not be read or written (unreachable server, I/O failure): Python's OSError. */
  static final int ERR_IO = 7;

  /** In a new array's chunks on the wire: this axis is regular, its chunk size follows. */
  static final int REGULAR_AXIS = -1;

  /** Largest request payload accepted (the Java arrays behind an NDArray are int-indexed). */
  static final int MAX_FRAME = Integer.MAX_VALUE - 16;

  /**
   * Written once on standard output before any reply (python/cubed_java/_bridge.py's {@code SYNC}):
   * the Python side skips what the JVM printed there before main.
   */
  static final byte[] SYNC = "\0\0cubed-java-bridge\0\1".getBytes(StandardCharsets.ISO_8859_1);

  /** Largest single read or write on the pipe. */
  static final int IO_PIECE = 1 << 20;

  /** CUBED_BRIDGE_TRACE=1: one line per frame on standard error (read and handling times). */
  private static final boolean TRACE = "1".equals(System.getenv("CUBED_BRIDGE_TRACE"));

  private final DataInputStream in;
  private final OutputStream out;
  private final Calls.Session session = new Calls.Session();
  private final SharedMemory shm;
  private final long maxFrame;
  private final byte[] piece = new byte[IO_PIECE];

  BridgeMain(InputStream in, OutputStream out, long maxFrame) {
    this(in, out, maxFrame, new SharedMemory(null, Long.MAX_VALUE));
  }

  BridgeMain(InputStream in, OutputStream out, long maxFrame, SharedMemory shm) {
    this.shm = shm;
    this.in = new DataInputStream(new BufferedInputStream(in, 1 << 16));
    this.out = new PieceOutputStream(new BufferedOutputStream(out, 1 << 16));
    this.maxFrame = maxFrame;
    session.events = this::event;
    session.shm = shm;
  }

  /**
   * Writes one event frame (status {@link #STATUS_EVENT} and the value) and flushes it, so the
   * client sees it while the call goes on. Called from the compute's threads, one frame at a time;
   * a value holding arrays is refused (events are plain values).
   */
  private synchronized void event(Object value) {
    Wire.Out o = new Wire.Out();
    o.u8(STATUS_EVENT);
    List<NDArray> arrays = new ArrayList<>();
    writeValue(o, value, arrays);
    if (!arrays.isEmpty()) {
      throw new IllegalArgumentException("an event holds no arrays");
    }
    try {
      writeLength(o.size());
      out.write(o.buffer(), 0, o.size());
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("writing an event to the Python client", e);
    }
  }

  /** Splits large writes into {@link #IO_PIECE} pieces (see the read loop in serve). */
  private static final class PieceOutputStream extends FilterOutputStream {
    PieceOutputStream(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      for (int i = 0; i < len; i += IO_PIECE) {
        out.write(b, off + i, Math.min(IO_PIECE, len - i));
      }
    }
  }

  /** Serves the parent process on stdin/stdout until it closes stdin. */
  public static void main(String[] args) throws IOException {
    OutputStream realOut = new FileOutputStream(FileDescriptor.out);
    // nothing else may write into the reply stream; what goes to standard error (the engine's
    // log too) has the credentials of URLs hidden
    PrintStream err =
        new PrintStream(
            Redact.lines(new FileOutputStream(FileDescriptor.err)), true, StandardCharsets.UTF_8);
    System.setOut(err);
    System.setErr(err);
    // the sync marker: what the JVM printed on stdout before main (a start-up message of a JVM
    // option) comes before it, and the Python side passes that on to standard error
    realOut.write(SYNC);
    realOut.flush();
    long maxFrame = Long.getLong("cubed.bridge.maxFrame", MAX_FRAME);
    SharedMemory shm = SharedMemory.fromEnv();
    int status;
    try {
      status =
          new BridgeMain(new FileInputStream(FileDescriptor.in), realOut, maxFrame, shm).serve();
    } catch (Throwable e) {
      // printed here rather than by the default handler, so that URLs lose their credentials
      StringWriter trace = new StringWriter();
      e.printStackTrace(new PrintWriter(trace));
      System.err.print("bridge: stopped by " + Redact.urls(trace.toString()));
      status = 1;
    } finally {
      shm.cleanUp();
    }
    System.exit(status);
  }

  /** Serves requests until end of input; returns the exit status (0, or 2 for a broken stream). */
  int serve() throws IOException {
    byte[] lenBytes = new byte[4];
    while (true) {
      try {
        in.readFully(lenBytes);
      } catch (EOFException e) {
        shm.endOfSession();
        return 0;
      }
      shm.cleanUp(); // reply files of the last request are mapped by the reader or unwanted
      int len = ByteBuffer.wrap(lenBytes).order(ByteOrder.LITTLE_ENDIAN).getInt();
      if (len < 0) {
        replyError(
            "MalformedFrame",
            "frame length "
                + len
                + " is negative: the stream cannot"
                + " be resynchronised; closing the session");
        return 2;
      }
      if (len > maxFrame) {
        discard(len);
        replyError(
            "MalformedFrame",
            "frame of "
                + len
                + " bytes exceeds the limit of "
                + maxFrame
                + " bytes; send the array in parts (from_array with smaller blocks)");
        continue;
      }
      long t0 = System.nanoTime();
      byte[] payload;
      try {
        payload = new byte[len];
      } catch (OutOfMemoryError e) {
        // the frame does not fit the heap: skip it and say so; nothing else was allocated
        discard(len);
        replyError(
            ERR_MEMORY,
            e.getClass().getName(),
            memoryMessage(e) + " (reading a request" + " of " + len + " bytes)");
        continue;
      }
      // at most 1 MiB per read: the JDK copies a read through a native buffer of the request's
      // size, so one large request would allocate and touch that much native memory each time
      for (int off = 0; off < len; ) {
        int n = in.read(payload, off, Math.min(IO_PIECE, len - off));
        if (n < 0) {
          shm.endOfSession();
          return 0;
        }
        off += n;
      }
      long t1 = System.nanoTime();
      handle(ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN));
      if (TRACE) {
        System.err.printf(
            "bridge: frame %d bytes read in %.3f ms, handled and answered in %.3f" + " ms%n",
            len, (t1 - t0) / 1e6, (System.nanoTime() - t1) / 1e6);
      }
    }
  }

  private void handle(ByteBuffer b) throws IOException {
    Object result;
    try {
      if (!b.hasRemaining()) {
        throw new Wire.MalformedMessageException("empty frame: expected an op byte");
      }
      int op = b.get() & 0xff;
      if (op == OP_PING) {
        result = null;
      } else if (op == OP_CALL) {
        String name = Wire.readString(b);
        if (!b.hasRemaining()) {
          throw new Wire.MalformedMessageException("CALL " + name + " has no argument count");
        }
        int n = b.get() & 0xff;
        List<Object> args = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          args.add(Wire.read(b));
        }
        if (b.hasRemaining()) {
          throw new Wire.MalformedMessageException(
              "CALL " + name + ": " + b.remaining() + " bytes left after " + n + " arguments");
        }
        result = Calls.call(session, name, args);
      } else {
        throw new Wire.MalformedMessageException("unknown op " + op + " (0 ping, 1 call)");
      }
    } catch (Wire.MalformedMessageException e) {
      replyError("MalformedFrame", e.getMessage());
      return;
    } catch (Throwable e) {
      if (e instanceof VirtualMachineError && !(e instanceof OutOfMemoryError)) {
        throw (VirtualMachineError) e;
      }
      replyError(e);
      return;
    }
    Wire.Out o = new Wire.Out();
    o.u8(STATUS_OK);
    List<NDArray> arrays = new ArrayList<>();
    try {
      writeValue(o, result, arrays);
    } catch (RuntimeException | OutOfMemoryError e) {
      o = null; // the partial reply is garbage now
      replyError(e);
      return;
    }
    // arrays are written after the header, from their Java arrays in 1 MiB pieces
    long total = o.size();
    for (NDArray a : arrays) {
      total += a.nbytes();
    }
    if (total > Integer.MAX_VALUE) {
      replyError(
          ERR_ARGUMENT,
          "java.lang.IllegalArgumentException",
          "the result is "
              + total
              + " bytes,"
              + " more than one frame holds (2 GiB): compute it in parts or write it with to_zarr");
      return;
    }
    long t0 = System.nanoTime();
    synchronized (this) { // after any event frame of the call
      writeLength((int) total);
      out.write(o.buffer(), 0, o.size());
      for (NDArray a : arrays) {
        writeRaw(a);
      }
      out.flush();
    }
    if (TRACE && total > (1 << 20)) {
      System.err.printf(
          "bridge: reply of %d bytes written in %.3f ms%n", total, (System.nanoTime() - t0) / 1e6);
    }
  }

  /**
   * Reads and drops {@code n} bytes of input. Not {@code skipNBytes}: on a pipe that ends in {@code
   * lseek}, which fails ("Illegal seek") and would end the session.
   */
  private void discard(long n) throws IOException {
    while (n > 0) {
      int k = in.read(piece, 0, (int) Math.min(piece.length, n));
      if (k < 0) {
        throw new EOFException("end of input inside a frame");
      }
      n -= k;
    }
  }

  /** Writes an array's elements little-endian without a whole-array byte copy. */
  private void writeRaw(NDArray a) throws IOException {
    int size = a.size();
    int per = IO_PIECE / Math.max(1, a.dtype().itemSize());
    ByteBuffer bb = ByteBuffer.wrap(piece).order(ByteOrder.LITTLE_ENDIAN);
    for (int off = 0; off < size; off += per) {
      int n = Math.min(per, size - off);
      bb.clear();
      SharedMemory.put(a, off, n, bb);
      out.write(piece, 0, bb.position());
    }
  }

  private void writeLength(int n) throws IOException {
    out.write(n & 0xff);
    out.write((n >>> 8) & 0xff);
    out.write((n >>> 16) & 0xff);
    out.write((n >>> 24) & 0xff);
  }

  /**
   * The error kind byte: which Python exception class the client raises. An OutOfMemoryError
   * anywhere in the cause chain (a task thread's, wrapped by the executor) is {@link #ERR_MEMORY}.
   * A task that failed deterministically ({@code TaskFailedException.deterministic()}: bad data,
   * e.g. nanargmax over a slice of NaNs only) is the kind of its cause, so Python sees the
   * ValueError NumPy would raise.
   */
  static int kind(Throwable e) {
    if (outOfMemory(e) != null) {
      return ERR_MEMORY;
    }
    if (e instanceof TaskFailedException tf && tf.deterministic() && tf.getCause() != null) {
      return kind(tf.getCause());
    }
    if (e instanceof IllegalArgumentException) {
      return ERR_ARGUMENT;
    } else if (e instanceof UnsupportedOperationException) {
      return ERR_UNSUPPORTED;
    } else if (e instanceof IndexOutOfBoundsException) {
      return ERR_INDEX;
    } else if (e instanceof ArithmeticException) {
      return ERR_ARITHMETIC;
    } else if (e instanceof UncheckedIOException || e instanceof IOException) {
      return ERR_IO;
    }
    return ERR_OTHER;
  }

  /** The OutOfMemoryError in {@code e}'s cause chain, or null. */
  static OutOfMemoryError outOfMemory(Throwable e) {
    for (int depth = 0; e != null && depth < 32; e = e.getCause(), depth++) {
      if (e instanceof OutOfMemoryError oom) {
        return oom;
      }
    }
    return null;
  }

  /**
   * The message of an out-of-memory reply: the JVM's own words and its heap limit. The call's
   * objects are unreachable once the error has unwound it, so the session goes on.
   */
  static String memoryMessage(OutOfMemoryError e) {
    return e.getMessage() + " (heap limit " + (Runtime.getRuntime().maxMemory() >> 20) + " MiB)";
  }

  /** Replies with {@code e}'s kind, class and message (an out-of-memory cause is named). */
  private void replyError(Throwable e) throws IOException {
    if (TRACE) {
      StringWriter trace = new StringWriter();
      e.printStackTrace(new PrintWriter(trace));
      System.err.print("bridge: error reply for " + Redact.urls(trace.toString()));
    }
    OutOfMemoryError oom = outOfMemory(e);
    if (oom != null) {
      replyError(ERR_MEMORY, oom.getClass().getName(), memoryMessage(oom));
    } else {
      replyError(kind(e), e.getClass().getName(), withHint(String.valueOf(e.getMessage())));
    }
  }

  /**
   * The message with what a Python user does about it, where the engine's own words are not enough:
   * an executor module missing from the bridge's class path.
   */
  static String withHint(String message) {
    if (message.startsWith("unknown executor '") && message.contains("on the classpath")) {
      return message
          + ". From Python: start the bridge with a class path holding it, CUBED_JAVA_CLASSPATH"
          + " (docs/python.md, \"Python functions on Spark and Beam\")";
    }
    return message;
  }

  private void replyError(String cls, String message) throws IOException {
    replyError(ERR_MALFORMED, cls, message);
  }

  private synchronized void replyError(int kind, String cls, String message) throws IOException {
    Wire.Out o = new Wire.Out();
    o.u8(STATUS_ERROR);
    o.u8(kind);
    o.str(cls);
    o.str(Redact.urls(message));
    writeLength(o.size());
    out.write(o.buffer(), 0, o.size());
    out.flush();
  }

  /**
   * Encodes a result. NDArrays are encoded as their header with the raw bytes appended after the
   * whole value (in order), so that the header stays small; the Python side reads the same way.
   */
  private void writeValue(Wire.Out o, Object v, List<NDArray> arrays) {
    if (v == null) {
      o.u8(Wire.NONE);
    } else if (v instanceof Boolean x) {
      o.u8(Wire.BOOL);
      o.u8(x ? 1 : 0);
    } else if (v instanceof Long
        || v instanceof Integer
        || v instanceof Short
        || v instanceof Byte) {
      o.u8(Wire.INT);
      o.i64(((Number) v).longValue());
    } else if (v instanceof Double || v instanceof Float) {
      o.u8(Wire.FLOAT);
      o.f64(((Number) v).doubleValue());
    } else if (v instanceof Complex c) {
      o.u8(Wire.COMPLEX);
      o.f64(c.re());
      o.f64(c.im());
    } else if (v instanceof String s) {
      o.u8(Wire.STR);
      o.str(s);
    } else if (v instanceof DType d) {
      o.u8(Wire.DTYPE);
      o.str(d.standardName());
    } else if (v instanceof CubedArray x) {
      o.u8(Wire.ARRAYINFO);
      o.i64(session.put(x));
      o.str(x.dtype().standardName());
      long[] shape = x.shape();
      o.u8(shape.length);
      for (long d : shape) {
        o.i64(d);
      }
      // a regular grid is its chunk size per axis (never its block list: an axis of 10^9
      // blocks would be 8 GB); an irregular one is sent as it is
      if (x.hasRegularChunks()) {
        for (long c : x.chunkShape()) {
          o.i32(REGULAR_AXIS);
          o.i64(c);
        }
      } else {
        for (long[] axis : x.chunks()) {
          o.i32(axis.length);
          for (long c : axis) {
            o.i64(c);
          }
        }
      }
    } else if (v instanceof SharedMemory.Mapped m) {
      o.u8(Wire.SHMARRAY);
      o.str(m.dtype().standardName());
      o.u8(m.shape().length);
      for (long d : m.shape()) {
        o.i64(d);
      }
      o.i64(m.nbytes());
      o.str(m.path());
    } else if (v instanceof NDArray a) {
      boolean shared = shm.wants(a);
      o.u8(shared ? Wire.SHMARRAY : Wire.NDARRAY);
      o.str(a.dtype().standardName());
      o.u8(a.ndim());
      for (long d : a.shape()) {
        o.i64(d);
      }
      o.i64(a.nbytes());
      if (!shared) {
        arrays.add(a);
        return;
      }
      try {
        o.str(shm.write(a));
      } catch (IOException e) {
        throw new UncheckedIOException("writing a result to shared memory: " + e, e);
      }
    } else if (v instanceof List<?> l) {
      o.u8(Wire.LIST);
      o.i32(l.size());
      for (Object e : l) {
        writeValue(o, e, arrays);
      }
    } else if (v instanceof Object[] l) {
      writeValue(o, List.of(l), arrays);
    } else {
      o.u8(Wire.STR);
      o.str(v.toString());
    }
  }
}
