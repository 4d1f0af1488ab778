package dev.cubed.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Arrays through owner-only shared files: round trip per dtype, permissions, clean-up. */
class SharedMemoryTest {
  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(DType.class)
  void anArrayWrittenToAFileReadsBackEqualAndTheFileIsOwnerOnly(DType dtype) throws Exception {
    NDArray a = NDArray.zeros(dtype, 3, 70_000);
    byte[] raw = new byte[(int) a.nbytes()];
    new Random(dtype.ordinal()).nextBytes(raw);
    if (dtype == DType.BOOL) {
      for (int i = 0; i < raw.length; i++) {
        raw[i] &= 1;
      }
    }
    a = NDArray.fromBytes(dtype, a.shape(), raw, ByteOrder.LITTLE_ENDIAN);
    SharedMemory shm = new SharedMemory(dir, 1);
    assertThat(shm.wants(a)).isTrue();
    Path f = Path.of(shm.write(a));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f)))
        .isEqualTo("rw-------");
    assertThat(Files.size(f)).isEqualTo(a.nbytes());
    assertThat(Files.readAllBytes(f)).isEqualTo(raw);
    // read as the JVM reads Python's files (a copy named like them is unlinked once mapped)
    Path in = dir.resolve("cubed-java-test.in");
    Files.copy(f, in);
    NDArray back = SharedMemory.read(dtype, a.shape(), a.nbytes(), in.toString());
    assertThat(back.toBytes(ByteOrder.LITTLE_ENDIAN)).isEqualTo(raw);
    assertThat(in).doesNotExist();
    shm.cleanUp();
    assertThat(f).doesNotExist();
  }

  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"FLOAT64"})
  void aFileOfTheWrongSizeOrALinkIsRefused(DType dtype) throws Exception {
    Path f = dir.resolve("x.in");
    Files.write(f, new byte[24]);
    assertThatThrownBy(() -> SharedMemory.read(dtype, new long[] {4}, 32, f.toString()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("holds 24 bytes");
    Path link = Files.createSymbolicLink(dir.resolve("link.in"), f);
    assertThatThrownBy(() -> SharedMemory.read(dtype, new long[] {3}, 24, link.toString()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a regular file");
    assertThat(new SharedMemory(null, 1).wants(NDArray.zeros(dtype, 10))).isFalse();
    assertThat(new SharedMemory(dir, 1 << 20).wants(NDArray.zeros(dtype, 10))).isFalse();
  }

  @Test
  void aResultFileMadeBeforeTheComputeHoldsWhatItsTasksWrite() throws Exception {
    SharedMemory shm = new SharedMemory(dir, 1);
    SharedMemory.Mapped m = shm.create(DType.FLOAT64, new long[] {4, 5});
    assertThat(m.buffer().capacity()).isEqualTo(160);
    m.buffer().order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().put(19, 2.5);
    SharedMemory.release(m);
    Path f = Path.of(m.path());
    assertThat(Files.size(f)).isEqualTo(160);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f)))
        .isEqualTo("rw-------");
    NDArray back = SharedMemory.read(DType.FLOAT64, new long[] {4, 5}, 160, m.path());
    assertThat(back.getDouble(19)).isEqualTo(2.5);
    assertThat(back.getDouble(0)).isZero();
    assertThat(new SharedMemory(dir, 1 << 20).create(DType.FLOAT64, new long[] {4, 5}))
        .as("below the threshold: the result crosses as an array")
        .isNull();
    assertThat(new SharedMemory(null, 1).create(DType.FLOAT64, new long[] {4, 5})).isNull();
  }

  @Test
  void aResultOfTheSizeOfAReleasedFileIsWrittenIntoThatFileUnderAFreshName() throws Exception {
    SharedMemory shm = new SharedMemory(dir, 1);
    // released by the Python side: named free-<bytes>-<id>, holding the previous result
    Path free = dir.resolve(SharedMemory.FREE_PREFIX + "160-77");
    byte[] old = new byte[160];
    java.util.Arrays.fill(old, (byte) 9);
    Files.write(free, old);
    Object inode = Files.getAttribute(free, "unix:ino");
    Path other = Files.write(dir.resolve(SharedMemory.FREE_PREFIX + "80-78"), new byte[80]);
    SharedMemory.Mapped m = shm.create(DType.FLOAT64, new long[] {4, 5});
    Path f = Path.of(m.path());
    assertThat(free).as("taken").doesNotExist();
    assertThat(Files.getAttribute(f, "unix:ino")).as("the same file").isEqualTo(inode);
    assertThat(f.getFileName().toString()).startsWith("cubed-java-").endsWith(".res");
    assertThat(m.buffer().capacity()).isEqualTo(160);
    m.buffer().order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().put(0, 2.5);
    SharedMemory.release(m);
    NDArray back = SharedMemory.read(DType.FLOAT64, new long[] {4, 5}, 160, m.path());
    assertThat(back.getDouble(0)).isEqualTo(2.5);
    assertThat(other).as("another size is not taken").exists();
    // none of that size left: a new, empty file (not the 9s of the released one)
    SharedMemory.Mapped n = shm.create(DType.FLOAT64, new long[] {4, 5});
    assertThat(n.buffer().get(100)).isZero();
    SharedMemory.release(n);
    shm.cleanUp();
    assertThat(Path.of(n.path())).doesNotExist();
  }

  @Test
  void theEndOfInputRemovesTheSessionFolderAndItsTransferFiles() throws Exception {
    Path session = Files.createDirectory(dir.resolve("cubed-java-4242-abc"));
    Path left = Files.writeString(session.resolve("cubed-java-1.in"), "left by a killed parent");
    SharedMemory shm = new SharedMemory(session, 1);
    Path written = Path.of(shm.write(NDArray.of(new double[] {1, 2, 3}, 3)));
    assertThat(written).exists();
    shm.endOfSession();
    assertThat(written).doesNotExist();
    assertThat(left).doesNotExist();
    assertThat(session).doesNotExist();

    Path plain = Files.createDirectory(dir.resolve("shared")); // a folder the user named
    SharedMemory other = new SharedMemory(plain, 1);
    Path mine = Path.of(other.write(NDArray.of(new double[] {1}, 1)));
    Path theirs = Files.writeString(plain.resolve("cubed-java-2.in"), "x");
    other.endOfSession();
    assertThat(mine).doesNotExist();
    assertThat(theirs).exists();
    assertThat(plain).exists();
  }
}
