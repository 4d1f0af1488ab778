package dev.cubed.bench.kernel;

/** Prints which BLAS and LAPACK implementations netlib selected (native OpenBLAS or pure Java). */
public final class BlasInfo {
  private BlasInfo() {}

  public static void main(String[] args) {
    System.out.println(
        dev.ludovic.netlib.blas.BLAS.getInstance().getClass().getSimpleName()
            + " / "
            + dev.ludovic.netlib.lapack.LAPACK.getInstance().getClass().getSimpleName());
  }
}
