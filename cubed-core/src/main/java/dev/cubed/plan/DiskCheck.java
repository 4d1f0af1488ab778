package dev.cubed.plan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.ToLongFunction;

/**
 * The disk check of a plan, beside the memory check: the bytes of its intermediate arrays (all of
 * them, uncompressed: intermediates are deleted after the compute, so they are all on disk at its
 * end) against the usable space of the file system holding the local work directory. Object-store
 * work directories are not checked.
 */
final class DiskCheck {
  private DiskCheck() {}

  /**
   * The usable bytes of the file system holding a path (its nearest existing ancestor); tests set
   * another source, the real one is {@link java.nio.file.FileStore#getUsableSpace()}.
   */
  static volatile ToLongFunction<Path> usableSpace = DiskCheck::fileStoreUsable;

  /**
   * Throws when {@code intermediateBytes} exceed the usable space where {@code workDir} is.
   *
   * @throws DiskSpaceExceededException naming both figures, the work directory and what to do
   */
  static void check(long intermediateBytes, Path workDir) {
    if (intermediateBytes <= 0) {
      return;
    }
    long free = usableSpace.applyAsLong(workDir);
    if (free >= 0 && intermediateBytes > free) {
      throw new DiskSpaceExceededException(intermediateBytes, free, workDir.toString());
    }
  }

  /**
   * Usable bytes of the file system of {@code p} or of its nearest existing ancestor; -1 if none.
   */
  static long fileStoreUsable(Path p) {
    Path at = p.toAbsolutePath();
    while (at != null && !Files.exists(at)) {
      at = at.getParent();
    }
    if (at == null) {
      return -1;
    }
    try {
      return Files.getFileStore(at).getUsableSpace();
    } catch (IOException e) {
      return -1; // unknown: not refused here; a full disk still fails the write that hits it
    }
  }
}
