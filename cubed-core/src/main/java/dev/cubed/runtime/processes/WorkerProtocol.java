package dev.cubed.runtime.processes;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The frames exchanged between the processes executor and its worker JVMs over the worker's stdin
 * (parent to worker) and stdout (worker to parent). A frame is {@code int MAGIC, byte type, int
 * length, byte[length] payload}; a wrong magic or a length out of range means the stream is corrupt
 * (the peer is treated as dead). Payloads are written with {@link DataOutputStream}; only {@link
 * #DEFINE} carries Java-serialized bytes (a task function), and only on this private pipe between
 * processes of the same installation.
 */
final class WorkerProtocol {
  static final int MAGIC = 0xC0BE_D10A;

  /** Largest payload accepted (a serialized task function can be large; 1 GiB is corrupt). */
  static final int MAX_PAYLOAD = 1 << 30;

  /** Worker to parent, once at start: pid, heap used after a GC, VmRSS (or -1). */
  static final byte HELLO = 1;

  /** Parent to worker: op index, serialized {@link dev.cubed.runtime.TaskFunction}. */
  static final byte DEFINE = 2;

  /** Parent to worker: op index ({@code -1} = an empty task), key. */
  static final byte TASK = 3;

  /** Worker to parent: the task succeeded, with its measurements ({@link Measured}). */
  static final byte OK = 4;

  /** Worker to parent: the task failed ({@link Failure}). */
  static final byte ERR = 5;

  /** Parent to worker: exit now. */
  static final byte EXIT = 6;

  /**
   * Parent to worker: forget every task function (a compute ended and the worker goes back to the
   * pool); the next task runs after a full GC (the worker's idle baseline changed).
   */
  static final byte RESET = 7;

  private WorkerProtocol() {}

  /** One frame. */
  record Frame(byte type, byte[] payload) {
    DataInputStream data() {
      return new DataInputStream(new ByteArrayInputStream(payload));
    }
  }

  /**
   * What a worker measured during one task (bytes; -1 = unknown). {@code heapAtStart} is the
   * worker's idle baseline (see {@link WorkerMain}); {@code peakGrowth} the task's peak heap
   * growth: the largest occupancy above the heap in use at its start until its first collection
   * (exact: nothing was collected, so everything present at the start is still there), and above
   * the idle baseline after it (the leftover of earlier tasks, at most the GC skip slack, may then
   * be counted as the task's).
   */
  record Measured(
      long heapAtStart,
      long heapAtEnd,
      long heapMaxBeforeGc,
      long heapMaxAfterGc,
      long heapMaxAfterMajorGc,
      int gcs,
      long vmHwm,
      long nanos,
      long peakGrowth) {
    /**
     * The heap the task was seen to hold: the largest heap occupancy right after a collection
     * during the task if one ran (garbage removed), else the occupancy at its end (nothing was
     * collected, so this is its peak: everything it allocated, garbage included).
     */
    long seenHeld() {
      return gcs > 0 ? heapMaxAfterGc : heapAtEnd;
    }

    /** The heap's peak occupancy during the task, garbage included. */
    long peakOccupancy() {
      return Math.max(heapAtEnd, heapMaxBeforeGc);
    }
  }

  /** A task's failure as text: the class names of the cause chain, outermost first. */
  record Failure(List<String> classChain, String message, String stackText) {}

  /** The hello: who the worker is and its idle footprint. */
  record Hello(long pid, long heapAfterGc, long rss) {}

  static void write(DataOutputStream out, byte type, byte[] payload) throws IOException {
    synchronized (out) {
      out.writeInt(MAGIC);
      out.writeByte(type);
      out.writeInt(payload.length);
      out.write(payload);
      out.flush();
    }
  }

  /** Reads one frame; EOFException at a clean end of stream. */
  static Frame read(DataInputStream in) throws IOException {
    int magic = in.readInt();
    if (magic != MAGIC) {
      throw new IOException(
          String.format(
              "corrupt worker channel: frame magic 0x%08X, expected"
                  + " 0x%08X (something else wrote to the channel)",
              magic, MAGIC));
    }
    byte type = in.readByte();
    int len = in.readInt();
    if (len < 0 || len > MAX_PAYLOAD) {
      throw new IOException("corrupt worker channel: frame length " + len);
    }
    byte[] p = new byte[len];
    in.readFully(p);
    return new Frame(type, p);
  }

  /** Builds a payload. */
  @FunctionalInterface
  interface Body {
    void write(DataOutputStream d) throws IOException;
  }

  static byte[] payload(Body body) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (DataOutputStream d = new DataOutputStream(b)) {
      body.write(d);
    } catch (IOException e) {
      throw new IllegalStateException(e); // a byte array stream does not fail
    }
    return b.toByteArray();
  }

  static void writeString(DataOutputStream d, String s) throws IOException {
    byte[] b = (s == null ? "" : s).getBytes(StandardCharsets.UTF_8);
    d.writeInt(b.length);
    d.write(b);
  }

  static String readString(DataInputStream d) throws IOException {
    int n = d.readInt();
    if (n < 0 || n > MAX_PAYLOAD) {
      throw new EOFException("bad string length " + n);
    }
    byte[] b = new byte[n];
    d.readFully(b);
    return new String(b, StandardCharsets.UTF_8);
  }

  static byte[] task(int op, long[] key) {
    return payload(
        d -> {
          d.writeInt(op);
          d.writeInt(key.length);
          for (long k : key) {
            d.writeLong(k);
          }
        });
  }

  static byte[] define(int op, byte[] function) {
    return payload(
        d -> {
          d.writeInt(op);
          d.writeInt(function.length);
          d.write(function);
        });
  }

  static byte[] ok(Measured m) {
    return payload(
        d -> {
          d.writeLong(m.heapAtStart());
          d.writeLong(m.heapAtEnd());
          d.writeLong(m.heapMaxBeforeGc());
          d.writeLong(m.heapMaxAfterGc());
          d.writeLong(m.heapMaxAfterMajorGc());
          d.writeInt(m.gcs());
          d.writeLong(m.vmHwm());
          d.writeLong(m.nanos());
          d.writeLong(m.peakGrowth());
        });
  }

  static Measured readOk(Frame f) throws IOException {
    DataInputStream d = f.data();
    return new Measured(
        d.readLong(),
        d.readLong(),
        d.readLong(),
        d.readLong(),
        d.readLong(),
        d.readInt(),
        d.readLong(),
        d.readLong(),
        d.readLong());
  }

  static byte[] err(Throwable t) {
    List<String> chain = new ArrayList<>();
    for (Throwable c = t; c != null && chain.size() < 16; c = c.getCause()) {
      chain.add(c.getClass().getName());
    }
    StringWriter sw = new StringWriter();
    t.printStackTrace(new PrintWriter(sw));
    String stack = sw.toString();
    String text = stack.length() > 16_000 ? stack.substring(0, 16_000) + "\n\t..." : stack;
    return payload(
        d -> {
          d.writeInt(chain.size());
          for (String c : chain) {
            writeString(d, c);
          }
          writeString(d, t.getMessage());
          writeString(d, text);
        });
  }

  static Failure readErr(Frame f) throws IOException {
    DataInputStream d = f.data();
    int n = d.readInt();
    List<String> chain = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      chain.add(readString(d));
    }
    return new Failure(chain, readString(d), readString(d));
  }

  static byte[] hello(Hello h) {
    return payload(
        d -> {
          d.writeLong(h.pid());
          d.writeLong(h.heapAfterGc());
          d.writeLong(h.rss());
        });
  }

  static Hello readHello(Frame f) throws IOException {
    DataInputStream d = f.data();
    return new Hello(d.readLong(), d.readLong(), d.readLong());
  }
}
