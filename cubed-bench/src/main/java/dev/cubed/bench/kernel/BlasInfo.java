package dev.cubed.bench.kernel;

import dev.ludovic.netlib.blas.BLAS;
import dev.ludovic.netlib.lapack.LAPACK;

/** Prints which BLAS and LAPACK implementations netlib selected (native OpenBLAS or pure Java). */
public final class BlasInfo {
  private BlasInfo() {}

  public static void main(String[] args) {
    System.out.println(
        BLAS.getInstance().getClass().getSimpleName()
            + " / "
            + LAPACK.getInstance().getClass().getSimpleName());
  }
}
