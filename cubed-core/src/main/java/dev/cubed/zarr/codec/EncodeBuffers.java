package dev.cubed.zarr.codec;

import com.github.luben.zstd.ZstdCompressCtx;
import java.lang.ref.SoftReference;
import java.nio.ByteBuffer;

/**
 * The buffers a chunk encode writes into, one set per thread and reused by that thread's next
 * encode, so that writing a chunk makes no chunk-sized garbage: the encoded output (the one buffer
 * the memory model counts per write, {@link ChunkCodec#writeCopies()}), a codec block and a zstd
 * compression context with the two small direct buffers it reads from and writes into. A thread
 * that writes chunks keeps the output buffer of the largest encoded chunk it wrote until the thread
 * ends (the threads executor's threads end with their compute) or the collector needs the memory
 * (soft references).
 *
 * <p>Use: {@code try (EncodeBuffers b = EncodeBuffers.acquire()) { ... b.output(n) ... }}. The
 * output stays valid after {@link #close()} until this thread's next encode: the caller stores its
 * bytes ({@link dev.cubed.zarr.store.Store#put(String, byte[], int)}, which does not keep the
 * array) before encoding again. An encode that starts while another is running on the same thread
 * (a chunk source that itself writes chunks) gets fresh buffers, so the outer one's are never
 * overwritten.
 */
final class EncodeBuffers implements AutoCloseable {
  private static final ThreadLocal<EncodeBuffers> LOCAL =
      ThreadLocal.withInitial(() -> new EncodeBuffers(true));

  private final boolean shared;
  private boolean busy;
  private SoftReference<byte[]> output;
  private SoftReference<byte[]> block;
  private ZstdCompressCtx zstd;
  private ByteBuffer zstdIn;
  private ByteBuffer zstdOut;

  private EncodeBuffers(boolean shared) {
    this.shared = shared;
  }

  /** This thread's buffers, or fresh ones if this thread's are in use by an encode. */
  static EncodeBuffers acquire() {
    EncodeBuffers b = LOCAL.get();
    if (b.busy) {
      return new EncodeBuffers(false);
    }
    b.busy = true;
    return b;
  }

  /** An output buffer of at least {@code size} bytes (contents undefined). */
  byte[] output(int size) {
    byte[] b = get(output, size);
    if (output == null || output.get() != b) {
      output = new SoftReference<>(b);
    }
    return b;
  }

  /** A codec block buffer of at least {@code size} bytes (contents undefined). */
  byte[] block(int size) {
    byte[] b = get(block, size);
    if (block == null || block.get() != b) {
      block = new SoftReference<>(b);
    }
    return b;
  }

  /**
   * A zstd compression context with zstd's default parameters (the caller sets its own). This
   * thread's buffers keep one context for the thread's life and reset it for each encode (a few MB
   * of native memory per writing thread at the default levels), so a chunk write does not allocate
   * and initialize a new context; fresh buffers (a nested encode) close theirs in {@link #close()}.
   */
  ZstdCompressCtx zstd() {
    if (zstd == null) {
      zstd = new ZstdCompressCtx();
    } else {
      zstd.reset();
    }
    return zstd;
  }

  /**
   * A direct buffer of at least {@code size} bytes, cleared, that zstd reads a stage of the chunk
   * from: zstd is handed only direct memory, so no thread is ever inside a JNI critical section
   * (heap arrays handed to native code pin the heap: a collection needed meanwhile waits for the
   * section to end and G1 grows the heap instead, to hundreds of MB on a stream of small chunk
   * writes).
   */
  ByteBuffer zstdIn(int size) {
    zstdIn = direct(zstdIn, size);
    return zstdIn;
  }

  /** A direct buffer of at least {@code size} bytes, cleared, that zstd writes its output into. */
  ByteBuffer zstdOut(int size) {
    zstdOut = direct(zstdOut, size);
    return zstdOut;
  }

  private static ByteBuffer direct(ByteBuffer b, int size) {
    if (b == null || b.capacity() < size) {
      return ByteBuffer.allocateDirect(size);
    }
    return b.clear();
  }

  private static byte[] get(SoftReference<byte[]> ref, int size) {
    if (size < 0) {
      throw new IllegalArgumentException("EncodeBuffers: size " + size + " < 0");
    }
    byte[] b = ref == null ? null : ref.get();
    return b != null && b.length >= size ? b : new byte[size];
  }

  /** Ends the encode (the output's bytes stay until this thread's next encode). */
  @Override
  public void close() {
    if (shared) {
      busy = false;
    } else if (zstd != null) {
      zstd.close();
      zstd = null;
    }
  }
}
