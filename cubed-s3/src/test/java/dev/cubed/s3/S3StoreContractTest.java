package dev.cubed.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.StoreContract;
import dev.cubed.zarr.store.Stores;
import dev.cubed.zarr.store.ZarrStoreException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Store contract ({@link StoreContract}, shared with the filesystem and memory stores), run
 * against an S3Store on a real S3-compatible server (s3proxy on 127.0.0.1), plus what is
 * S3-specific: ranges and suffixes, pagination, serialization without credentials, missing buckets,
 * access denied and retries spent.
 */
@Tag("s3")
class S3StoreContractTest extends StoreContract {
  static S3TestServer server;

  @BeforeAll
  static void start() throws Exception {
    server = S3TestServer.start().useAsDefault().createBucket("contract");
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static Store fresh(String prefix) {
    return Stores.open("s3://contract/" + prefix);
  }

  @Override
  protected Store freshStore(String name) {
    Store s = fresh(name);
    assertThat(s).isInstanceOf(S3Store.class);
    return s;
  }

  @Override
  protected int writesPerThread() {
    return 10; // each write is a PUT to the server
  }

  @Override
  protected void checkPrefixIsNoValue(Store s) {
    assertThat(s.get("a")).isNull(); // a "directory" is no object
    // the prefix isolates stores of one bucket
    assertThat(fresh("other").list("")).isEmpty();
    String pre = ((S3Store) s).prefix();
    assertThat(new S3Store("contract", "", s3(3)).list(pre))
        .containsExactlyElementsOf(s.list("").stream().map(k -> pre + k).toList());
  }

  @Override
  protected void checkNothingEscaped(Store s) {
    assertThat(new S3Store("contract", "", s3(3)).list("")).noneMatch(k -> k.endsWith("x"));
  }

  @Test
  void listingFollowsPages() {
    Store s = fresh("pages");
    for (int i = 0; i < 23; i++) {
      s.put(String.format("d%02d/x", i), new byte[] {(byte) i});
    }
    int before = S3Store.listPageSize;
    S3Store.listPageSize = 5;
    try {
      assertThat(s.list("")).hasSize(23).startsWith("d00/x").endsWith("d22/x");
      assertThat(s.listChildren("")).hasSize(23).startsWith("d00").endsWith("d22");
      s.deletePrefix("d1"); // batch deletes, one per page of 5
      assertThat(s.list("")).hasSize(13).noneMatch(k -> k.startsWith("d1"));
      s.deletePrefix("");
      assertThat(s.list("")).isEmpty();
    } finally {
      S3Store.listPageSize = before;
    }
  }

  @Test
  void storesOpenAndSerializeWithoutCredentials() throws Exception {
    Store s = Stores.open("s3://contract/ser/sub?region=us-east-1&max_attempts=4");
    S3Store s3 = (S3Store) s;
    assertThat(s3.bucket()).isEqualTo("contract");
    assertThat(s3.prefix()).isEqualTo("ser/sub/");
    assertThat(s3.settings()).isEqualTo(new S3Settings(server.endpoint(), "us-east-1", true, 4));
    assertThat(s.bufferCopies()).isEqualTo(2);
    assertThat(s.describe()).isEqualTo("s3://contract/ser/sub/ at " + server.endpoint());
    s.put("y", new byte[] {2});
    ByteArrayOutputStream bo = new ByteArrayOutputStream();
    try (ObjectOutputStream oo = new ObjectOutputStream(bo)) {
      oo.writeObject(s);
    }
    String serialized = bo.toString(StandardCharsets.ISO_8859_1);
    assertThat(serialized)
        .doesNotContain(S3TestServer.SECRET_KEY)
        .doesNotContain(S3TestServer.ACCESS_KEY);
    Store back;
    try (ObjectInputStream oi = new ObjectInputStream(new ByteArrayInputStream(bo.toByteArray()))) {
      back = (Store) oi.readObject();
    }
    assertThat(back).isEqualTo(s);
    assertThat(back.get("y")).containsExactly(2);
    assertThatThrownBy(() -> Stores.open("s3:///nobucket"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("names no bucket");
    assertThatThrownBy(() -> Stores.open("s3://b/x?colour=red"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("colour");
  }

  @Test
  void missingBucketAndDeniedAccessSayWhat() {
    Store none = Stores.open("s3://no-such-bucket/x");
    assertThatThrownBy(() -> none.put("k", new byte[1]))
        .isInstanceOf(ZarrStoreException.class)
        .hasMessageContaining("bucket 'no-such-bucket' does not exist")
        .hasMessageContaining("key 'k'");
    String id = System.getProperty("aws.accessKeyId");
    System.setProperty("aws.accessKeyId", "someone-else");
    try {
      // max_attempts=2: another client (clients are shared per settings) picking up these keys
      Store denied = Stores.open("s3://contract/x?max_attempts=2");
      assertThatThrownBy(() -> denied.get("k"))
          .isInstanceOf(ZarrStoreException.class)
          .hasMessageContaining("access denied (HTTP 403)")
          .hasMessageContaining("key 'k' of bucket 'contract'")
          .hasMessageContaining("credentials from the AWS SDK default chain")
          .hasMessageContaining("endpoint " + server.endpoint());
    } finally {
      System.setProperty("aws.accessKeyId", id);
    }
  }

  @Test
  void transientFailuresAreRetriedThenReportedWithKeyAndBucket() {
    Store s = Stores.open("s3://contract/retry?max_attempts=3");
    s.put("chunk", new byte[] {1, 2});
    int before = server.injectedFailures();
    server.failNext(2, k -> k.equals("retry/chunk"));
    assertThat(s.get("chunk")).containsExactly(1, 2); // 2 x 503, then success
    assertThat(server.injectedFailures() - before).isEqualTo(2);
    server.failNext(100, k -> k.equals("retry/chunk"));
    try {
      assertThatThrownBy(() -> s.get("chunk"))
          .isInstanceOf(ZarrStoreException.class)
          .hasMessageContaining("key 'chunk' of bucket 'contract'")
          .hasMessageContaining("failed after 3 attempts")
          .hasMessageContaining("503");
      assertThat(server.injectedFailures() - before).isEqualTo(5); // 2 + 3 attempts
      assertThatThrownBy(() -> s.put("chunk", new byte[] {3}))
          .isInstanceOf(ZarrStoreException.class)
          .hasMessageContaining("S3 write of key 'chunk'");
    } finally {
      server.failNext(0, k -> false);
    }
    assertThat(s.get("chunk")).containsExactly(1, 2);
  }

  static S3Settings s3(int attempts) {
    return new S3Settings(server.endpoint(), "us-east-1", true, attempts);
  }
}
