package dev.cubed.zarr;

/** Element order inside a stored chunk: C (row-major, last index fastest) or F (column-major). */
public enum MemoryOrder {
  /** Row-major. */
  C,
  /** Column-major (v2 {@code "order": "F"}; v3 a transpose codec reversing the axes). */
  F
}
