package dev.cubed.bridge;

import dev.cubed.CubedArray;
import dev.cubed.Xp;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.primitive.BlockKeys;
import dev.cubed.primitive.Blockwise;
import dev.cubed.primitive.BlockwiseFunction;
import dev.cubed.zarr.ZarrArray;
import java.util.Arrays;
import java.util.List;

/**
 * The bridge function {@code storeRegion(handle, target, origin)}: a lazy write of an array into
 * the box {@code [origin, origin + shape)} of an existing Zarr array (a path or URL the engine's
 * stores open: what xarray's {@code to_zarr}, with or without {@code region=}, hands the chunk
 * manager's {@code store}). Nothing is written now: the result is a small lazy array (one int8
 * element per written block, each 1) whose compute writes; computing several of them together (with
 * other arrays) is one plan, so what they share upstream runs once.
 *
 * <p>Alignment: the array is first rechunked so that its block boundaries, shifted by {@code
 * origin}, fall on the target's chunk boundaries (the first and last blocks along an axis may be
 * partial chunks of the target); each chunk of the target is then written by one task only, and a
 * partial chunk is read, merged and rewritten by that task ({@link ZarrArray#write}). The target's
 * metadata is not touched (no incomplete mark, no write lock: separate processes may write disjoint
 * chunk-aligned regions of one array at once, as with Dask). A task run twice writes the same
 * values.
 *
 * <p>Memory: the engine's blockwise rule for the block read plus, as extra, the target chunk read
 * and its encoded bytes (two chunks of the target).
 */
final class StoreRegion {
  private StoreRegion() {}

  static Object apply(Calls.Session s, List<Object> a) {
    if (a.size() != 3 || !(a.get(1) instanceof String path) || !(a.get(2) instanceof long[] o)) {
      throw new IllegalArgumentException(
          "storeRegion: expected (handle, target path, origin), got " + a.size() + " arguments");
    }
    CubedArray x = s.get(a.get(0), "storeRegion");
    ZarrArray target = ZarrArray.open(path);
    return region(x, target, o.clone());
  }

  /** The lazy write of {@code x} into {@code target} at {@code origin} (see the class text). */
  static CubedArray region(CubedArray x, ZarrArray target, long[] origin) {
    long[] shape = x.shape();
    long[] tshape = target.shape();
    if (origin.length != shape.length || tshape.length != shape.length) {
      throw new IllegalArgumentException(
          "storeRegion: the array has "
              + shape.length
              + " dimensions, the target "
              + target.path()
              + " has "
              + tshape.length
              + " and the origin "
              + origin.length);
    }
    for (int d = 0; d < shape.length; d++) {
      if (origin[d] < 0 || origin[d] + shape[d] > tshape[d]) {
        throw new IllegalArgumentException(
            "storeRegion: the array of shape "
                + Shapes.format(shape)
                + " at origin "
                + Arrays.toString(origin)
                + " does not fit the target of shape "
                + Shapes.format(tshape)
                + " (dimension "
                + d
                + "); give a region inside the target");
      }
    }
    if (x.dtype() != target.dtype()) {
      throw new IllegalArgumentException(
          "storeRegion: the array's dtype "
              + x.dtype()
              + " is not the target's "
              + target.dtype()
              + "; cast it first (astype)");
    }
    long[] tchunks = target.chunks();
    long[][] aligned = new long[shape.length][];
    boolean regular = true;
    for (int d = 0; d < shape.length; d++) {
      aligned[d] = alignedSizes(shape[d], origin[d], tchunks[d]);
      regular &= origin[d] % tchunks[d] == 0;
    }
    CubedArray src = x;
    if (!Arrays.deepEquals(x.chunks(), aligned)) {
      long[] c = new long[shape.length];
      for (int d = 0; d < c.length; d++) {
        c[d] = Math.max(1, Math.min(tchunks[d], shape[d]));
      }
      // aligned at the origin: the regular (multistage) rechunk; else explicit sizes
      src = regular ? Xp.rechunk(x, c) : Xp.rechunk(x, aligned);
    }
    long[] nb = src.numBlocks();
    long[][] starts = new long[shape.length][];
    for (int d = 0; d < shape.length; d++) {
      long[] sizes = src.chunks()[d];
      starts[d] = new long[sizes.length];
      long at = origin[d];
      for (int i = 0; i < sizes.length; i++) {
        starts[d][i] = at;
        at += sizes[i];
      }
    }
    long chunkBytes = target.dtype().itemSize();
    for (long c : tchunks) {
      chunkBytes = Math.multiplyExact(chunkBytes, c);
    }
    long[] ones = new long[shape.length];
    Arrays.fill(ones, 1);
    Blockwise op =
        new Blockwise(
            "store_region",
            c -> List.of(BlockKeys.one(c.clone())),
            new Write(target, starts),
            new int[] {1},
            new int[] {1},
            2 * chunkBytes);
    return Xp.blockwise(op, nb, ones, DType.INT8, src);
  }

  /**
   * Block sizes along an axis of {@code n} elements starting at {@code o} of a target chunked by
   * {@code c}: boundaries on the target's chunk boundaries.
   */
  static long[] alignedSizes(long n, long o, long c) {
    if (n == 0) {
      return new long[] {0};
    }
    long first = Math.min(n, c - o % c);
    long rest = n - first;
    int k = 1 + (int) ((rest + c - 1) / c);
    long[] out = new long[k];
    out[0] = first;
    for (int i = 1; i < k; i++) {
      out[i] = Math.min(c, rest);
      rest -= out[i];
    }
    return out;
  }

  /** Writes input block {@code c} at its place in the target; its output is one 1. */
  private record Write(ZarrArray target, long[][] starts) implements BlockwiseFunction {
    @Override
    public NDArray apply(List<Object> args, long[] c) {
      NDArray block = (NDArray) args.get(0);
      long[] at = new long[c.length];
      for (int d = 0; d < c.length; d++) {
        at[d] = starts[d][(int) c[d]];
      }
      if (block.size() > 0) {
        target.write(at, block);
      }
      long[] one = new long[c.length];
      Arrays.fill(one, 1);
      return NDArray.ones(DType.INT8, one);
    }
  }
}
