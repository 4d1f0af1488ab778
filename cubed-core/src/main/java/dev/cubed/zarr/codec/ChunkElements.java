package dev.cubed.zarr.codec;

import dev.cubed.nd.NDArray;

/**
 * The elements of one chunk (clipped to the array), made a run at a time in C order, so that a
 * chunk can be written ({@link dev.cubed.zarr.ZarrArray#writeChunk(long[], ChunkElements)}) while
 * it is computed: with the project's default codec only one run exists at a time besides the
 * encoded output, never the whole chunk.
 *
 * <p>The writer asks for runs in increasing order, usually one codec block (256 KiB) each, but may
 * ask for any run again (a chunk that does not compress is encoded a second time, stored as it is),
 * so a run's elements must not depend on which runs were asked for before.
 */
@FunctionalInterface
public interface ChunkElements {
  /**
   * Elements {@code [start, start + count)} of the chunk in C order, as a one-dimensional array of
   * exactly {@code count} elements of the chunk's dtype. The array may be reused by the next call:
   * the caller consumes it before asking for another run.
   *
   * @throws Exception if computing the elements fails; the write then stores nothing
   */
  NDArray run(long start, int count) throws Exception;
}
