package dev.cubed.zarr.codec;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.util.Native;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Loads zstd-jni's native library on a daemon thread when the first zstd codec of the JVM is made
 * (an array opened or created with it), while the caller goes on building and planning its
 * expression. zstd-jni unpacks its library from its jar into {@code java.io.tmpdir} and loads it on
 * first use, about 50 ms of a fresh JVM; without this, the first chunk tasks of every worker thread
 * wait for it. Loading is idempotent and synchronized inside zstd-jni, so a task that gets there
 * first loads it itself and the preload then does nothing. A failure here is ignored: the first
 * real use fails the same way and reports it.
 */
final class NativePreload {
  private static final AtomicBoolean ZSTD = new AtomicBoolean();

  private NativePreload() {}

  /** Starts the zstd preload once per JVM (later calls do nothing). */
  static void zstdInBackground() {
    if (!ZSTD.compareAndSet(false, true)) {
      return;
    }
    Thread t = new Thread(NativePreload::loadZstd, "cubed-zstd-preload");
    t.setDaemon(true);
    t.start();
  }

  /** True once some zstd codec has started the preload in this JVM. */
  static boolean started() {
    return ZSTD.get();
  }

  /** Loads the library and makes one decompression context (the JNI classes linked). */
  static boolean loadZstd() {
    try {
      Native.load();
      byte[] frame = Zstd.compress(new byte[64], 1);
      try (ZstdDecompressCtx ctx = new ZstdDecompressCtx()) {
        return ctx.decompress(frame, 64).length == 64;
      }
    } catch (RuntimeException | LinkageError e) {
      return false; // the first real use reports it
    }
  }
}
