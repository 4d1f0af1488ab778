package dev.cubed.zarr;

/**
 * A chunk of an intermediate array (see {@link ZarrArray#asIntermediate()}) was read before it was
 * written. The engine writes every intermediate chunk before any task reads it, so this is an
 * engine error, never a user error: it is not retried, and the compute fails instead of computing
 * with fill values.
 */
public final class MissingChunkException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  /** An exception with a message naming the chunk, the array and the store. */
  public MissingChunkException(String message) {
    super(message);
  }
}
