package dev.cubed.zarr.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Stores.redact: credentials in URLs are replaced, everything else is left as it was. */
class StoresRedactTest {
  @Test
  void userinfoOfAUrlIsReplaced() {
    assertThat(Stores.redact("http://user:secret@127.0.0.1:9000"))
        .isEqualTo("http://***@127.0.0.1:9000");
    assertThat(Stores.redact("s3://b/p at http://user:secret@host:9000/x, retry"))
        .isEqualTo("s3://b/p at http://***@host:9000/x, retry");
    assertThat(Stores.redact("'https://only-a-token@host/p'")).isEqualTo("'https://***@host/p'");
    // a password with an unencoded '@': everything up to the host goes
    assertThat(Stores.redact("http://u:p@ss@host:1/")).isEqualTo("http://***@host:1/");
    assertThat(Stores.redact("s3://b/p?endpoint=http://u:s3cret@h:9000&region=x"))
        .isEqualTo("s3://b/p?endpoint=http://***@h:9000&region=x");
  }

  @Test
  void percentEncodedUserinfoInAQueryIsReplaced() {
    assertThat(Stores.redact("s3://b/p?endpoint=http%3A%2F%2Fuser%3As3cret%40h%3A9000&r=1"))
        .isEqualTo("s3://b/p?endpoint=http%3A%2F%2F***%40h%3A9000&r=1");
  }

  @Test
  void textWithoutCredentialsIsUnchanged() {
    for (String s :
        new String[] {
          "s3://bucket/a/b.zarr",
          "/data/x@2.zarr",
          "mail me@host",
          "http://127.0.0.1:9000/b?x=1",
          "file:///tmp/a",
          ""
        }) {
      assertThat(Stores.redact(s)).isEqualTo(s);
    }
    assertThat(Stores.redact(null)).isNull();
  }
}
