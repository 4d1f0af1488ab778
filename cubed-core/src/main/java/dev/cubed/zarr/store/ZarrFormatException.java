package dev.cubed.zarr.store;

/**
 * Invalid or unsupported Zarr content: metadata that is not JSON or breaks the format, an unknown
 * codec or dtype, absurd sizes, or a truncated or corrupt chunk. The message names the array path,
 * the field or chunk key, and what was expected.
 */
public class ZarrFormatException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** An exception with a complete message. */
  public ZarrFormatException(String message) {
    super(message);
  }

  /** An exception with a complete message and its cause. */
  public ZarrFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
