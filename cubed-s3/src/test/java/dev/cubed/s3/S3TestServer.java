package dev.cubed.s3;

import java.io.InputStream;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A real S3-compatible server for tests: s3proxy with its in-memory (transient) blob store,
 * listening on 127.0.0.1 at a free port, with AWS v2/v4 signatures checked against a test key.
 * {@link #failNext} makes the server answer the next reads or writes of matching keys with HTTP 503
 * SlowDown, to exercise the client's retries.
 */
public final class S3TestServer implements AutoCloseable {
  /** The access key the server accepts. */
  public static final String ACCESS_KEY = "cubed-test-access";

  /** The secret key the server accepts. */
  public static final String SECRET_KEY = "cubed-test-secret";

  private final S3Proxy proxy;
  private final AtomicInteger failures = new AtomicInteger();
  private volatile Predicate<String> failing = k -> false;
  private final AtomicInteger injected = new AtomicInteger();

  private final String accessKey;
  private final String secretKey;

  private S3TestServer(int port, String accessKey, String secretKey) throws Exception {
    this.accessKey = accessKey;
    this.secretKey = secretKey;
    BlobStore faulty =
        new ForwardingBlobStore(new TransientNio2BlobStore()) {
          @Override
          public ResponseInputStream<GetObjectResponse> getBlob(GetObjectRequest r) {
            maybeFail(r.key());
            return super.getBlob(r);
          }

          @Override
          public PutObjectResponse putBlob(PutObjectRequest r, InputStream in) {
            maybeFail(r.key());
            return super.putBlob(r, in);
          }
        };
    proxy =
        S3Proxy.builder()
            .blobStore(faulty)
            .endpoint(URI.create("http://127.0.0.1:" + port))
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, accessKey, secretKey)
            .build();
    proxy.start();
    // poll for readiness: Jetty may take long to start on a busy machine
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (!"STARTED".equals(proxy.getState())) {
      if (System.nanoTime() > deadline) {
        proxy.stop();
        throw new IllegalStateException(
            "the S3 test server on port "
                + port
                + " did not start within 5 minutes (state "
                + proxy.getState()
                + ")");
      }
      Thread.sleep(25);
    }
  }

  private void maybeFail(String key) {
    if (failing.test(key) && failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      injected.incrementAndGet();
      throw S3Exception.builder()
          .statusCode(503)
          .message("injected SlowDown for " + key)
          .awsErrorDetails(
              AwsErrorDetails.builder()
                  .errorCode("SlowDown")
                  .errorMessage("Please reduce your request rate.")
                  .build())
          .build();
    }
  }

  /** Starts a server on a free port. */
  public static S3TestServer start() throws Exception {
    return new S3TestServer(0, ACCESS_KEY, SECRET_KEY);
  }

  /** Starts a server on a given port (0 = a free one). */
  public static S3TestServer start(int port) throws Exception {
    return new S3TestServer(port, ACCESS_KEY, SECRET_KEY);
  }

  /** Starts a server on a given port (0 = a free one) accepting the given key and secret. */
  public static S3TestServer start(int port, String accessKey, String secretKey) throws Exception {
    return new S3TestServer(port, accessKey, secretKey);
  }

  /** The endpoint URL, {@code http://127.0.0.1:<port>}. */
  public String endpoint() {
    return "http://127.0.0.1:" + proxy.getPort();
  }

  /**
   * Points the S3 store at this server through the standard chains: sets the system properties
   * {@code cubed.s3.endpoint}, {@code aws.region}, {@code aws.accessKeyId} and {@code
   * aws.secretAccessKey}.
   */
  public S3TestServer useAsDefault() {
    System.setProperty("cubed.s3.endpoint", endpoint());
    System.setProperty("aws.region", "us-east-1");
    System.setProperty("aws.accessKeyId", accessKey);
    System.setProperty("aws.secretAccessKey", secretKey);
    return this;
  }

  /** Creates a bucket (through the S3 API, as a user would). */
  public S3TestServer createBucket(String name) {
    S3Store s = new S3Store(name, "", new S3Settings(endpoint(), "us-east-1", true, 3));
    s.client().createBucket(r -> r.bucket(name));
    return this;
  }

  /** The next {@code n} GETs or PUTs of keys matching {@code keys} answer HTTP 503 SlowDown. */
  public void failNext(int n, Predicate<String> keys) {
    failing = keys;
    failures.set(n);
  }

  /** How many failures were injected so far. */
  public int injectedFailures() {
    return injected.get();
  }

  @Override
  public void close() throws Exception {
    proxy.stop();
  }
}
