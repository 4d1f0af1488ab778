package dev.cubed.plan;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.nd.Shapes;
import dev.cubed.plan.durable.ComputeDir;
import dev.cubed.plan.durable.TaskMarkers;
import dev.cubed.plan.eval.ChainFunction;
import dev.cubed.plan.eval.ChainWalks;
import dev.cubed.plan.eval.Evaluator;
import dev.cubed.plan.eval.TiledWrites;
import dev.cubed.plan.node.ArrayNode;
import dev.cubed.runtime.Operation;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.codec.ChunkElements;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The outputs of a run that its tasks write straight into the result the caller receives: each task
 * copies its block into the output's {@link NDArray} at the block's offset (one copy from task to
 * result; no Zarr chunk is encoded, stored, read back nor assembled). Used for outputs read back by
 * a run whose tasks run in this JVM, without a target, that no other op of the plan reads.
 *
 * <p>Resumable as the compute directory's arrays are: the tasks that finished are recorded, and
 * when the run fails (or is cancelled) {@link #flush} writes their blocks to the output's array in
 * the compute directory, as the task itself would have, and writes their completion markers, before
 * the failure propagates; a resume then skips them and reads the output from there. The same is
 * done when the JVM is asked to end while the run goes on (SIGTERM or SIGINT: the Python side ends
 * its JVM so when a compute is interrupted): a shutdown hook flushes every run {@link #whileRunning
 * running} at that moment. Only a kill without warning (SIGKILL) loses the blocks held.
 *
 * <p><b>Concurrency.</b> A task records that it finished only after its whole block is in the
 * result, and a flush writes the marker of a task only after writing all of its blocks, so a marker
 * never stands for a block not fully written; a task finishing after the flush took the finished
 * set is left unmarked (a resume computes it again). Flushes are serialized and happen at most
 * once; the end of a successful run takes the same turn: once a flush began, the run does not
 * return its results (whose compute directory it would then delete under the flush or after it) but
 * fails, keeping the directory for a resume; once the run ended, a flush writes nothing.
 */
final class MemoryOutputs {
  private final Map<String, Held> held = new LinkedHashMap<>();

  /**
   * Set by the first {@link #flush} (the blocks are written once: failure or JVM exit) or by the
   * successful end of the run (nothing to write after it). Guarded by {@code this}.
   */
  private boolean flushed;

  /** True once a flush began (not merely the run ended). Guarded by {@code this}. */
  private boolean flushBegan;

  /** The points where a task and a flush can interleave, for {@link Seam}. */
  enum Point {
    /** A task copied its blocks into the result and has not yet recorded that it finished. */
    TASK_WRITTEN,
    /** A flush took an output's finished tasks ({@code key} null) and writes none yet. */
    FLUSH_TAKEN,
    /** A flush wrote the blocks of task {@code key} and has not yet written its marker. */
    FLUSH_BLOCKS_WRITTEN,
    /** A run's tasks all ended successfully; the run has not yet ended its turn with the flush. */
    RUN_ENDING
  }

  /** Test seam: called at each {@link Point} (tests block there to force an interleaving). */
  interface Seam {
    Seam NONE = (point, op, key) -> {};

    void at(Point point, String op, long[] key);
  }

  /** The seam in use ({@link Seam#NONE} but in tests). */
  static volatile Seam seam = Seam.NONE;

  /** The flushes of the runs going on, for the shutdown hook. */
  private static final Set<Runnable> RUNNING = ConcurrentHashMap.newKeySet();

  private static final AtomicBoolean HOOKED = new AtomicBoolean();

  /**
   * One output held in memory: its node, its result (an array in the heap, or the caller's buffer
   * when {@link ResultBuffers} gave one), and the finished task keys.
   */
  private static final class Held {
    final ArrayNode.Computed node;
    final NDArray result;
    final ByteBuffer buffer;
    final FileChannel channel;
    final Set<List<Long>> finished = ConcurrentHashMap.newKeySet();

    Held(ArrayNode.Computed node, ByteBuffer given, FileChannel channel) {
      this.node = node;
      if (given != null) {
        long nbytes = Shapes.size(node.shape()) * node.dtype().itemSize();
        if (given.capacity() != nbytes) {
          throw new IllegalArgumentException(
              "the result buffer for "
                  + node.name()
                  + " holds "
                  + given.capacity()
                  + " bytes; its result takes "
                  + nbytes);
        }
      }
      this.buffer = given == null ? null : BufferRegions.littleEndian(given);
      this.channel = given == null ? null : channel;
      this.result = given == null ? NDArray.empty(node.dtype(), node.shape()) : null;
    }

    /** Block {@code b}'s elements, from the result. */
    NDArray region(long[] b) {
      return buffer == null
          ? result.getRegion(node.blockOffset(b), node.blockShape(b))
          : BufferRegions.get(
              buffer, node.dtype(), node.shape(), node.blockOffset(b), node.blockShape(b));
    }
  }

  /**
   * Holds {@code c}'s result in memory (allocated now) and returns the op filling it: each task
   * copies its block (a chain task: its row's blocks; a streamed write: its block run by run)
   * straight into the result rather than writing it to the compute directory to be read back and
   * assembled, then records that it finished. {@code blocks} are the tasks of a non-chain op.
   * {@code keepSources} and {@code shared}: what each task keeps ({@link Evaluator#forTask(boolean,
   * Set)}). {@code buffer}: where the result goes instead of a new array in the heap, or null;
   * {@code channel}: the file behind it, for long runs (see {@link ResultBuffers#channel}), or
   * null.
   */
  Operation op(
      ArrayNode.Computed c,
      Evaluator ev,
      boolean keepSources,
      Set<String> shared,
      boolean streamed,
      long projectedMem,
      List<String> deps,
      List<long[]> blocks,
      ByteBuffer buffer,
      FileChannel channel) {
    String name = c.name();
    held.put(name, new Held(c, buffer, channel));
    ChainWalks.Sink sink = sink(name);
    boolean chain = c.op().function() instanceof ChainFunction;
    return new Operation(
        name,
        chain ? ChainWalks.rows(c, ((ChainFunction) c.op().function()).axis()) : blocks,
        key -> {
          TiledWrites.Chain wc =
              streamed ? TiledWrites.chain(c, ev::fused, ev.tileBytes(), key) : null;
          if (chain) {
            ChainWalks.walk(c, ev, key, sink);
          } else if (wc != null) {
            Evaluator tev = ev.forTask(false, shared);
            try (TiledWrites.Elements el = TiledWrites.elements(wc, tev, key)) {
              writeRuns(name, key, el, ev.tileBytes());
            }
          } else {
            sink.accept(key, ev.forTask(keepSources, shared).compute(c, key));
          }
          seam.at(Point.TASK_WRITTEN, name, key);
          held.get(name).finished.add(boxed(key));
        },
        projectedMem,
        deps);
  }

  boolean contains(String name) {
    return held.containsKey(name);
  }

  Set<String> names() {
    return held.keySet();
  }

  /** Where the tasks of {@code name} hand their blocks: copied into the result at their offset. */
  private ChainWalks.Sink sink(String name) {
    Held h = held.get(name);
    return (key, block) -> {
      NDArray b = block.dtype() == h.node.dtype() ? block : block.astype(h.node.dtype());
      if (h.buffer != null) {
        BufferRegions.put(h.buffer, h.channel, h.node.shape(), h.node.blockOffset(key), b);
      } else {
        h.result.setRegion(h.node.blockOffset(key), b);
      }
    };
  }

  /**
   * Copies block {@code key} of {@code name} into the result run by run as {@code src} computes it
   * (a streamed write: the block never exists whole), runs of about {@code tileBytes}.
   */
  private void writeRuns(String name, long[] key, ChunkElements src, long tileBytes)
      throws Exception {
    Held h = held.get(name);
    long[] bs = h.node.blockShape(key);
    long[] off = h.node.blockOffset(key);
    long n = Shapes.size(bs);
    DType dt = h.node.dtype();
    int per = (int) Math.max(1, Math.min(n, tileBytes / Math.max(1, dt.itemSize())));
    for (long s = 0; s < n; s += per) {
      int count = (int) Math.min(per, n - s);
      NDArray r = src.run(s, count);
      NDArray run = r.dtype() == dt ? r : r.astype(dt);
      copyRun(run, count, bs, s, h, off);
    }
  }

  /**
   * Copies {@code count} elements (a C-order run starting at element {@code start} of a block of
   * shape {@code bs}) into {@code h}'s result at the block's offset {@code off}, one piece per
   * stretch that is contiguous in the result too (the block's rows, or several whole rows at once
   * where the block spans the result's trailing axes).
   */
  private static void copyRun(NDArray run, int count, long[] bs, long start, Held h, long[] off) {
    int nd = bs.length;
    int mult = h.node.dtype().isComplex() ? 2 : 1;
    if (nd == 0) {
      if (h.buffer != null) {
        BufferRegions.putRun(h.buffer, 0, run, 0, 1);
      } else {
        System.arraycopy(run.data(), 0, h.result.data(), 0, mult);
      }
      return;
    }
    long[] shape = h.node.shape();
    long[] strides = Shapes.strides(shape);
    // elements of the block that follow each other in the result as well: its last axis, times
    // every trailing axis the block spans whole
    long span = bs[nd - 1];
    for (int k = nd - 1; k > 0 && bs[k] == shape[k]; k--) {
      span *= bs[k - 1];
    }
    int done = 0;
    while (done < count) {
      long s = start + done;
      int seg = (int) Math.min(count - done, span - s % span);
      long[] idx = Shapes.unravel(bs, s);
      long at = 0;
      for (int i = 0; i < nd; i++) {
        at += (off[i] + idx[i]) * strides[i];
      }
      if (h.buffer != null) {
        BufferRegions.putRun(h.buffer, h.channel, at, run, done, seg);
      } else {
        System.arraycopy(run.data(), done * mult, h.result.data(), (int) at * mult, seg * mult);
      }
      done += seg;
    }
  }

  /**
   * The result of {@code name}, complete once every task of it finished; null when it went into a
   * buffer of {@link ResultBuffers}.
   */
  NDArray result(String name) {
    return held.get(name).result;
  }

  /** Whether {@code name}'s result went into a buffer of {@link ResultBuffers}. */
  boolean buffered(String name) {
    return held.get(name).buffer != null;
  }

  /** A copy of {@code name}'s whole result as an array (from its buffer, if it has one). */
  NDArray copyOut(String name) {
    Held h = held.get(name);
    return h.buffer == null
        ? h.result
        : BufferRegions.get(
            h.buffer,
            h.node.dtype(),
            h.node.shape(),
            new long[h.node.shape().length],
            h.node.shape());
  }

  /**
   * After a failed run: writes the blocks of every finished task to its output's array in the
   * compute directory ({@code create} makes or reopens it exactly as a run without memory outputs
   * does) and then the task's completion marker, so that a resume skips the task. {@code cdir} is
   * asked for the directory only when there is a finished task to write. Returns the number of
   * tasks written: 0 if a flush already ran (a concurrent caller waits until it ended) or the run
   * ended successfully ({@link #whileRunning}).
   */
  synchronized long flush(
      Supplier<ComputeDir> cdir, Function<ArrayNode.Computed, ZarrArray> create) {
    if (flushed) {
      return 0;
    }
    flushed = true;
    flushBegan = true;
    long n = 0;
    for (Map.Entry<String, Held> e : held.entrySet()) {
      Held h = e.getValue();
      if (h.finished.isEmpty()) {
        continue;
      }
      ZarrArray z = create.apply(h.node);
      List<List<Long>> taken = new ArrayList<>(h.finished);
      seam.at(Point.FLUSH_TAKEN, e.getKey(), null);
      for (List<Long> k : taken) {
        long[] key = unboxed(k);
        for (long[] b : blocksOf(h.node, key)) {
          NDArray block = h.region(b);
          // an irregular grid is stored padded to its largest blocks, as a run without memory
          // outputs stores it (RunArrays.padded)
          z.writeChunk(b, h.node.isRegular() ? block : Evaluator.pad(block, h.node.chunks()));
        }
        seam.at(Point.FLUSH_BLOCKS_WRITTEN, e.getKey(), key);
        TaskMarkers.markDone(cdir.get(), e.getKey(), key);
        n++;
      }
    }
    return n;
  }

  /**
   * Runs {@code body} (a run's execution) with {@code flush} registered for the JVM's shutdown: if
   * the JVM is asked to end meanwhile, {@code flush} writes the finished blocks (the tasks still
   * running are left; they are not marked). Not registered when this holds no output.
   *
   * @throws IllegalStateException when {@code body} succeeded but a flush began meanwhile (the JVM
   *     is ending): the compute directory holds the flushed blocks for a resume, so the run must
   *     fail (keeping it) rather than return and delete it; thrown after that flush ended
   */
  void whileRunning(Runnable flush, Runnable body) {
    if (held.isEmpty()) {
      body.run();
      return;
    }
    if (HOOKED.compareAndSet(false, true)) {
      Runtime.getRuntime()
          .addShutdownHook(new Thread(MemoryOutputs::flushRunning, "cubed-memory-outputs-exit"));
    }
    RUNNING.add(flush);
    try {
      body.run();
    } finally {
      RUNNING.remove(flush);
    }
    seam.at(Point.RUN_ENDING, null, null);
    synchronized (this) {
      if (flushBegan) {
        throw new IllegalStateException(
            "the JVM is ending (SIGTERM or SIGINT): the finished blocks of the results held in"
                + " memory were written to the compute directory; run the same compute again with"
                + " resume to finish it");
      }
      flushed = true;
    }
  }

  /**
   * What the shutdown hook does: runs the flush of every run going on (each writes its finished
   * blocks and markers; a failure is reported and the next flush still runs).
   */
  static void flushRunning() {
    for (Runnable r : RUNNING) {
      try {
        r.run();
      } catch (RuntimeException | Error e) {
        System.err.println("cubed: writing held results at exit failed: " + e);
      }
    }
  }

  /** The blocks task {@code key} of {@code c} writes: its own, or its row's for a chain. */
  private static List<long[]> blocksOf(ArrayNode.Computed c, long[] key) {
    if (c.op().function() instanceof ChainFunction cf) {
      return ChainWalks.rowBlocks(c.numBlocks(), cf.axis(), key);
    }
    return List.of(key);
  }

  /** The nodes that read each node of {@code topo}, by name (inputs only). */
  static Map<String, Integer> readers(List<ArrayNode> topo) {
    Map<String, Integer> out = new HashMap<>();
    for (ArrayNode n : topo) {
      for (ArrayNode in : n.inputs()) {
        out.merge(in.name(), 1, Integer::sum);
      }
    }
    return out;
  }

  private static List<Long> boxed(long[] key) {
    List<Long> l = new ArrayList<>(key.length);
    for (long v : key) {
      l.add(v);
    }
    return l;
  }

  private static long[] unboxed(List<Long> key) {
    long[] k = new long[key.size()];
    for (int i = 0; i < k.length; i++) {
      k[i] = key.get(i);
    }
    return k;
  }
}
