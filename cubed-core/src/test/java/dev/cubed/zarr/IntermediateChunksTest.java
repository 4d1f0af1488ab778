package dev.cubed.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A missing intermediate chunk is an engine error; a missing user chunk is the fill value. */
class IntermediateChunksTest {
  @TempDir Path dir;

  private ZarrArray make(String path) {
    return ZarrArray.create(new FileSystemStore(dir), path)
        .shape(4, 4)
        .chunks(2, 2)
        .dtype(DType.FLOAT64)
        .build();
  }

  @Test
  void aMissingUserChunkReadsAsFillValue() {
    ZarrArray z = make("user");
    assertThat(z.readChunk(1, 1).getDouble(0)).isEqualTo(0.0);
    assertThat(z.isIntermediate()).isFalse();
  }

  @Test
  void aMissingIntermediateChunkIsAnEngineError() {
    ZarrArray z = make("inter").asIntermediate();
    assertThatThrownBy(() -> z.readChunk(1, 0))
        .isInstanceOf(MissingChunkException.class)
        .hasMessageContaining("engine error")
        .hasMessageContaining("[1, 0]")
        .hasMessageContaining("inter");
    assertThatThrownBy(() -> z.read()).isInstanceOf(MissingChunkException.class);
  }

  @Test
  void intermediatesStoreFillOnlyChunksSoEveryWrittenChunkExists() {
    ZarrArray z = make("inter2").asIntermediate();
    z.writeChunk(new long[] {0, 0}, NDArray.zeros(DType.FLOAT64, new long[] {2, 2}));
    assertThat(z.chunkExists(0, 0)).isTrue();
    assertThat(z.readChunk(0, 0).getDouble(3)).isEqualTo(0.0);
  }

  @Test
  void theIntermediateFlagSurvivesSerialization() throws Exception {
    ZarrArray z = make("inter3").asIntermediate();
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bos)) {
      out.writeObject(z);
    }
    ZarrArray back;
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bos.toByteArray()))) {
      back = (ZarrArray) in.readObject();
    }
    assertThat(back.isIntermediate()).isTrue();
    assertThatThrownBy(() -> back.readChunk(0, 1)).isInstanceOf(MissingChunkException.class);
  }
}
