package dev.cubed.zarr.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;

/**
 * What the object-store plugins ({@code cubed-s3}, {@code cubed-gcs}, {@code cubed-azure}) share: a
 * store is a bucket (or container) and a key prefix under it; store key {@code k} is the object
 * {@code prefix + k}. These helpers normalise that prefix, check arguments, turn flat object names
 * into one-level child names, and word failures the same way for every service.
 */
public final class ObjectStores {
  private ObjectStores() {}

  /**
   * A store's object-name prefix from the path of its URI: leading and trailing '/' dropped, then
   * "" for the bucket's root or the path with one '/' appended.
   *
   * @throws IllegalArgumentException if the path is not a valid key ({@link Stores#checkKey})
   */
  public static String rootPrefix(String path) {
    String p = path == null ? "" : path;
    while (p.startsWith("/")) {
      p = p.substring(1);
    }
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    if (!p.isEmpty()) {
      Stores.checkKey(p);
    }
    return p.isEmpty() ? "" : p + "/";
  }

  /**
   * Checks a bucket name: not null, not empty, no '/'.
   *
   * @param service the service's name in the message, e.g. "S3"
   * @return the name
   * @throws IllegalArgumentException "SERVICE bucket name 'B' is empty or has a '/'"
   */
  public static String checkBucket(String service, String bucket) {
    if (bucket == null || bucket.isEmpty() || bucket.contains("/")) {
      throw new IllegalArgumentException(
          service + " bucket name '" + bucket + "' is empty or has a '/'");
    }
    return bucket;
  }

  /**
   * The bucket named by the authority of an object-store URI.
   *
   * @param scheme the URI's scheme as messages show it, e.g. "s3"
   * @throws IllegalArgumentException "SERVICE URI U names no bucket; expected
   *     SCHEME://bucket/prefix" (the URI shown by {@link StoreSettings#withoutQuery})
   */
  public static String bucketOf(URI uri, String service, String scheme) {
    String bucket = uri.getAuthority();
    if (bucket == null || bucket.isEmpty()) {
      throw new IllegalArgumentException(
          service
              + " URI "
              + StoreSettings.withoutQuery(uri)
              + " names no bucket; expected "
              + scheme
              + "://bucket/prefix");
    }
    return bucket;
  }

