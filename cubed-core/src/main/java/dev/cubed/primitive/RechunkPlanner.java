package dev.cubed.primitive;

import dev.cubed.zarr.codec.Compression;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Chooses the chain of chunk shapes a multistage rechunk goes through. With budget {@code maxMem}
 * (the caller passes (allowedMem - reservedMem)/5 locally): write chunks = target chunks grown axis
 * by axis (last first) by whole multiples up to the budget; read chunks = source chunks grown only
 * along axes where the write chunk is larger; for 1, 2, 3... stages, stage shapes are spaced
 * geometrically between read and write chunks and each intermediate array's chunks are the
 * elementwise minimum of its two neighbouring stage shapes (a one-stage plan whose intermediate
 * equals the read or write chunks is a direct copy). Intermediates equal to the source or target
 * chunks are dropped. The candidates are these plans and the direct copy; the one moving the fewest
 * bytes wins: for each copy, the bytes it reads (whole source chunks, once per copy region they
 * overlap), the bytes it writes (the array) and {@code opBytes} per chunk read or written (the
 * per-request cost, which keeps intermediate chunks from becoming tiny); on a tie the plan with
 * fewer stages.
 */
public final class RechunkPlanner {
  private static final int MAX_STAGES = 10;

  /**
   * The cost of one chunk read or write on a local store, in bytes moved: a file opened, written or
   * read, and closed (about 0.1-0.3 ms, the time to copy 256 KiB).
   */
  public static final long LOCAL_OP_BYTES = 256L << 10;

  /** The cost of one chunk read or write on an object store (one request, about 30-50 ms). */
  public static final long OBJECT_STORE_OP_BYTES = 4L << 20;

  private RechunkPlanner() {}

  /**
   * The compressor of a multistage rechunk's intermediate arrays (each written once and read once,
   * then deleted): the spec's {@code rechunk_intermediate_compression}. {@code AUTO} (the default:
   * {@code NONE} when the intermediates are on a local file system, {@code PROJECT} on an object
   * store), {@code NONE} (Blosc level 0 without shuffle: the array's bytes in a Blosc frame, no
   * shuffle or LZ4 on either side), {@code LZ4} (Blosc-LZ4 level 5 without shuffle) or {@code
   * PROJECT} (the project's default codec, Blosc-LZ4 level 5 with byte shuffle). All are streamed
   * (one buffer copy each way), so the memory model is the same. Locally, {@code NONE} with
   * consumed intermediates ({@link ConsumeIntermediates}) took 15% less CPU than {@code PROJECT} on
   * the medium rechunk workload (docs/performance.md, "Rechunk"); on an object store every byte
   * crosses the network, so the compressed form stays.
   */
  public enum IntermediateCompression {
    AUTO,
    NONE,
    LZ4,
    PROJECT;

    /**
     * The compression this setting gives.
     *
     * @param objectStore whether the intermediates are on an object store
     */
    public Compression compression(boolean objectStore) {
      return switch (this) {
        case AUTO -> objectStore ? Compression.projectDefault() : none();
        case NONE -> none();
        case PROJECT -> Compression.projectDefault();
        case LZ4 -> Compression.blosc(Compression.BloscCodec.LZ4, 5, Compression.Shuffle.NONE);
      };
    }
  }

  private static Compression none() {
    return Compression.blosc(Compression.BloscCodec.LZ4, 0, Compression.Shuffle.NONE);
  }

  /**
   * Whether the later stages of a multistage rechunk delete the intermediate chunks they have
   * copied, each as soon as its copy region is written ({@link CopyOp}): the spec's {@code
   * rechunk_consume_intermediates}. {@code AUTO} (the default: yes on a local file system, where
   * the freed file pages are reused by the next writes, no on an object store, where each deletion
   * is a request and the end-of-compute cleanup deletes in batches), {@code TRUE} or {@code FALSE}.
   */
  public enum ConsumeIntermediates {
    AUTO,
    TRUE,
    FALSE;

    /**
     * Whether intermediates are consumed under this setting.
     *
     * @param objectStore whether the intermediates are on an object store
     */
    public boolean consume(boolean objectStore) {
      return switch (this) {
        case AUTO -> !objectStore;
        case TRUE -> true;
        case FALSE -> false;
      };
    }
  }

  /** The result: chunk shapes of the intermediate arrays (source and target excluded). */
  public record Plan(List<long[]> intermediates, long ioOps) {}

  /** Grows {@code chunks} axis by axis (last first) by whole multiples while within the budget. */
  static long[] consolidate(
      long[] shape, long[] chunks, int itemSize, long maxMem, boolean[] axes) {
    long[] c = chunks.clone();
    for (int i = c.length - 1; i >= 0; i--) {
      if (!axes[i]) {
        continue;
      }
      long others = bytes(c, itemSize) / Math.max(1, c[i]);
      long maxMult = Math.max(1, maxMem / Math.max(1, others * c[i]));
      long full = (shape[i] + c[i] - 1) / Math.max(1, c[i]);
      long mult = Math.min(maxMult, Math.max(1, full));
      c[i] = Math.min(Math.max(1, shape[i]), c[i] * mult);
      if (mult < full) {
        break;
      }
    }
    return c;
  }

  static long bytes(long[] chunks, int itemSize) {
    long n = itemSize;
    for (long c : chunks) {
      n *= Math.max(1, c);
    }
    return n;
  }

