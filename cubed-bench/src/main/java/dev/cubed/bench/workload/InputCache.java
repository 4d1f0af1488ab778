package dev.cubed.bench.workload;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.FileSystemStore;
import java.io.IOException;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Stored inputs written once and cached under {@code workDir/inputs/<key>/}, where the key is the
 * workload name, the size label and the parameters. A {@code .complete} marker is written last; a
 * directory without it (a run killed while writing) is deleted and rebuilt. Arrays are float64 Zarr
 * with the project's default codec, written chunk by chunk (memory: one chunk per writer thread).
 */
final class InputCache {
  static final String MARKER = ".complete";

  /** Makes the chunk whose first element has global indices {@code start}, of clipped shape. */
  @FunctionalInterface
  interface ChunkMaker extends Serializable {
    NDArray make(long[] start, long[] shape);
  }

  /** One stored input: its name (Zarr path inside the cache directory), shape, chunks, maker. */
  record StoredInput(String name, long[] shape, long[] chunks, ChunkMaker maker) {}

  private InputCache() {}

  /**
   * The cache key of a workload at a size: {@code name-size-k1v1_k2v2..._codec}, where codec names
   * the project's default compression (a cache written with another default is not reused).
   */
  static String key(String workload, String size, Map<String, Long> params) {
    String codec = Compression.projectDefault().toString().replaceAll("[^A-Za-z0-9]+", "");
    return workload
        + "-"
        + size
        + "-"
        + params.entrySet().stream()
            .map(e -> e.getKey() + e.getValue())
            .collect(Collectors.joining("_"))
        + "_"
        + codec;
  }

  /**
   * The cache directory holding every input, written now unless complete already.
   *
   * @param threads writer threads
   */
  static Path ensure(Path inputsDir, String key, List<StoredInput> inputs, int threads)
      throws Exception {
    Path dir = inputsDir.resolve(key);
    if (Files.exists(dir.resolve(MARKER))) {
      return dir;
    }
    deleteTree(dir);
    Files.createDirectories(dir);
    FileSystemStore store = new FileSystemStore(dir);
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads));
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (StoredInput in : inputs) {
        ZarrArray z =
            ZarrArray.create(store, in.name())
                .shape(in.shape())
                .chunks(in.chunks())
                .dtype(DType.FLOAT64)
                .overwrite()
                .build();
        long[] grid = z.chunkGridShape();
        long total = 1;
        for (long g : grid) {
          total *= g;
        }
        for (long f = 0; f < total; f++) {
          long[] coords = unravel(grid, f);
          futures.add(
              pool.submit(
                  () -> {
                    long[] start = new long[coords.length];
                    for (int i = 0; i < coords.length; i++) {
                      start[i] = coords[i] * in.chunks()[i];
                    }
                    z.writeChunk(coords, in.maker().make(start, z.chunkShape(coords)));
                    return null;
                  }));
        }
      }
      for (Future<?> fu : futures) {
        fu.get();
      }
    } finally {
      pool.shutdownNow();
    }
    Files.writeString(dir.resolve(MARKER), key + "\n");
    return dir;
  }

  /**
   * Reads every file under {@code dir} once, in 1 MiB slices, discarding the bytes: afterwards the
   * files are in the page cache (as far as memory allows).
   */
  static void warm(Path dir) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(1 << 20);
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        try (FileChannel ch = FileChannel.open(f)) {
          while (ch.read(buf.clear()) > 0) {
            // discard
          }
        }
      }
    }
  }

  /** Opens a cached input array. */
  static ZarrArray open(Path dir, String name) {
    return ZarrArray.open(new FileSystemStore(dir), name);
  }

  static long[] unravel(long[] grid, long flat) {
    long[] c = new long[grid.length];
    for (int i = grid.length - 1; i >= 0; i--) {
      c[i] = flat % grid[i];
      flat /= grid[i];
    }
    return c;
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }
}