  /**
   * Checks the arguments of {@link Store#getRange} of an object store.
   *
   * @throws IllegalArgumentException "getRange of key 'K' of STORE: negative offset O or length L"
   *     if {@code offset} or {@code length} is negative
   */
  public static void checkRange(Store store, String key, long offset, int length) {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException(
          "getRange of key '"
              + key
              + "' of "
              + store.describe()
              + ": negative offset "
              + offset
              + " or length "
              + length);
    }
  }

  /**
   * Checks the argument of {@link Store#getSuffix} of an object store.
   *
   * @throws IllegalArgumentException "getSuffix of key 'K' of STORE: negative length L" if {@code
   *     length} is negative
   */
  public static void checkSuffix(Store store, String key, int length) {
    if (length < 0) {
      throw new IllegalArgumentException(
          "getSuffix of key '" + key + "' of " + store.describe() + ": negative length " + length);
    }
  }

  /**
   * The child name in a one-level listing: {@code name} from index {@code from} (the length of the
   * listed prefix), without the trailing '/' a "directory" entry has.
   */
  public static String childName(String name, int from) {
    String n = name.substring(from);
    return n.endsWith("/") ? n.substring(0, n.length() - 1) : n;
  }

  /**
   * An object store's description for messages: {@code SCHEME://BUCKET/PREFIX}, followed by {@code
   * " at ENDPOINT"} (credentials redacted) when an endpoint override is set.
   */
  public static String describe(String scheme, String bucket, String prefix, String endpoint) {
    String where = scheme + "://" + bucket + "/" + prefix;
    return endpoint == null ? where : where + " at " + Stores.redact(endpoint);
  }

  /** True if an {@link IOException} or {@link UncheckedIOException} is in the cause chain. */
  public static boolean hasIoCause(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof IOException || t instanceof UncheckedIOException) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }

  /** What a request that failed after the client's retries means, for {@link #failure}. */
  public enum Failure {
    /** The bucket does not exist (or is not visible at this endpoint). */
    NO_SUCH_BUCKET,
    /** 401 / 403: the credentials may not do this. */
    ACCESS_DENIED,
    /** Transient failures (5xx, throttling, timeouts...) until the attempts were spent. */
    TRANSIENT,
    /** Anything else. */
    OTHER;

    /**
     * A service's own classification by constant name: {@code NO_SUCH_BUCKET}, {@code
     * ACCESS_DENIED} and {@code TRANSIENT} map to the constants of those names, any other constant
     * (e.g. {@code PERMANENT}) to {@link #OTHER}.
     */
    public static Failure of(Enum<?> kind) {
      return switch (kind.name()) {
        case "NO_SUCH_BUCKET" -> NO_SUCH_BUCKET;
        case "ACCESS_DENIED" -> ACCESS_DENIED;
        case "TRANSIENT" -> TRANSIENT;
        default -> OTHER;
      };
    }
  }

  /**
   * The service-specific words of {@link #failure} messages.
   *
   * @param name the service's short name starting each message, e.g. "S3"
   * @param defaultEndpoint what requests reach without an endpoint override, e.g. "AWS S3"
   * @param bucketChecks what to check beside the bucket name and the endpoint, starting with ", "
   *     (e.g. ", the region"), or ""
   * @param endpointSettings where the endpoint is set, e.g. "cubed.s3.endpoint / CUBED_S3_ENDPOINT"
   * @param accessChecks what must be right besides the credentials, e.g. "the endpoint is right"
   * @param attemptsSetting the setting that raises the attempts, e.g. "cubed.s3.maxAttempts"
   */
  public record Service(
      String name,
      String defaultEndpoint,
      String bucketChecks,
      String endpointSettings,
      String accessChecks,
      String attemptsSetting) {}

  /**
   * Where a failed request went, for {@link #failure}.
   *
   * @param store the store (its {@link Store#describe()} is quoted)
   * @param bucket the bucket
   * @param endpoint the endpoint override, or null
   * @param credentials how requests reach the service and find credentials (access denied only)
   * @param attempts attempts per request (transient failures only)
   */
  public record Target(
      Store store, String bucket, String endpoint, String credentials, int attempts) {}

  /**
   * The store's exception for a request that failed after the client's retries: names the service,
   * the operation, the key, the bucket and the store; says what the failure means and what to do.
   * The message and the cause's message have credentials redacted ({@link Stores#redact}); the
   * cause wraps {@code e}.
   *
   * @param status the HTTP status for access denied ("?" if unknown)
   */
  public static ZarrStoreException failure(
      Service service,
      Failure kind,
      String op,
      String key,
      Target target,
      String status,
      Throwable e) {
    String bucket = target.bucket();
    String head =
        service.name()
            + " "
            + op
            + " of key '"
            + key
            + "' of bucket '"
            + bucket
            + "' ("
            + target.store().describe()
            + ")";
    String msg =
        switch (kind) {
          case NO_SUCH_BUCKET ->
              head
                  + ": the bucket '"
                  + bucket
                  + "' does not exist at "
                  + (target.endpoint() == null
                      ? service.defaultEndpoint()
                      : Stores.redact(target.endpoint()))
                  + "; create it first, or check the bucket name"
                  + service.bucketChecks()
                  + " and the endpoint ("
                  + service.endpointSettings()
                  + ")";
          case ACCESS_DENIED ->
              head
                  + ": access denied (HTTP "
                  + status
                  + "); "
                  + target.credentials()
                  + ". Check that these credentials may "
                  + op
                  + " in this bucket and that "
                  + service.accessChecks();
          case TRANSIENT ->
              head
                  + " failed after "
                  + target.attempts()
                  + " attempts with exponential backoff (transient error: "
                  + e.getMessage()
                  + "); the service may be overloaded or unreachable; raise "
                  + service.attemptsSetting()
                  + " or retry later";
          case OTHER -> head + " failed: " + e.getMessage();
        };
    // the client's own message may repeat the endpoint URL, credentials included
    return new ZarrStoreException(
        Stores.redact(msg), new IOException(Stores.redact(e.getMessage()), e));
  }
}
