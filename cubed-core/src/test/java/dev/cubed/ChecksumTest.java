package dev.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.runtime.Callback;
import dev.cubed.runtime.Events;
import dev.cubed.runtime.TaskFailedException;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.codec.ChecksumMismatchException;
import dev.cubed.zarr.store.FileSystemStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24: intermediate chunks carry a crc32c checksum, checked on read, so a chunk changed on
 * disk between two operations fails the compute (naming the chunk) instead of giving a wrong
 * answer; {@code Spec.checksum(true)} adds the checksum to the targets the engine creates.
 */
class ChecksumTest {
  @TempDir Path dir;

  /** Random bytes: incompressible, so a chunk is stored as is and one flipped byte is one value. */
  private static NDArray randomBytes(int n, long seed) {
    byte[] b = new byte[n * n];
    new Random(seed).nextBytes(b);
    return new NDArray(DType.UINT8, new long[] {n, n}, b);
  }

  private Spec spec() {
    return Spec.builder()
        .workDir(dir.resolve("work"))
        .allowedMem("200MB")
        .reservedMem("1MB")
        .build();
  }

  /** The directory of the intermediate array {@code name} in the work directory, or null. */
  private Path intermediate(String name) {
    try (Stream<Path> s = Files.walk(dir.resolve("work"))) {
      return s.filter(
              p -> p.getFileName().toString().equals(name) && Files.exists(p.resolve("zarr.json")))
          .findFirst()
          .orElse(null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void flipByte(Path file, int at) {
    try {
      byte[] b = Files.readAllBytes(file);
      b[at] ^= 0x5A;
      Files.write(file, b);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * add(1) is stored (its rechunk reads it); the rechunk runs after add's op has ended. The target
   * chunks (24 rows) are neither whole source blocks nor parts of one, so the rechunk is a copy op
   * (not a join of blocks, which would read add's blocks fused). The rechunk is read by another op
   * (adding 0): an output rechunk of a computed array would be planned as its input, storing
   * nothing.
   */
  private static CubedArray twoOps(NDArray data, Spec spec) {
    return Cubed.fromArray(data, new long[] {16, 16}, spec).add(1).rechunk(24, 2).add(0);
  }

  /** The metadata of the first intermediate array stored while {@code y} computes. */
  private String firstIntermediateMeta(CubedArray y, NDArray[] out) {
    AtomicReference<String> meta = new AtomicReference<>();
    Callback probe =
        new Callback() {
          @Override
          public void onOpEnd(Events.OpEnd e) {
            Path a = intermediate(e.opName());
            if (a != null && meta.get() == null) {
              try {
                meta.set(Files.readString(a.resolve("zarr.json")));
              } catch (IOException x) {
                throw new UncheckedIOException(x);
              }
            }
          }
        };
    out[0] = y.compute(ComputeOptions.defaults().withCallback(probe));
    return meta.get();
  }

  /**
   * Small chunks (at most 256 KiB, here 256 B) are stored uncompressed with their checksum, larger
   * ones (512 KiB) Blosc-compressed with it.
   */
  @Test
  void intermediateArraysAreChecksummedByDefault() {
    NDArray data = randomBytes(32, 1);
    NDArray[] out = new NDArray[1];
    assertThat(firstIntermediateMeta(twoOps(data, spec()), out))
        .as("an intermediate's metadata, small chunks")
        .isNotNull()
        .contains("\"crc32c\"")
        .doesNotContain("\"blosc\"");
    assertThat(out[0].equals(Cubed.fromArray(data, new long[] {16, 16}, spec()).add(1).compute()))
        .isTrue();

    NDArray big = randomBytes(1024, 3);
    CubedArray y =
        Cubed.fromArray(big, new long[] {512, 1024}, spec()).add(1).rechunk(300, 1024).add(0);
    assertThat(firstIntermediateMeta(y, out))
        .as("an intermediate's metadata, 512 KiB chunks")
        .isNotNull()
        .contains("\"crc32c\"")
        .contains("\"blosc\"");
    assertThat(out[0].equals(Cubed.fromArray(big, new long[] {512, 1024}, spec()).add(1).compute()))
        .isTrue();
  }

  @Test
  void aByteFlippedInAnIntermediateChunkFailsTheComputeNamingTheChunk() {
    NDArray data = randomBytes(32, 2);
    CubedArray y = twoOps(data, spec());
    AtomicReference<Path> flipped = new AtomicReference<>();
    Callback corrupt =
        new Callback() {
          @Override
          public void onOpEnd(Events.OpEnd e) {
            Path a = intermediate(e.opName());
            if (a != null && flipped.get() == null) {
              Path chunk = a.resolve("c/1/0");
              flipByte(chunk, 16 + 37); // a value: the chunk is its 256 bytes, then the checksum
              flipped.set(chunk);
            }
          }
        };
    assertThatThrownBy(() -> y.compute(ComputeOptions.defaults().withCallback(corrupt)))
        .isInstanceOf(TaskFailedException.class)
        .hasMessageContaining("failed after 3 attempt(s)")
        .hasMessageContaining("crc32c checksum mismatch")
        .hasMessageContaining("(corrupt chunk)")
        .hasMessageContaining("/c/1/0'")
        .hasMessageContaining(
            flipped.get().getParent().getParent().getParent().getFileName().toString())
        .hasRootCauseInstanceOf(ChecksumMismatchException.class);
  }

  @Test
  void aCorruptIntermediateIsRecomputedByTheRunItsMessageNames() {
    NDArray data = randomBytes(32, 2);
    CubedArray y = twoOps(data, spec());
    NDArray expected = twoOps(data, spec()).compute();
    AtomicReference<Path> flipped = new AtomicReference<>();
    Callback corrupt =
        new Callback() {
          @Override
          public void onOpEnd(Events.OpEnd e) {
            Path a = intermediate(e.opName());
            if (a != null && flipped.get() == null) {
              flipByte(a.resolve("c/1/0"), 16 + 37);
              flipped.set(a);
            }
          }
        };
    Throwable failure =
        org.assertj.core.api.Assertions.catchThrowable(
            () -> y.compute(ComputeOptions.defaults().withCallback(corrupt)));
    assertThat(failure).isInstanceOf(TaskFailedException.class);
    assertThat(failure.getSuppressed())
        .anyMatch(
            s ->
                s.getMessage().contains("failed its checksum")
                    && s.getMessage()
                        .contains("run the same program again (with or without resume"));
    assertThat(dev.cubed.plan.Plan.corruptIntermediate(failure)).isTrue();
    assertThat(dev.cubed.plan.Plan.keptComputeDir(failure)).isNull();
    assertThat(flipped.get().getParent()).doesNotExist();
    // follow the message: the same program again, resumed, computes the right answer
    assertThat(y.compute(ComputeOptions.defaults().withResume(true))).isEqualTo(expected);
    // and not resumed
    assertThat(y.compute()).isEqualTo(expected);
  }

  @Test
  void checksumTrueAddsCrc32cToTargetsAndDetectsAFlippedByte() throws Exception {
    Spec spec = Spec.builder().workDir(dir.resolve("work")).checksum(true).build();
    assertThat(spec.checksum()).isTrue();
    assertThat(Spec.defaults().checksum()).isFalse();
    NDArray data = randomBytes(32, 3);
    FileSystemStore store = new FileSystemStore(dir.resolve("out.zarr"));
    ZarrArray z = Cubed.toZarr(Cubed.fromArray(data, new long[] {16, 16}, spec).add(1), store, "t");
    assertThat(z.metadataJson()).contains("\"crc32c\"");
    assertThat(z.codecs().get(z.codecs().size() - 1)).containsEntry("name", "crc32c");
    NDArray expected = Cubed.fromArray(data, new long[] {16, 16}, spec()).add(1).compute();
    assertThat(Cubed.fromZarr(z, spec).compute().equals(expected)).isTrue();
    assertThat(z.streamsWrites()).isTrue();

    flipByte(dir.resolve("out.zarr/t/c/0/1"), 16 + 5);
    assertThatThrownBy(() -> Cubed.fromZarr(ZarrArray.open(store, "t"), spec).compute())
        .hasMessageContaining("crc32c checksum mismatch")
        .hasMessageContaining("chunk 't/c/0/1'")
        .hasMessageContaining(store.describe());

    // without checksum(true) a target has none; a target given to store keeps its own codecs
    FileSystemStore plain = new FileSystemStore(dir.resolve("plain.zarr"));
    assertThat(
            Cubed.toZarr(Cubed.fromArray(randomBytes(16, 4), new long[] {8, 8}, spec()), plain, "p")
                .metadataJson())
        .doesNotContain("crc32c");
    ZarrArray own =
        ZarrArray.create(plain, "o").shape(16, 16).chunks(8, 8).dtype(DType.UINT8).build();
    Cubed.store(
        List.of(Cubed.fromArray(randomBytes(16, 5), new long[] {8, 8}, spec)),
        List.of(own),
        ComputeOptions.defaults());
    assertThat(ZarrArray.open(plain, "o").metadataJson()).doesNotContain("crc32c");
  }

  @Test
  void theChecksumKeyOfSpecFilesAndTheEnvironment() throws Exception {
    Path f = dir.resolve("spec.yaml");
    Files.writeString(f, "spec:\n  checksum: true\n  allowed_mem: 1GB\n");
    assertThat(Spec.fromFile(f).checksum()).isTrue();
    Files.writeString(f, "checksum: no\n");
    assertThat(Spec.fromFile(f).checksum()).isFalse();
    assertThat(Spec.builder().checksum(true).build().toBuilder().build().checksum()).isTrue();
    assertThat(Spec.builder().checksum(true).build().toString()).contains("checksum=true");
    Files.writeString(f, "checksum: maybe\n");
    assertThatThrownBy(() -> Spec.fromFile(f))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("checksum: 'maybe' is not true or false");
    assertThat(Spec.builder().applyEnv(Map.of("CUBED_SPEC_CHECKSUM", "true")).build().checksum())
        .isTrue();
  }
}
