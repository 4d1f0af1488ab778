package dev.cubed.gcs;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.storage.StorageException;
import dev.cubed.gcs.GcsErrors.Kind;
import java.io.IOException;
import java.net.ConnectException;
import org.junit.jupiter.api.Test;

/** Which of the client's failures are absences, denials, retried or final. */
class GcsErrorsTest {
  @Test
  void statusCodesAreClassified() {
    assertThat(GcsErrors.classify(new StorageException(404, "No such object: b/k")))
        .isEqualTo(Kind.NOT_FOUND);
    assertThat(
            GcsErrors.classify(new StorageException(404, "The specified bucket does not exist.")))
        .isEqualTo(Kind.NO_SUCH_BUCKET);
    assertThat(GcsErrors.classify(new StorageException(403, "denied")))
        .isEqualTo(Kind.ACCESS_DENIED);
    assertThat(GcsErrors.classify(new StorageException(401, "login")))
        .isEqualTo(Kind.ACCESS_DENIED);
    assertThat(GcsErrors.classify(new StorageException(416, "range")))
        .isEqualTo(Kind.RANGE_NOT_SATISFIABLE);
    for (int code : new int[] {408, 429, 500, 502, 503, 504}) {
      assertThat(GcsErrors.classify(new StorageException(code, "busy")))
          .as("HTTP " + code)
          .isEqualTo(Kind.TRANSIENT);
    }
    assertThat(GcsErrors.classify(new StorageException(400, "bad request")))
        .isEqualTo(Kind.PERMANENT);
  }

  @Test
  void connectionFailuresAreTransientAndWrappedExceptionsAreFound() {
    assertThat(GcsErrors.classify(new StorageException(new ConnectException("refused"))))
        .isEqualTo(Kind.TRANSIENT);
    // a read channel reports the client's exception inside an IOException
    assertThat(GcsErrors.classify(new IOException("read", new StorageException(404, "gone"))))
        .isEqualTo(Kind.NOT_FOUND);
    assertThat(GcsErrors.classify(new IllegalStateException("bug"))).isEqualTo(Kind.PERMANENT);
  }
}
