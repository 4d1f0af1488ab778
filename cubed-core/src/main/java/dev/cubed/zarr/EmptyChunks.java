package dev.cubed.zarr;

/**
 * What a chunk write does when every element equals the fill value (zarr-python's {@code
 * write_empty_chunks}).
 */
public enum EmptyChunks {
  /** Do not store it, and delete a previously stored chunk at that key (the default). */
  SKIP,
  /** Store it like any other chunk. */
  WRITE
}
