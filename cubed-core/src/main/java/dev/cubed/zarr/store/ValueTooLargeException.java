package dev.cubed.zarr.store;

/**
 * A stored value larger than the most its key may hold (a chunk larger than its array's chunk can
 * be stored in, a metadata document over the metadata limit), refused before it is read whole: at
 * most {@link #limit()} + 1 bytes of it were read, or none when the store knew its size. The
 * message names the key, the store and both sizes. A format error, so a task failing with it is not
 * retried.
 */
public class ValueTooLargeException extends ZarrFormatException {
  private static final long serialVersionUID = 1L;

  private final long size;
  private final long limit;

  /**
   * An exception with a complete message.
   *
   * @param size the value's size in bytes, or -1 if the read stopped after {@code limit + 1}
   * @param limit the most the key may hold
   */
  public ValueTooLargeException(String message, long size, long limit) {
    super(message);
    this.size = size;
    this.limit = limit;
  }

  /**
   * The exception of a store's bounded read ({@link Store#get(String, long)}) of key {@code key}.
   */
  public static ValueTooLargeException of(String key, Store store, long size, long limit) {
    return new ValueTooLargeException(
        "key '"
            + key
            + "' of "
            + store.describe()
            + " holds "
            + sizeText(size, limit)
            + ", more than the "
            + limit
            + " bytes it may hold; refused before reading it",
        size,
        limit);
  }

  /** "N bytes", or "more than L bytes" when the size is unknown (-1). */
  public static String sizeText(long size, long limit) {
    return size >= 0 ? size + " bytes" : "more than " + limit + " bytes";
  }

  /** The value's size in bytes, or -1 if only "more than {@link #limit()}" is known. */
  public long size() {
    return size;
  }

  /** The most the key may hold, in bytes. */
  public long limit() {
    return limit;
  }
}
