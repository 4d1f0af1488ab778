package dev.cubed.bridge;

import static dev.cubed.bridge.Calls.arg;

import dev.cubed.ComputeOptions;
import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.PlanFigures;
import dev.cubed.diagnostics.Diagnostics;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.ResultBuffers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The bridge's functions that plan or run a compute: {@code compute} (results into shared-memory
 * files made before it runs, {@link #computeShared}), {@code computeWith}, {@code persistInMemory},
 * {@code timeCompute}, {@code planFigures} and {@code visualize}.
 */
final class ComputeCalls {
  private ComputeCalls() {}

  /**
   * Computes {@code xs} with the results the run writes straight into memory going into result
   * files made before it runs (one copy, task to file; see {@link SharedMemory#create}); returns
   * per array its {@link SharedMemory.Mapped} file or its array.
   */
  static List<Object> computeShared(SharedMemory shm, ComputeOptions options, CubedArray[] xs) {
    SharedMemory.Mapped[] files = new SharedMemory.Mapped[xs.length];
    try {
      ResultBuffers into =
          new ResultBuffers() {
            @Override
            public ByteBuffer buffer(int i, DType dtype, long[] shape) {
              try {
                files[i] = shm.create(dtype, shape);
              } catch (IOException e) {
                throw new UncheckedIOException("making a shared result file: " + e, e);
              }
              return files[i] == null ? null : files[i].buffer();
            }

            @Override
            public FileChannel channel(int i) {
              return files[i] == null ? null : files[i].channel();
            }
          };
      List<NDArray> rs = Cubed.computeInto(into, options, xs);
      List<Object> out = new ArrayList<>();
      for (int i = 0; i < xs.length; i++) {
        out.add(rs.get(i) != null ? rs.get(i) : files[i]);
      }
      return out;
    } finally {
      for (SharedMemory.Mapped m : files) {
        SharedMemory.release(m);
      }
    }
  }

  static void register(Map<String, Calls.Fn> own) {
    // timeCompute(handle, n): n computes inside the JVM; [min, median] nanoseconds (the engine's
    // own cost of a compute, to set beside a round trip from Python)
    own.put(
        "timeCompute",
        (s, a) -> {
          CubedArray x = s.get(a.get(0), "timeCompute");
          long[] ts = new long[Math.toIntExact((Long) arg(a, 1, Long.class, "timeCompute"))];
          for (int i = 0; i < ts.length; i++) {
            long t0 = System.nanoTime();
            x.compute();
            ts[i] = System.nanoTime() - t0;
          }
          Arrays.sort(ts);
          return List.of(ts[0], ts[ts.length / 2]);
        });
    own.put(
        "compute",
        (s, a) -> {
          List<?> hs = (List<?>) arg(a, 0, List.class, "compute");
          CubedArray[] xs = new CubedArray[hs.size()];
          for (int i = 0; i < xs.length; i++) {
            xs[i] = s.get(hs.get(i), "compute");
          }
          return computeShared(s.shm, ComputeOptions.defaults(), xs);
        });
    own.put("computeWith", ComputeWith::apply);
    // persistInMemory(handles[, maxBytes]): computes them in one plan and returns in-memory
    // arrays of the results with the same chunks (held in this JVM, as Dask's persist keeps NumPy
    // blocks), or null without computing when their bytes together exceed maxBytes (default: a
    // quarter of the JVM's heap; the caller then persists to Zarr)
    own.put(
        "persistInMemory",
        (s, a) -> {
          List<?> hs = (List<?>) arg(a, 0, List.class, "persistInMemory");
          CubedArray[] xs = new CubedArray[hs.size()];
          long bytes = 0;
          for (int i = 0; i < xs.length; i++) {
            xs[i] = s.get(hs.get(i), "persistInMemory");
            long n = xs[i].dtype().itemSize();
            for (long d : xs[i].shape()) {
              n = d == 0 || n <= Long.MAX_VALUE / d ? n * d : Long.MAX_VALUE;
            }
            bytes = n > Long.MAX_VALUE - bytes ? Long.MAX_VALUE : bytes + n;
          }
          long max =
              a.size() > 1 && a.get(1) != null
                  ? (Long) arg(a, 1, Long.class, "persistInMemory")
                  : Runtime.getRuntime().maxMemory() / 4;
          if (bytes > max) {
            return null;
          }
          List<NDArray> rs = Cubed.compute(xs);
          List<CubedArray> out = new ArrayList<>();
          for (int i = 0; i < xs.length; i++) {
            out.add(Cubed.persisted(rs.get(i), xs[i]));
          }
          return out;
        });
    // planFigures(handles): [tasks, ops, largest projected task memory, intermediate bytes] of
    // the plan computing them together (Cubed.summary; nothing is computed)
    own.put(
        "planFigures",
        (s, a) -> {
          List<CubedArray> xs = new ArrayList<>();
          for (Object h : (List<?>) arg(a, 0, List.class, "planFigures")) {
            xs.add(s.get(h, "planFigures"));
          }
          PlanFigures f = Cubed.summary(xs);
          return List.of(f.tasks(), (long) f.ops(), f.maxProjectedMem(), f.intermediateBytes());
        });

    // [file written, whether it is an SVG, why not (or None)]
    own.put(
        "visualize",
        (s, a) -> {
          List<?> hs = (List<?>) arg(a, 0, List.class, "visualize");
          List<CubedArray> xs = new ArrayList<>();
          for (Object h : hs) {
            xs.add(s.get(h, "visualize"));
          }
          var r =
              Diagnostics.visualize(
                  Cubed.plan(xs), Path.of((String) arg(a, 1, String.class, "visualize")));
          return Arrays.asList(r.file().toString(), r.svg(), r.note());
        });
  }
}
