package dev.cubed.s3;

import dev.cubed.zarr.store.ObjectStores;
import dev.cubed.zarr.store.ZarrStoreException;
import java.util.Locale;
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

  private static final ObjectStores.Service SERVICE =
      new ObjectStores.Service(
          "S3",
          "AWS S3",
          ", the region",
          "cubed.s3.endpoint / CUBED_S3_ENDPOINT",
          "the endpoint and region are right",
          "cubed.s3.maxAttempts");

  private static final Set<String> TRANSIENT_CODES =
      Set.of(
          "SlowDown",
          "Throttling",
          "ThrottlingException",
          "ThrottledException",
          "RequestThrottledException",
          "TooManyRequestsException",
          "RequestLimitExceeded",
          "BandwidthLimitExceeded",
          "RequestThrottled",
          "ProvisionedThroughputExceededException",
          "RequestTimeout",
          "RequestTimeoutException",
          "InternalError",
          "ServiceUnavailable");

  /** Classifies an exception thrown by the S3 client. */
  static Kind classify(Throwable e) {
    if (e instanceof NoSuchKeyException) {
      return Kind.NOT_FOUND;
    }
    if (e instanceof NoSuchBucketException) {
      return Kind.NO_SUCH_BUCKET;
    }
    if (e instanceof SdkServiceException se) {
      String code =
          e instanceof AwsServiceException ae && ae.awsErrorDetails() != null
              ? ae.awsErrorDetails().errorCode()
              : null;
      int status = se.statusCode();
      if ("NoSuchBucket".equals(code)) {
        return Kind.NO_SUCH_BUCKET;
      }
      if ("NoSuchKey".equals(code) || status == 404) {
        return Kind.NOT_FOUND;
      }
      if (status == 401
          || status == 403
          || "AccessDenied".equals(code)
          || "InvalidAccessKeyId".equals(code)
          || "SignatureDoesNotMatch".equals(code)) {
        return Kind.ACCESS_DENIED;
      }
      if (status == 416 || "InvalidRange".equals(code)) {
        return Kind.RANGE_NOT_SATISFIABLE;
      }
      if (status >= 500
          || status == 429
          || (code != null && TRANSIENT_CODES.contains(code))
          || se.isThrottlingException()
          || se.isRetryableException()) {
        return Kind.TRANSIENT;
      }
      return Kind.PERMANENT;
    }
    if (e instanceof SdkClientException) {
      // no response: connection refused or reset, timeouts, truncated bodies; retried (the
      // SDK's own rule), except configuration errors without an I/O cause (e.g. no region)
      return ObjectStores.hasIoCause(e)
              || e.getMessage() != null
                  && e.getMessage().toLowerCase(Locale.ROOT).contains("timed out")
          ? Kind.TRANSIENT
          : Kind.PERMANENT;
    }
    return ObjectStores.hasIoCause(e) ? Kind.TRANSIENT : Kind.PERMANENT;
  }

  /** True if another attempt of the request may succeed (used by the client's retry strategy). */
  static boolean isTransient(Throwable e) {
    return classify(e) == Kind.TRANSIENT;
  }

  /**
   * The store's exception for a failed request, after the client's retries: names the operation,
   * the key and the bucket, says whether it was transient (retries spent), access denied (and how
   * credentials and the endpoint were chosen) or a missing bucket.
   */
  static ZarrStoreException failure(String op, String key, S3Store store, RuntimeException e) {
    S3Settings s = store.settings();
    return ObjectStores.failure(
        SERVICE,
        ObjectStores.Failure.of(classify(e)),
        op,
        key,
        new ObjectStores.Target(store, store.bucket(), s.endpoint(), s.describe(), s.maxAttempts()),
        status(e),
        e);
  }

  private static String status(Throwable e) {
    return e instanceof SdkServiceException se ? String.valueOf(se.statusCode()) : "?";
  }
}
