package dev.cubed.s3;

import dev.cubed.zarr.Stores;
import dev.cubed.zarr.ZarrStoreException;
import java.io.IOException;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Classification of the AWS SDK's exceptions for the S3 store: which are transient (retried with
 * backoff by the client's retry strategy) and how each failure is reported once retries are spent.
 */
final class S3Errors {
  private S3Errors() {}

  /** What a failed request means. */
  enum Kind {
    /** 404 / NoSuchKey: the key is absent. */
    NOT_FOUND,
    /** NoSuchBucket: the bucket does not exist (or is not visible at this endpoint). */
    NO_SUCH_BUCKET,
    /** 401 / 403: the credentials may not do this. */
    ACCESS_DENIED,
    /** 416: a range starting at or past the end of the value. */
    RANGE_NOT_SATISFIABLE,
    /** 5xx, throttling (429, SlowDown, Throttling...), timeouts, connection resets: retried. */
    TRANSIENT,
    /** Anything else (400s other than the above): not retried. */
    PERMANENT
  }

  private static final Set<String> TRANSIENT_CODES = Set.of("SlowDown", "Throttling",
      "ThrottlingException", "ThrottledException", "RequestThrottledException",
      "TooManyRequestsException", "RequestLimitExceeded", "BandwidthLimitExceeded",
      "RequestThrottled", "ProvisionedThroughputExceededException", "RequestTimeout",
      "RequestTimeoutException", "InternalError", "ServiceUnavailable");

  /** Classifies an exception thrown by the S3 client. */
  static Kind classify(Throwable e) {
    if (e instanceof NoSuchKeyException) {
      return Kind.NOT_FOUND;
    }
    if (e instanceof NoSuchBucketException) {
      return Kind.NO_SUCH_BUCKET;
    }
    if (e instanceof SdkServiceException se) {
      String code = e instanceof AwsServiceException ae && ae.awsErrorDetails() != null
          ? ae.awsErrorDetails().errorCode() : null;
      int status = se.statusCode();
      if ("NoSuchBucket".equals(code)) {
        return Kind.NO_SUCH_BUCKET;
      }
      if ("NoSuchKey".equals(code) || status == 404) {
        return Kind.NOT_FOUND;
      }
      if (status == 401 || status == 403 || "AccessDenied".equals(code)
          || "InvalidAccessKeyId".equals(code) || "SignatureDoesNotMatch".equals(code)) {
        return Kind.ACCESS_DENIED;
      }
      if (status == 416 || "InvalidRange".equals(code)) {
        return Kind.RANGE_NOT_SATISFIABLE;
      }
      if (status >= 500 || status == 429 || (code != null && TRANSIENT_CODES.contains(code))
          || se.isThrottlingException() || se.isRetryableException()) {
        return Kind.TRANSIENT;
      }
      return Kind.PERMANENT;
    }
    if (e instanceof SdkClientException) {
      // no response: connection refused or reset, timeouts, truncated bodies; retried (the
      // SDK's own rule), except configuration errors without an I/O cause (e.g. no region)
      return hasIoCause(e) || e.getMessage() != null
          && e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("timed out")
          ? Kind.TRANSIENT : Kind.PERMANENT;
    }
    return hasIoCause(e) ? Kind.TRANSIENT : Kind.PERMANENT;
  }

  /** True if another attempt of the request may succeed (used by the client's retry strategy). */
  static boolean isTransient(Throwable e) {
    return classify(e) == Kind.TRANSIENT;
  }

  private static boolean hasIoCause(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof IOException || t instanceof java.io.UncheckedIOException) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }

  /**
   * The store's exception for a failed request, after the client's retries: names the operation,
   * the key and the bucket, says whether it was transient (retries spent), access denied (and how
   * credentials and the endpoint were chosen) or a missing bucket.
   */
  static ZarrStoreException failure(String op, String key, S3Store store, RuntimeException e) {
    String where = "key '" + key + "' of bucket '" + store.bucket() + "' (" + store.describe()
        + ")";
    String msg = switch (classify(e)) {
      case NO_SUCH_BUCKET -> "S3 " + op + " of " + where + ": the bucket '" + store.bucket()
          + "' does not exist at " + (store.settings().endpoint() == null ? "AWS S3"
          : Stores.redact(store.settings().endpoint())) + "; create it first, or check the"
          + " bucket name, the region and the endpoint (cubed.s3.endpoint / CUBED_S3_ENDPOINT)";
      case ACCESS_DENIED -> "S3 " + op + " of " + where + ": access denied (HTTP "
          + status(e) + "); " + store.settings().describe() + ". Check that these credentials"
          + " may " + op + " in this bucket and that the endpoint and region are right";
      case TRANSIENT -> "S3 " + op + " of " + where + " failed after "
          + store.settings().maxAttempts() + " attempts with exponential backoff (transient"
          + " error: " + e.getMessage() + "); the service may be overloaded or unreachable;"
          + " raise cubed.s3.maxAttempts or retry later";
      default -> "S3 " + op + " of " + where + " failed: " + e.getMessage();
    };
    // the SDK's own message may repeat the endpoint URL, credentials included
    return new ZarrStoreException(Stores.redact(msg),
        new IOException(Stores.redact(e.getMessage()), e));
  }

  private static String status(Throwable e) {
    return e instanceof SdkServiceException se ? String.valueOf(se.statusCode()) : "?";
  }
}
