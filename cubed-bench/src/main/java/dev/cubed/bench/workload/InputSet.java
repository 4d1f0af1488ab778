package dev.cubed.bench.workload;

import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where a workload's inputs come from: {@link #ENGINE} (the bench's own: stored inputs written by
 * the engine in its default layout and cached under the work directory, generated inputs made
 * inside the tasks), or {@link #zarrPython(Path)}: every input, generated ones too, read from the
 * Zarr arrays {@code scripts/perf/write_inputs_zarr_python.py} wrote with zarr-python's defaults
 * (v3, zstd) under {@code DIR/<workload>-<size>/<NAME>} (e.g. {@code DIR/add-medium/A}).
 *
 * @param name "engine" or "zarr-python", as the result's {@code inputs} field reports it
 * @param dir the zarr-python directory, null for the engine's inputs
 */
public record InputSet(String name, Path dir) {
  /** The names {@link #parse} accepts. */
  public static final List<String> NAMES = List.of("engine", "zarr-python");

  /** The engine's own inputs. */
  public static final InputSet ENGINE = new InputSet("engine", null);

  /**
   * Checks the pair.
   *
   * @throws IllegalArgumentException for another name, or a directory missing for zarr-python
   */
  public InputSet {
    Objects.requireNonNull(name, "name");
    if (!NAMES.contains(name)) {
      throw new IllegalArgumentException(
          "bench: unknown --inputs '" + name + "' (use " + String.join(" or ", NAMES) + ")");
    }
    if (name.equals("zarr-python") && dir == null) {
      throw new IllegalArgumentException(
          "bench: --inputs zarr-python needs --inputs-dir DIR (the"
              + " directory scripts/perf/write_inputs_zarr_python.py wrote)");
    }
  }

  /** Inputs zarr-python wrote under {@code dir}. */
  public static InputSet zarrPython(Path dir) {
    return new InputSet("zarr-python", Objects.requireNonNull(dir, "dir"));
  }

  /**
   * The input set of the command line's {@code --inputs NAME} and {@code --inputs-dir DIR} (dir may
   * be null for engine).
   *
   * @throws IllegalArgumentException as the constructor
   */
  public static InputSet parse(String name, Path dir) {
    return name.equals("engine") ? ENGINE : new InputSet(name, dir);
  }

  /** Whether the inputs are zarr-python's. */
  public boolean isZarrPython() {
    return dir != null;
  }

  /**
   * The directory of a workload's zarr-python inputs: {@code dir/<workload>-<size>}, where size is
   * the named size whose parameters equal {@code params}.
   *
   * @throws IllegalArgumentException if the parameters are no named size's (e.g. set by {@code
   *     --set}): the writer writes the named sizes only
   */
  Path workloadDir(Workload w, Map<String, Long> params) {
    for (String size : new String[] {"small", "medium"}) {
      if (w.params(size).equals(params)) {
        return dir.resolve(w.name() + "-" + size);
      }
    }
    throw new IllegalArgumentException(
        "bench "
            + w.name()
            + ": --inputs zarr-python has the"
            + " small and medium sizes only, not "
            + params
            + " (drop --set)");
  }

  /** How to write the inputs of size {@code size} into this set's directory. */
  private String how(String size) {
    return "; write the inputs with: PYTHON scripts/perf/write_inputs_zarr_python.py --size "
        + size
        + " --out "
        + dir
        + " (PYTHON: a Python with zarr-python 3, e.g. of"
        + " scripts/perf/make-anchors-env.sh)";
  }

  private static String size(Workload w, Path workloadDir) {
    return workloadDir.getFileName().toString().substring(w.name().length() + 1);
  }

  /**
   * Reads a workload's zarr-python inputs once (not timed; see {@link Workload#warmInputs}).
   *
   * @throws IllegalArgumentException if they are missing, saying how to write them
   */
  void warm(Workload w, Map<String, Long> params) throws IOException {
    Path d = workloadDir(w, params);
    if (!Files.isDirectory(d)) {
      throw new IllegalArgumentException(
          "bench " + w.name() + ": no zarr-python inputs " + d + how(size(w, d)));
    }
    InputCache.warm(d);
  }

  /**
   * Opens the zarr-python input {@code name} of a workload, checking its shape and chunks.
   *
   * @throws IllegalArgumentException if it is missing or has another shape or chunks, saying how to
   *     write it
   */
  ZarrArray open(Workload w, Map<String, Long> params, String name, long[] shape, long[] chunks) {
    Path d = workloadDir(w, params);
    String how = how(size(w, d));
    if (!Files.exists(d.resolve(name).resolve("zarr.json"))
        && !Files.exists(d.resolve(name).resolve(".zarray"))) {
      throw new IllegalArgumentException(
          "bench " + w.name() + ": no zarr-python input " + d.resolve(name) + how);
    }
    ZarrArray z = ZarrArray.open(new FileSystemStore(d), name);
    if (!Arrays.equals(z.shape(), shape) || !Arrays.equals(z.chunks(), chunks)) {
      throw new IllegalArgumentException(
          "bench "
              + w.name()
              + ": zarr-python input "
              + d.resolve(name)
              + " has shape "
              + Arrays.toString(z.shape())
              + " and chunks "
              + Arrays.toString(z.chunks())
              + ", the workload needs "
              + Arrays.toString(shape)
              + " and "
              + Arrays.toString(chunks)
              + how);
    }
    return z;
  }
}
