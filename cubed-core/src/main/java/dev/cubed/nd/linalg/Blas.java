package dev.cubed.nd.linalg;

import dev.ludovic.netlib.blas.BLAS;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The BLAS used for float32/float64 matmul, chosen once.
 *
 * <p>{@code dev.ludovic.netlib} loads, in order: a native BLAS through its JNI shim (class {@code
 * JNIBLAS}), a Vector API implementation (only with {@code --add-modules jdk.incubator.vector}) and
 * plain Java. The JNI shim {@code dlopen}s the library named by the system property {@code
 * dev.ludovic.netlib.blas.nativeLibPath} (a full path) or {@code dev.ludovic.netlib.blas.nativeLib}
 * (a soname, default {@code libblas.so.3}, which Debian's alternatives may point at the reference
 * BLAS or at OpenBLAS). So that matmul gets the optimized OpenBLAS whenever it is installed, this
 * class sets {@code nativeLibPath} to the first existing {@code libopenblas.so.0} in the usual
 * library directories, unless either property is already set (a user's choice wins). The chosen
 * class is logged at DEBUG level on logger {@code dev.cubed.nd.linalg.Blas}; {@link #describe()}
 * reports it.
 */
final class Blas {
  private Blas() {}

  private static final String[] OPENBLAS = {
    "/usr/lib/x86_64-linux-gnu/libopenblas.so.0",
    "/usr/lib/aarch64-linux-gnu/libopenblas.so.0",
    "/usr/lib64/libopenblas.so.0",
    "/usr/lib/libopenblas.so.0",
    "/usr/local/lib/libopenblas.so.0",
    "/opt/homebrew/opt/openblas/lib/libopenblas.dylib",
    "/usr/local/opt/openblas/lib/libopenblas.dylib",
  };

  private static final String chosenPath;

  /** The BLAS instance. */
  static final BLAS INSTANCE;

  static {
    String path = null;
    if (System.getProperty("dev.ludovic.netlib.blas.nativeLibPath") == null
        && System.getProperty("dev.ludovic.netlib.blas.nativeLib") == null) {
      for (String p : OPENBLAS) {
        if (Files.isReadable(Path.of(p))) {
          path = p;
          System.setProperty("dev.ludovic.netlib.blas.nativeLibPath", p);
          break;
        }
      }
    }
    chosenPath = path;
    INSTANCE = BLAS.getInstance();
    System.getLogger(Blas.class.getName()).log(System.Logger.Level.DEBUG, describe());
  }

  /**
   * Which implementation is in use, e.g. {@code "JNIBLAS (native /usr/lib/.../libopenblas.so.0)"}.
   */
  static String describe() {
    String lib =
        System.getProperty(
            "dev.ludovic.netlib.blas.nativeLibPath",
            System.getProperty("dev.ludovic.netlib.blas.nativeLib", "libblas.so.3"));
    return "BLAS implementation "
        + INSTANCE.getClass().getName()
        + (INSTANCE.getClass().getSimpleName().startsWith("JNI") ? " (native " + lib + ")" : "")
        + (chosenPath != null ? ", OpenBLAS selected automatically" : "");
  }
}
