package dev.cubed.zarr;

/**
 * A Zarr array or store could not be read or written: corrupt or truncated chunks, metadata that is
 * not valid, unsupported codecs or dtypes, or a failing store. The message names the array path,
 * the key or field, and what was expected.
 */
public class ZarrException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public ZarrException(String message) {
    super(message);
  }

  public ZarrException(String message, Throwable cause) {
    super(message, cause);
  }
}
