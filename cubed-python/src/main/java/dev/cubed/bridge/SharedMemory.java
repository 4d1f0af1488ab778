package dev.cubed.bridge;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Large arrays through a shared file instead of the pipe (tag {@link Wire#SHMARRAY}): the sender
 * writes the raw little-endian bytes into a file only its user can read (mode 0600, in {@code
 * /dev/shm} where there is one) and sends the file's path over the pipe; the receiver maps the
 * file. One copy on each side (Python's array into the file; the file into the NDArray's Java
 * array, or back) instead of the pipe's four. Only the process holding the pipe can name a file, so
 * the pipe keeps its property that nobody else drives the JVM.
 *
 * <p>Files this JVM writes for replies are unlinked by the Python side when it maps them; any still
 * present when the next request arrives or the JVM exits (the reply was never read) are deleted
 * then. The Python side gives each JVM a folder of its own ({@code cubed-java-<python pid>-*}) and
 * removes it with everything in it when it ends or kills that JVM (a Ctrl-C during a transfer), and
 * removes the folders of dead processes when a session starts.
 */
final class SharedMemory {
  /** The prefix of every transfer file, and of the session folders the Python side makes. */
  static final String SESSION_PREFIX = "cubed-java-";

  /** Where reply files go; null: replies always use the pipe. */
  private final Path dir;

  /** Smallest array (bytes) sent through a file. */
  private final long minBytes;

  private final List<Path> written = new ArrayList<>();
  private final ByteBuffer piece =
      ByteBuffer.allocateDirect(BridgeMain.IO_PIECE).order(ByteOrder.LITTLE_ENDIAN);

  SharedMemory(Path dir, long minBytes) {
    this.dir = dir;
    this.minBytes = minBytes;
  }

  /** From the environment the Python side sets: CUBED_BRIDGE_SHM_DIR, CUBED_BRIDGE_SHM_MIN. */
  static SharedMemory fromEnv() {
    String d = System.getenv("CUBED_BRIDGE_SHM_DIR");
    String m = System.getenv("CUBED_BRIDGE_SHM_MIN");
    if (d == null || d.isEmpty() || !Files.isDirectory(Path.of(d))) {
      return new SharedMemory(null, Long.MAX_VALUE);
    }
    return new SharedMemory(Path.of(d), m == null ? 1L << 20 : Long.parseLong(m));
  }

  boolean wants(NDArray a) {
    return dir != null && a.nbytes() >= minBytes && a.nbytes() > 0;
  }

  /**
   * Reads an array the sender wrote to a file: one copy, from the mapped file into the Java array.
   * The file must be a regular file (not a link) of exactly {@code nbytes} bytes.
   */
  static NDArray read(DType dtype, long[] shape, long nbytes, String path) {
    Path p = Path.of(path);
    if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
      throw new Wire.MalformedMessageException(
          "shared array file " + path + " is not a regular file");
    }
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      if (ch.size() != nbytes) {
        throw new Wire.MalformedMessageException(
            "shared array file "
                + path
                + " holds "
                + ch.size()
                + " bytes; the message says "
                + nbytes);
      }
      MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, 0, nbytes);
      // the sender's file, mapped now: unlinked at once (the sender unlinks it too after the
      // reply; this keeps a killed sender from leaving it behind)
      if (p.getFileName().toString().startsWith(SESSION_PREFIX)) {
        Files.deleteIfExists(p);
      }
      try {
        return NDArray.fromBytes(dtype, shape, m, ByteOrder.LITTLE_ENDIAN);
      } finally {
        unmap(m);
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the shared array file " + path + ": " + e, e);
    }
  }

  /**
   * Writes an array to a new owner-only file and returns its path (the array's elements into a
   * direct buffer, piece by piece, and from there into the file).
   */
  String write(NDArray a) throws IOException {
    Path f = newOutFile();
    // written in pieces through one direct buffer: the kernel allocates the file's pages in the
    // write calls (a fresh mapping would take one page fault per page instead)
    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
      int per = BridgeMain.IO_PIECE / Math.max(1, a.dtype().itemSize());
      for (int off = 0; off < a.size(); off += per) {
        int n = Math.min(per, a.size() - off);
        piece.clear();
        put(a, off, n, piece);
        piece.flip();
        while (piece.hasRemaining()) {
          ch.write(piece);
        }
      }
    }
    return f.toString();
  }

  /** A new owner-only reply file in this session's folder, deleted with the others. */
  private Path newOutFile() throws IOException {
    return newOutFile(".out");
  }

  private Path newOutFile(String suffix) throws IOException {
    Path f =
        Files.createTempFile(
            dir,
            SESSION_PREFIX,
            suffix,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    written.add(f);
    return f;
  }

  /**
   * The name prefix of a result file the Python side has released for reuse, followed by its byte
   * size and a dash: {@code cubed-java-free-<bytes>-<id>}. Its pages are allocated already, so a
   * result written into it costs a copy, not a page allocation per page.
   */
  static final String FREE_PREFIX = SESSION_PREFIX + "free-";

  /**
   * A new result file of {@code n} bytes: a released one of that size ({@link #FREE_PREFIX})
   * renamed to a fresh reply name when there is one (taken atomically: the Python side may delete
   * it meanwhile, then the next one or a new file is used), else a new empty file.
   */
  private Path newResultFile(long n) throws IOException {
    Path f = newOutFile(".res");
    try (var free = Files.newDirectoryStream(dir, FREE_PREFIX + n + "-*")) {
      for (Path p : free) {
        if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
          continue;
        }
        try {
          Files.move(p, f, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
          return f;
        } catch (NoSuchFileException e) {
          // deleted by its owner in the meantime: the next one
        }
      }
    }
    return f;
  }

  /**
   * A result file made before its compute runs: the tasks write their blocks into {@code buffer}
   * (the file mapped) or, for long contiguous runs, through {@code channel} (the file open for
   * positional writes, which allocate its pages without a page fault each), and the reply names the
   * file ({@link Wire#SHMARRAY}), so the result crosses with one copy, task to file, and none in
   * the heap.
   */
  record Mapped(
      String path,
      MappedByteBuffer buffer,
      FileChannel channel,
      DType dtype,
      long[] shape,
      long nbytes) {}

  /**
   * A new owner-only file of {@code dtype} and {@code shape}'s byte size (a released result file of
   * that size when there is one, see {@link #FREE_PREFIX}), mapped for writing, or null when
   * results of that size cross another way (no shared folder, smaller than the threshold, empty, or
   * over the 2 GB a mapping holds). Deleted as the reply files are when not taken.
   */
  Mapped create(DType dtype, long[] shape) throws IOException {
    long n = dtype.itemSize();
    for (long d : shape) {
      n = d == 0 || n <= Integer.MAX_VALUE / d ? n * d : Long.MAX_VALUE;
    }
    if (dir == null || n < minBytes || n == 0 || n > Integer.MAX_VALUE) {
      return null;
    }
    Path f = newResultFile(n);
    FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE);
    try {
      if (ch.size() > n) {
        ch.truncate(n); // (a released file has its name's size unless someone changed it)
      }
      return new Mapped(
          f.toString(), ch.map(FileChannel.MapMode.READ_WRITE, 0, n), ch, dtype, shape.clone(), n);
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  /**
   * Unmaps result files on a thread of their own: tearing down the mapping of a large result takes
   * tens of milliseconds, which the reply need not wait for (the reader maps the file itself).
   */
  private static final ExecutorService UNMAPPER =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "cubed-bridge-unmap");
            t.setDaemon(true);
            return t;
          });

  /**
   * Unmaps a result file this JVM wrote (once its compute has ended: no task writes any more), soon
   * and without waiting for it; the file stays for the reader.
   */
  static void release(Mapped m) {
    if (m != null) {
      try {
        m.channel().close();
      } catch (IOException e) {
        System.err.println("bridge: cannot close " + m.path() + ": " + e);
      }
      UNMAPPER.execute(() -> unmap(m.buffer()));
    }
  }

  /** Deletes the reply files not taken by the reader (called before each request and at exit). */
  void cleanUp() {
    for (Path p : written) {
      try {
        Files.deleteIfExists(p);
      } catch (IOException e) {
        System.err.println("bridge: cannot delete " + p + ": " + e);
      }
    }
    written.clear();
  }

  /**
   * At the end of input (the parent closed the pipe or died): deletes this JVM's files and, when
   * the folder is a session folder the Python side made for this JVM ({@code cubed-java-<pid>-*}),
   * the transfer files left in it and the folder itself, so that a killed parent leaves nothing
   * behind while its JVM can still clean up.
   */
  void endOfSession() {
    cleanUp();
    if (dir == null || !dir.getFileName().toString().startsWith(SESSION_PREFIX)) {
      return;
    }
    try (var files = Files.newDirectoryStream(dir, SESSION_PREFIX + "*")) {
      for (Path p : files) {
        if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
          Files.deleteIfExists(p);
        }
      }
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      // not empty (someone else's file) or already removed by the Python side: leave it
    }
  }

  /**
   * Puts elements {@code [off, off + n)} of an array into a little-endian buffer at its position
   * (complex: 2n numbers), advancing it.
   */
  static void put(NDArray a, int off, int n, ByteBuffer bb) {
    Object data = a.data();
    int pos = bb.position();
    switch (a.dtype()) {
      case BOOL -> {
        boolean[] b = (boolean[]) data;
        for (int i = 0; i < n; i++) {
          bb.put(pos + i, (byte) (b[off + i] ? 1 : 0));
        }
      }
      case INT8, UINT8 -> bb.put(pos, (byte[]) data, off, n);
      case INT16, UINT16 -> bb.asShortBuffer().put((short[]) data, off, n);
      case INT32, UINT32 -> bb.asIntBuffer().put((int[]) data, off, n);
      case INT64, UINT64 -> bb.asLongBuffer().put((long[]) data, off, n);
      case FLOAT32 -> bb.asFloatBuffer().put((float[]) data, off, n);
      case FLOAT64 -> bb.asDoubleBuffer().put((double[]) data, off, n);
      case COMPLEX64 -> bb.asFloatBuffer().put((float[]) data, 2 * off, 2 * n);
      case COMPLEX128 -> bb.asDoubleBuffer().put((double[]) data, 2 * off, 2 * n);
      default -> throw new IllegalStateException("dtype " + a.dtype());
    }
    bb.position(pos + n * a.dtype().itemSize());
  }

  /**
   * Releases a mapping now rather than at some later garbage collection (the file's memory in
   * /dev/shm is freed only when both sides have unmapped it); left to the collector where the JDK
   * does not offer it.
   */
  private static void unmap(MappedByteBuffer m) {
    try {
      Class<?> c = Class.forName("sun.misc.Unsafe");
      Field f = c.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      c.getMethod("invokeCleaner", ByteBuffer.class).invoke(f.get(null), m);
    } catch (ReflectiveOperationException | RuntimeException e) {
      // the mapping goes when the buffer is collected
    }
  }
}
