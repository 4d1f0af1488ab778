import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.Xp;
import dev.cubed.ComputeOptions;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.ZarrArray;
import java.util.List;
import dev.cubed.zarr.store.Stores;
import java.nio.file.Path;

/**
 * A library user's program (public API only), for measuring memory and time outside the bench:
 * {@code java -cp <jars> --add-modules jdk.incubator.vector LibraryUser add|add-zstd|rechunk DATA OUT [ALLOWED_MEM]}.
 * DATA holds the zarr-python stores A, B (14000,14000) chunks 2000 and R (500,600,600) chunks
 * (1,600,600) (scripts/perf/library/make_inputs.py); OUT is a scratch directory for the results.
 * allowedMem 500 MB, 2 workers, the threads executor (docs/library.md, docs/performance.md).
 */
public final class LibraryUser {
  public static void main(String[] args) {
    String mode = args[0];
    String data = args[1];
    String out = args[2];
    Spec spec = Spec.builder().allowedMem(args.length > 3 ? args[3] : "500MB").workers(2).workDir(Path.of(out, "work"))
        .build();
    Store store = Stores.open(out);
    long t0 = System.nanoTime();
    switch (mode) {
      case "add" -> {
        CubedArray a = Cubed.fromZarr(data + "/A", spec);
        CubedArray b = Cubed.fromZarr(data + "/B", spec);
        Cubed.toZarr(Xp.add(a, b), store, "C", true);
        long t1 = System.nanoTime();
        CubedArray c = Cubed.fromZarr(out + "/C", spec);
        double s = Xp.sum(c).compute().getDouble(0);
        long t2 = System.nanoTime();
        System.out.printf("add: toZarr %.2f s, sum %.2f s, sum=%s%n", (t1 - t0) / 1e9,
            (t2 - t1) / 1e9, s);
      }
      case "add-zstd" -> { // the same, C written with zarr-python 3's default codec (zstd)
        CubedArray a = Cubed.fromZarr(data + "/A", spec);
        CubedArray b = Cubed.fromZarr(data + "/B", spec);
        CubedArray sum = Xp.add(a, b);
        ZarrArray target = ZarrArray.create(store, "C").shape(sum.shape())
            .chunks(sum.chunkShape()).dtype(sum.dtype()).compression(Compression.zstd(0))
            .overwrite().buildDeferred();
        Cubed.store(List.of(sum), List.of(target), ComputeOptions.defaults());
        long t1 = System.nanoTime();
        System.out.printf("add-zstd: toZarr %.2f s%n", (t1 - t0) / 1e9);
      }
      case "rechunk" -> {
        CubedArray r = Cubed.fromZarr(data + "/R", spec);
        Cubed.toZarr(r.rechunk(500, 100, 100), store, "R2", true);
        long t1 = System.nanoTime();
        System.out.printf("rechunk: %.2f s%n", (t1 - t0) / 1e9);
      }
      default -> throw new IllegalArgumentException("mode add|rechunk, not " + mode);
    }
  }
}
