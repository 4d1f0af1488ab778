package dev.cubed.s3;

import dev.cubed.zarr.store.ObjectStore;
import dev.cubed.zarr.store.ObjectStores;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.StoreSettings;
import dev.cubed.zarr.store.Stores;
import dev.cubed.zarr.store.ZarrStoreException;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Error;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A {@link Store} on an S3 bucket (AWS S3 or an S3-compatible server), rooted at a key prefix:
 * {@code s3://bucket/some/prefix} maps store key {@code a/zarr.json} to object {@code
 * some/prefix/a/zarr.json}.
 *
 * <p>Writes are one PUT each, which S3 makes atomic: readers see the old object or the new one.
 * Reads of absent keys return null (404 / NoSuchKey). Transient failures (5xx, throttling,
 * timeouts, connection resets) are retried by the client with exponential backoff ({@link
 * S3Settings#maxAttempts()} attempts); when they are spent, or for access denied and missing
 * buckets, a {@link dev.cubed.zarr.store.ZarrStoreException} names the key, the bucket and the
 * cause.
 *
 * <p>Serializable: the bucket, prefix and {@link S3Settings} travel, never credentials; the
 * receiving JVM builds its own client (credentials from its default chain) on first use. Clients
 * are shared per settings within a JVM. The memory model counts {@link #bufferCopies() 2 copies} of
 * every chunk read or written (the SDK buffers the bytes once more than a local read does).
 */
public final class S3Store extends ObjectStore<S3Settings> {
  private static final long serialVersionUID = 1L;
  private static final ConcurrentHashMap<S3Settings, S3Client> CLIENTS = new ConcurrentHashMap<>();

  /** Keys per listing page requested (S3's maximum; tests lower it to exercise pagination). */
  static volatile int listPageSize = 1000;

  private transient volatile S3Client client;

  /**
   * A store on {@code bucket} under {@code prefix} ("" for the bucket's root).
   *
   * @throws IllegalArgumentException for an empty bucket or a malformed prefix
   */
  public S3Store(String bucket, String prefix, S3Settings settings) {
    super(ObjectStores.checkBucket("S3", bucket), ObjectStores.rootPrefix(prefix), settings);
  }

  /**
   * Opens {@code s3://bucket/prefix[?endpoint=...&region=...&path_style=...&max_attempts=...]};
   * settings not in the query come from system properties and the environment ({@link
   * S3Settings#resolve}).
   *
   * @throws IllegalArgumentException if the URI is not s3:// or names no bucket
   */
  public static S3Store open(URI uri) {
    if (uri.getScheme() == null || !uri.getScheme().equalsIgnoreCase("s3")) {
      throw new IllegalArgumentException("not an s3:// URI: " + StoreSettings.withoutQuery(uri));
    }
    String bucket = ObjectStores.bucketOf(uri, "S3", "s3");
    return new S3Store(bucket, uri.getPath(), S3Settings.resolve(uri));
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
  }

  S3Client client() {
    S3Client c = client;
    if (c == null) {
      c = CLIENTS.computeIfAbsent(settings, S3Store::buildClient);
      client = c;
    }
    return c;
  }

  /** The client's retry strategy: standard, with our transient rule and no circuit breaker. */
  static RetryStrategy retryStrategy(int maxAttempts) {
    return AwsRetryStrategy.standardRetryStrategy().toBuilder()
        .maxAttempts(maxAttempts)
        .retryOnException(S3Errors::isTransient)
        .backoffStrategy(
            BackoffStrategy.exponentialDelay(Duration.ofMillis(50), Duration.ofSeconds(20)))
        .throttlingBackoffStrategy(
            BackoffStrategy.exponentialDelay(Duration.ofMillis(500), Duration.ofSeconds(20)))
        .circuitBreakerEnabled(false)
        .build();
  }

  private static S3Client buildClient(S3Settings s) {
    S3ClientBuilder b =
        S3Client.builder()
            .httpClientBuilder(
                UrlConnectionHttpClient.builder()
                    .connectionTimeout(Duration.ofSeconds(10))
                    .socketTimeout(Duration.ofSeconds(60)))
            .credentialsProvider(DefaultCredentialsProvider.builder().build())
            .forcePathStyle(s.pathStyle())
            .overrideConfiguration(
                ClientOverrideConfiguration.builder()
                    .retryStrategy(retryStrategy(s.maxAttempts()))
                    .build());
    Region region = null;
    if (s.region() != null) {
      region = Region.of(s.region());
    } else {
      try {
        region = DefaultAwsRegionProviderChain.builder().build().getRegion();
      } catch (SdkClientException e) {
        if (s.endpoint() == null) {
          throw new IllegalArgumentException(
              "S3: no region configured; set cubed.s3.region,"
                  + " CUBED_S3_REGION, aws.region or AWS_REGION, or add ?region=... to the s3:// URI"
                  + " ("
                  + e.getMessage()
                  + ")",
              e);
        }
        region = Region.US_EAST_1; // S3-compatible servers ignore it, but signing needs one
      }
    }
    b.region(region);
    if (s.endpoint() != null) {
      b.endpointOverride(URI.create(s.endpoint()));
      // S3-compatible servers differ in their support of the SDK's default flexible checksums
      b.requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED);
      b.responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
    }
    return b.build();
  }

  @Override
  public byte[] get(String key) {
    String k = objectName(key);
    try {
      return client().getObjectAsBytes(r -> r.bucket(bucket).key(k)).asByteArray();
    } catch (RuntimeException e) {
      if (S3Errors.classify(e) == S3Errors.Kind.NOT_FOUND) {
        return null;
      }
      throw S3Errors.failure("read", key, this, e);
    }
  }

  @Override
  public byte[] getRange(String key, long offset, int length) {
    ObjectStores.checkRange(this, key, offset, length);
    if (length == 0) {
      return exists(key) ? new byte[0] : null;
    }
    return ranged(key, "bytes=" + offset + "-" + (offset + length - 1));
  }

  @Override
  public byte[] getSuffix(String key, int length) {
    ObjectStores.checkSuffix(this, key, length);
    if (length == 0) {
      return exists(key) ? new byte[0] : null;
    }
    return ranged(key, "bytes=-" + length);
  }

  private byte[] ranged(String key, String range) {
    String k = objectName(key);
    try {
      ResponseBytes<GetObjectResponse> r =
          client().getObjectAsBytes(b -> b.bucket(bucket).key(k).range(range));
      return r.asByteArray();
    } catch (RuntimeException e) {
      switch (S3Errors.classify(e)) {
        case NOT_FOUND:
          return null;
        case RANGE_NOT_SATISFIABLE: // starts at or past the end (or an empty object)
          return exists(key) ? new byte[0] : null;
        default:
          throw S3Errors.failure("read (range " + range + ")", key, this, e);
      }
    }
  }

  @Override
  public void put(String key, byte[] value) {
    String k = objectName(key);
    try {
      client()
          .putObject(
              r -> r.bucket(bucket).key(k).contentLength((long) value.length),
              RequestBody.fromBytes(value));
    } catch (RuntimeException e) {
      throw S3Errors.failure("write", key, this, e);
    }
  }

  @Override
  public void delete(String key) {
    String k = objectName(key);
    try {
      client().deleteObject(r -> r.bucket(bucket).key(k));
    } catch (RuntimeException e) {
      if (S3Errors.classify(e) == S3Errors.Kind.NOT_FOUND) {
        return;
      }
      throw S3Errors.failure("delete", key, this, e);
    }
  }

  /**
   * Deletes every key under {@code keyPrefix} with DeleteObjects requests of up to 1,000 keys (one
   * listing page each), instead of one request per key.
   */
  @Override
  public void deletePrefix(String keyPrefix) {
    String p = prefix + Stores.checkPrefix(keyPrefix);
    for (ListObjectsV2Response page : pages(p, null, keyPrefix)) {
      List<ObjectIdentifier> ids = new ArrayList<>();
      for (S3Object o : page.contents()) {
        ids.add(ObjectIdentifier.builder().key(o.key()).build());
      }
      if (ids.isEmpty()) {
        continue;
      }
      DeleteObjectsResponse r;
      try {
        r = client().deleteObjects(b -> b.bucket(bucket).delete(d -> d.objects(ids).quiet(true)));
      } catch (RuntimeException e) {
        throw S3Errors.failure("delete (batch of " + ids.size() + ")", keyPrefix + "*", this, e);
      }
      if (r.hasErrors() && !r.errors().isEmpty()) {
        S3Error first = r.errors().get(0);
        throw new ZarrStoreException(
            "S3 batch delete under '"
                + keyPrefix
                + "' of bucket '"
                + bucket
                + "' ("
                + describe()
                + "): "
                + r.errors().size()
                + " of "
                + ids.size()
                + " keys not deleted, e.g. '"
                + first.key()
                + "': "
                + first.code()
                + " "
                + first.message(),
            new IOException(first.code() + " " + first.message()));
      }
    }
  }

  @Override
  public boolean exists(String key) {
    String k = objectName(key);
    try {
      client().headObject(r -> r.bucket(bucket).key(k));
      return true;
    } catch (RuntimeException e) {
      if (S3Errors.classify(e) == S3Errors.Kind.NOT_FOUND) {
        return false;
      }
      throw S3Errors.failure("check (HEAD)", key, this, e);
    }
  }

  @Override
  public List<String> list(String keyPrefix) {
    String p = prefix + Stores.checkPrefix(keyPrefix);
    TreeSet<String> out = new TreeSet<>();
    for (ListObjectsV2Response page : pages(p, null, keyPrefix)) {
      for (S3Object o : page.contents()) {
        out.add(keyOf(o.key()));
      }
    }
    return new ArrayList<>(out);
  }

  @Override
  public List<String> listChildren(String keyPrefix) {
    String kp = Stores.checkPrefix(keyPrefix);
    String p = prefix + kp;
    TreeSet<String> out = new TreeSet<>();
    for (ListObjectsV2Response page : pages(p, "/", keyPrefix)) {
      for (S3Object o : page.contents()) {
        out.add(o.key().substring(p.length()));
      }
      for (CommonPrefix cp : page.commonPrefixes()) {
        out.add(ObjectStores.childName(cp.prefix(), p.length()));
      }
    }
    out.remove("");
    return new ArrayList<>(out);
  }

  /** Every page of a listing (ListObjectsV2 with continuation tokens). */
  private List<ListObjectsV2Response> pages(String p, String delimiter, String keyPrefix) {
    List<ListObjectsV2Response> out = new ArrayList<>();
    try {
      String token = null;
      do {
        ListObjectsV2Request.Builder rb =
            ListObjectsV2Request.builder()
                .bucket(bucket)
                .prefix(p.isEmpty() ? null : p)
                .delimiter(delimiter)
                .continuationToken(token)
                .maxKeys(listPageSize);
        ListObjectsV2Response page = client().listObjectsV2(rb.build());
        out.add(page);
        token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
      } while (token != null);
    } catch (RuntimeException e) {
      throw S3Errors.failure("list", keyPrefix + "*", this, e);
    }
    return out;
  }

  /** 2: an S3 read or write holds the chunk's bytes once more than a local one (SDK buffer). */
  @Override
  public int bufferCopies() {
    return 2;
  }

  @Override
  public String describe() {
    return ObjectStores.describe("s3", bucket, prefix, settings.endpoint());
  }
}
