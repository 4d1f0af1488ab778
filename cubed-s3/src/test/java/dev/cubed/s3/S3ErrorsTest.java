package dev.cubed.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.s3.S3Errors.Kind;
import dev.cubed.zarr.store.ZarrStoreException;
import java.io.IOException;
import java.net.SocketException;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** Which SDK exceptions are retried and what each says once retries are spent; settings. */
class S3ErrorsTest {
  static S3Exception s3(int status, String code) {
    return (S3Exception)
        S3Exception.builder()
            .statusCode(status)
            .message(code + " from server")
            .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).build())
            .build();
  }

  @Test
  void classifiesSdkExceptions() {
    assertThat(S3Errors.classify(s3(503, "SlowDown"))).isEqualTo(Kind.TRANSIENT);
    assertThat(S3Errors.classify(s3(500, "InternalError"))).isEqualTo(Kind.TRANSIENT);
    assertThat(S3Errors.classify(s3(502, null))).isEqualTo(Kind.TRANSIENT);
    assertThat(S3Errors.classify(s3(429, "TooManyRequestsException"))).isEqualTo(Kind.TRANSIENT);
    assertThat(S3Errors.classify(s3(400, "RequestTimeout"))).isEqualTo(Kind.TRANSIENT);
    assertThat(S3Errors.classify(s3(400, "Throttling"))).isEqualTo(Kind.TRANSIENT);
    assertThat(
            S3Errors.classify(
                SdkClientException.create(
                    "Unable to execute HTTP request", new SocketException("Connection reset"))))
        .isEqualTo(Kind.TRANSIENT);
    assertThat(
            S3Errors.classify(
                SdkClientException.create(
                    "read",
                    new IOException("Premature end of Content-Length delimited message body"))))
        .isEqualTo(Kind.TRANSIENT);
    assertThat(S3Errors.classify(NoSuchKeyException.builder().statusCode(404).build()))
        .isEqualTo(Kind.NOT_FOUND);
    assertThat(S3Errors.classify(s3(404, null))).isEqualTo(Kind.NOT_FOUND); // HEAD: no body
    assertThat(S3Errors.classify(NoSuchBucketException.builder().statusCode(404).build()))
        .isEqualTo(Kind.NO_SUCH_BUCKET);
    assertThat(S3Errors.classify(s3(404, "NoSuchBucket"))).isEqualTo(Kind.NO_SUCH_BUCKET);
    assertThat(S3Errors.classify(s3(403, "AccessDenied"))).isEqualTo(Kind.ACCESS_DENIED);
    assertThat(S3Errors.classify(s3(403, "SignatureDoesNotMatch"))).isEqualTo(Kind.ACCESS_DENIED);
    assertThat(S3Errors.classify(s3(416, "InvalidRange"))).isEqualTo(Kind.RANGE_NOT_SATISFIABLE);
    assertThat(S3Errors.classify(s3(400, "InvalidArgument"))).isEqualTo(Kind.PERMANENT);
    // configuration errors without I/O (no credentials, no region) are not retried
    assertThat(
            S3Errors.classify(
                SdkClientException.create("Unable to load credentials from any of the providers")))
        .isEqualTo(Kind.PERMANENT);
    assertThat(S3Errors.isTransient(s3(503, "SlowDown"))).isTrue();
    assertThat(S3Errors.isTransient(s3(403, "AccessDenied"))).isFalse();
    // the client's retry strategy is configured explicitly with these attempts
    assertThat(S3Store.retryStrategy(5).maxAttempts()).isEqualTo(5);
  }

  @Test
  void failureMessagesNameKeyBucketAndCause() {
    S3Store s = new S3Store("bkt", "p", new S3Settings("http://127.0.0.1:9", "us-east-1", true, 4));
    ZarrStoreException t = S3Errors.failure("read", "a/c/0", s, s3(503, "SlowDown"));
    assertThat(t)
        .hasMessageContaining("S3 read of key 'a/c/0' of bucket 'bkt'")
        .hasMessageContaining("failed after 4 attempts")
        .hasCauseInstanceOf(IOException.class);
    assertThat(S3Errors.failure("write", "k", s, s3(403, "AccessDenied")))
        .hasMessageContaining("access denied (HTTP 403)")
        .hasMessageContaining("endpoint http://127.0.0.1:9");
    assertThat(
            S3Errors.failure(
                "write", "k", s, NoSuchBucketException.builder().statusCode(404).build()))
        .hasMessageContaining("the bucket 'bkt' does not exist at http://127.0.0.1:9");
  }

  @Test
  void settingsComeFromQueryThenPropertiesThenEnvironment() {
    Map<String, String> props =
        Map.of("cubed.s3.endpoint", "http://props:1", "cubed.s3.region", "eu-west-1");
    Map<String, String> env =
        Map.of(
            "CUBED_S3_ENDPOINT",
            "http://env:2",
            "CUBED_S3_MAX_ATTEMPTS",
            "3",
            "CUBED_S3_PATH_STYLE",
            "false");
    S3Settings a = S3Settings.resolve(URI.create("s3://b/p"), props::get, env::get);
    assertThat(a).isEqualTo(new S3Settings("http://props:1", "eu-west-1", false, 3));
    S3Settings b =
        S3Settings.resolve(
            URI.create("s3://b/p?endpoint=http%3A%2F%2Fq%3A3&path_style=true&region=us-west-2"),
            props::get,
            env::get);
    assertThat(b).isEqualTo(new S3Settings("http://q:3", "us-west-2", true, 3));
    S3Settings c = S3Settings.resolve(URI.create("s3://b/p"), k -> null, k -> null);
    assertThat(c).isEqualTo(new S3Settings(null, null, false, S3Settings.DEFAULT_MAX_ATTEMPTS));
    // an endpoint alone turns on path-style addressing (S3-compatible servers)
    assertThat(
            S3Settings.resolve(URI.create("s3://b/p?endpoint=http://h:9"), k -> null, k -> null)
                .pathStyle())
        .isTrue();
    assertThatThrownBy(() -> new S3Settings("ftp://x", null, true, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("http://");
    assertThatThrownBy(
            () -> S3Settings.resolve(URI.create("s3://b/p?max_attempts=0"), k -> null, k -> null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 1");
  }
}
