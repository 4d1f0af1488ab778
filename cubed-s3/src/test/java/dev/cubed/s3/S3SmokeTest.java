package dev.cubed.s3;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class S3SmokeTest {
  @Test
  void putGet() throws Exception {
    try (S3TestServer srv = S3TestServer.start()) {
      srv.useAsDefault().createBucket("smoke");
      S3Store s = new S3Store("smoke", "p", new S3Settings(srv.endpoint(), "us-east-1", true, 3));
      s.put("a/b", new byte[] {1, 2, 3});
      assertThat(s.get("a/b")).containsExactly(1, 2, 3);
      srv.failNext(2, k -> k.endsWith("a/b"));
      assertThat(s.get("a/b")).containsExactly(1, 2, 3);
      assertThat(srv.injectedFailures()).isEqualTo(2);
    }
  }
}
