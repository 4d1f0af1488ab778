package dev.cubed.primitive;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Chooses the chain of chunk shapes a multistage rechunk goes through. With budget {@code maxMem}
 * (the caller passes (allowedMem - reservedMem)/5 locally) and {@code minMem = maxMem / 20}:
 * write chunks = target chunks grown axis by axis (last first) by whole multiples up to the budget;
 * read chunks = source chunks grown only along axes where the write chunk is larger; for 1, 2, 3...
 * stages, stage shapes are spaced geometrically between read and write chunks and each intermediate
 * array's chunks are the elementwise minimum of its two neighbouring stage shapes (a one-stage
 * plan whose intermediate equals the read or write chunks is a direct copy). The first plan
 * whose smallest intermediate chunk reaches {@code minMem} wins; adding stages stops when the
 * number of chunk reads and writes goes up. Intermediates equal to the source or target chunks are
 * dropped, so a cheap rechunk is one direct copy.
 */
public final class RechunkPlanner {
  private static final int MAX_STAGES = 10;

  private RechunkPlanner() {}

  /** The result: chunk shapes of the intermediate arrays (source and target excluded). */
  public record Plan(List<long[]> intermediates, long ioOps) {}

  /** Grows {@code chunks} axis by axis (last first) by whole multiples while within the budget. */
  static long[] consolidate(long[] shape, long[] chunks, int itemSize, long maxMem, boolean[] axes) {
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

  /** Plans a rechunk of an array of {@code shape} from {@code source} to {@code target} chunks. */
  public static Plan plan(long[] shape, long[] source, long[] target, int itemSize, long maxMem) {
    int nd = shape.length;
    long minMem = maxMem / 20;
    boolean[] all = new boolean[nd];
    Arrays.fill(all, true);
    long[] write = consolidate(shape, target, itemSize, maxMem, all);
    boolean[] grow = new boolean[nd];
    for (int i = 0; i < nd; i++) {
      grow[i] = write[i] > source[i];
    }
    long[] read = consolidate(shape, source, itemSize, maxMem, grow);
    Plan prev = null;
    for (int stages = 1; stages <= MAX_STAGES; stages++) {
      List<long[]> stageShapes = new ArrayList<>();
      stageShapes.add(read);
      for (int k = 1; k < stages; k++) {
        long[] s = new long[nd];
        double f = (double) k / stages;
        for (int i = 0; i < nd; i++) {
          s[i] = Math.max(1, Math.round(Math.exp(Math.log(read[i]) * (1 - f)
              + Math.log(write[i]) * f)));
        }
        stageShapes.add(s);
      }
      stageShapes.add(write);
      List<long[]> ints = new ArrayList<>();
      long smallest = Long.MAX_VALUE;
      for (int k = 1; k < stageShapes.size(); k++) {
        long[] a = stageShapes.get(k - 1);
        long[] b = stageShapes.get(k);
        long[] m = new long[nd];
        for (int i = 0; i < nd; i++) {
          m[i] = Math.min(a[i], b[i]);
        }
        smallest = Math.min(smallest, bytes(m, itemSize));
        boolean direct = stages == 1 && (Arrays.equals(m, read) || Arrays.equals(m, write));
        if (!direct && !Arrays.equals(m, source) && !Arrays.equals(m, target)
            && (ints.isEmpty() || !Arrays.equals(ints.get(ints.size() - 1), m))) {
          ints.add(m);
        }
      }
      List<long[]> chain = new ArrayList<>();
      chain.add(source);
      chain.addAll(ints);
      chain.add(target);
      long io = 0;
      for (int k = 1; k < chain.size(); k++) {
        io += ioOps(shape, chain.get(k - 1), chain.get(k), itemSize, maxMem);
      }
      Plan p = new Plan(ints, io);
      if (ints.isEmpty() || smallest >= minMem) {
        return p;
      }
      if (prev != null && io > prev.ioOps()) {
        return prev;
      }
      prev = p;
    }
    return prev;
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