  /**
   * Plans a rechunk of an array of {@code shape} from {@code source} to {@code target} chunks, with
   * the local store's cost of one chunk operation ({@link #LOCAL_OP_BYTES}).
   */
  public static Plan plan(long[] shape, long[] source, long[] target, int itemSize, long maxMem) {
    return plan(shape, source, target, itemSize, maxMem, LOCAL_OP_BYTES);
  }

  /**
   * Plans a rechunk of an array of {@code shape} from {@code source} to {@code target} chunks.
   *
   * @param opBytes the cost of one chunk read or write, in bytes moved ({@link #LOCAL_OP_BYTES}
   *     locally, {@link #OBJECT_STORE_OP_BYTES} when an object store is involved)
   */
  public static Plan plan(
      long[] shape, long[] source, long[] target, int itemSize, long maxMem, long opBytes) {
    int nd = shape.length;
    boolean[] all = new boolean[nd];
    Arrays.fill(all, true);
    long[] write = consolidate(shape, target, itemSize, maxMem, all);
    boolean[] grow = new boolean[nd];
    for (int i = 0; i < nd; i++) {
      grow[i] = write[i] > source[i];
    }
    long[] read = consolidate(shape, source, itemSize, maxMem, grow);
    List<List<long[]>> candidates = new ArrayList<>();
    candidates.add(List.of()); // the direct copy
    for (int stages = 1; stages <= MAX_STAGES; stages++) {
      List<long[]> stageShapes = new ArrayList<>();
      stageShapes.add(read);
      for (int k = 1; k < stages; k++) {
        long[] s = new long[nd];
        double f = (double) k / stages;
        for (int i = 0; i < nd; i++) {
          s[i] =
              Math.max(
                  1, Math.round(Math.exp(Math.log(read[i]) * (1 - f) + Math.log(write[i]) * f)));
        }
        stageShapes.add(s);
      }
      stageShapes.add(write);
      List<long[]> ints = new ArrayList<>();
      for (int k = 1; k < stageShapes.size(); k++) {
        long[] a = stageShapes.get(k - 1);
        long[] b = stageShapes.get(k);
        long[] m = new long[nd];
        for (int i = 0; i < nd; i++) {
          m[i] = Math.min(a[i], b[i]);
        }
        boolean direct = stages == 1 && (Arrays.equals(m, read) || Arrays.equals(m, write));
        if (!direct
            && !Arrays.equals(m, source)
            && !Arrays.equals(m, target)
            && (ints.isEmpty() || !Arrays.equals(ints.get(ints.size() - 1), m))) {
          ints.add(m);
        }
      }
      if (ints.isEmpty()) {
        break; // more stages only add intermediates back
      }
      candidates.add(ints);
    }
    Plan best = null;
    double bestCost = Double.MAX_VALUE;
    for (List<long[]> ints : candidates) {
      List<long[]> chain = new ArrayList<>();
      chain.add(source);
      chain.addAll(ints);
      chain.add(target);
      long io = 0;
      double cost = 0;
      for (int k = 1; k < chain.size(); k++) {
        long[] from = chain.get(k - 1);
        long[] to = chain.get(k);
        long[] region = copyRegion(shape, from, to, itemSize, maxMem);
        long ops = ioOps(shape, from, to, itemSize, maxMem);
        io += ops;
        cost +=
            (double) readBytes(shape, from, region, itemSize)
                + (double) itemSize * elements(shape)
                + (double) opBytes * ops;
      }
      // strictly cheaper only: on a tie the plan with fewer stages (found first) stays
      if (cost < bestCost) {
        best = new Plan(ints, io);
        bestCost = cost;
      }
    }
    return best;
  }

  private static long elements(long[] shape) {
    long n = 1;
    for (long s : shape) {
      n *= Math.max(0, s);
    }
    return n;
  }

  /**
   * Bytes a copy reads: every source chunk overlapping a copy region of shape {@code region} is
   * read whole once per region (an axis's chunks straddling two regions are read twice).
   */
  static long readBytes(long[] shape, long[] from, long[] region, int itemSize) {
    double total = itemSize;
    for (int i = 0; i < shape.length; i++) {
      long axis = 0;
      for (long s = 0; s < shape[i]; s += region[i]) {
        long e = Math.min(shape[i], s + region[i]);
        long c0 = s / from[i];
        long c1 = (e - 1) / from[i];
        axis += Math.min(shape[i], (c1 + 1) * from[i]) - c0 * from[i];
      }
      total *= axis;
    }
    return total >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) total;
  }

  /** The copy region used when copying into an array of chunks {@code to}. */
  public static long[] copyRegion(long[] shape, long[] from, long[] to, int itemSize, long maxMem) {
    boolean[] all = new boolean[shape.length];
    Arrays.fill(all, true);
    return consolidate(shape, to, itemSize, maxMem, all);
  }

  /** Chunk reads plus chunk writes of one copy from chunks {@code from} to chunks {@code to}. */
  static long ioOps(long[] shape, long[] from, long[] to, int itemSize, long maxMem) {
    long[] region = copyRegion(shape, from, to, itemSize, maxMem);
    long reads = 1;
    long writes = 1;
    for (int i = 0; i < shape.length; i++) {
      long r = 0;
      for (long s = 0; s < shape[i]; s += region[i]) {
        long e = Math.min(shape[i], s + region[i]);
        r += (e - 1) / from[i] - s / from[i] + 1;
      }
      reads *= Math.max(1, r);
      writes *= Math.max(1, (shape[i] + to[i] - 1) / to[i]);
    }
    return reads + writes;
  }
}
