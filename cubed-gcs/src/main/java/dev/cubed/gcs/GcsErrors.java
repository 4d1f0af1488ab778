package dev.cubed.gcs;

import com.google.cloud.BaseServiceException;
import dev.cubed.zarr.store.ObjectStores;
import dev.cubed.zarr.store.ZarrStoreException;
import java.util.Locale;

/**
 * Classification of the Cloud Storage client's exceptions for the GCS store, and how each failure
 * is reported once the client's retries are spent.
 */
final class GcsErrors {
  private GcsErrors() {}

  /** What a failed request means. */
  enum Kind {
    /** 404 for an object: the key is absent. */
    NOT_FOUND,
    /** 404 naming the bucket: it does not exist (or is not visible at this endpoint). */
    NO_SUCH_BUCKET,
    /** 401 / 403: the credentials may not do this (or none were found). */
    ACCESS_DENIED,
    /** 416: a range starting at or past the end of the value. */
    RANGE_NOT_SATISFIABLE,
    /** 408, 429, 5xx, connection failures: retried by the client with backoff. */
    TRANSIENT,
    /** Anything else: not retried. */
    PERMANENT
  }

  private static final ObjectStores.Service SERVICE =
      new ObjectStores.Service(
          "GCS",
          "Google Cloud Storage",
          "",
          "cubed.gcs.endpoint / CUBED_GCS_ENDPOINT / STORAGE_EMULATOR_HOST",
          "the endpoint is right",
          "cubed.gcs.maxAttempts");

  /** Classifies an exception thrown by the Storage client (or by a read channel). */
  static Kind classify(Throwable e) {
    BaseServiceException se = serviceException(e);
    if (se == null) {
      return ObjectStores.hasIoCause(e) ? Kind.TRANSIENT : Kind.PERMANENT;
    }
    int code = se.getCode();
    String msg = String.valueOf(se.getMessage()).toLowerCase(Locale.ROOT);
    if (code == 404) {
      return msg.contains("bucket") && !msg.contains("object")
          ? Kind.NO_SUCH_BUCKET
          : Kind.NOT_FOUND;
    }
    if (code == 401 || code == 403) {
      return Kind.ACCESS_DENIED;
    }
    if (code == 416) {
      return Kind.RANGE_NOT_SATISFIABLE;
    }
    if (code == 408
        || code == 429
        || code >= 500
        || code == 0 && ObjectStores.hasIoCause(e)
        || se.isRetryable()) {
      return Kind.TRANSIENT;
    }
    return Kind.PERMANENT;
  }

  /** The client's exception in a chain (read channels wrap it in an IOException). */
  private static BaseServiceException serviceException(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof BaseServiceException se) {
        return se;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return null;
  }

  /**
   * The store's exception for a failed request after the client's retries: names the operation, the
   * key and the bucket; says whether the retries were spent, access was denied (and how credentials
   * were chosen) or the bucket is missing. Endpoint credentials are redacted.
   */
  static ZarrStoreException failure(String op, String key, GcsStore store, Throwable e) {
    GcsSettings s = store.settings();
    return ObjectStores.failure(
        SERVICE,
        ObjectStores.Failure.of(classify(e)),
        op,
        key,
        new ObjectStores.Target(
            store, store.bucket(), s.endpoint(), store.clientDescription(), s.maxAttempts()),
        code(e),
        e);
  }

  private static String code(Throwable e) {
    BaseServiceException se = serviceException(e);
    return se == null ? "?" : String.valueOf(se.getCode());
  }
}
