package dev.cubed.zarr.store;

import java.io.IOException;
import java.io.UncheckedIOException;

/** A failure of the storage under a {@link Store} (I/O error), naming the store and key. */
public class ZarrStoreException extends UncheckedIOException {
  private static final long serialVersionUID = 1L;

  /** Wraps an I/O error with a message naming what was being done. */
  public ZarrStoreException(String message, IOException cause) {
    super(message, cause);
  }
}
