package dev.cubed.zarr.codec;

import dev.cubed.zarr.store.ZarrFormatException;

/**
 * A stored chunk (or shard index) whose {@code crc32c} checksum does not match its bytes: the bytes
 * read are not the bytes written (changed on disk or by another program, or damaged in transit).
 * The message names the array, the chunk key and the store, e.g. {@code zarr array 'x' chunk
 * 'x/c/0/1' in file:///w/compute-…: crc32c checksum mismatch: stored 0x…, computed 0x… (corrupt
 * chunk)}.
 *
 * <p>It is a {@link ZarrFormatException} (corrupt content), but unlike other format errors the
 * engine retries the task that met it ({@code dev.cubed.runtime.RetryPolicy}): a read that went
 * wrong in transit succeeds when read again, while a chunk corrupt where it is stored fails every
 * attempt and the compute then fails with this message.
 */
public final class ChecksumMismatchException extends ZarrFormatException {
  private static final long serialVersionUID = 1L;

  /** An exception with a complete message. */
  public ChecksumMismatchException(String message) {
    super(message);
  }
}
