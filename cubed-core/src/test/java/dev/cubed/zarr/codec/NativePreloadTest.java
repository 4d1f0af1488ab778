package dev.cubed.zarr.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Making a zstd codec starts loading zstd-jni's native library in the background (once per JVM);
 * the load itself works, and a codec made while it runs still decodes.
 */
class NativePreloadTest {
  @Test
  void aZstdCodecStartsThePreloadAndStillDecodes() {
    ZstdBytesCodec c = new ZstdBytesCodec(3);
    assertTrue(NativePreload.started(), "the first zstd codec starts the preload");
    byte[] data = new byte[100_000];
    new Random(5).nextBytes(data);
    assertArrayEquals(data, c.decode(c.encode(data), data.length, "test"));
    assertTrue(NativePreload.loadZstd(), "the library loads and a frame round-trips");
  }
}
