package dev.cubed.runtime.processes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.BufferedOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The class-path heap estimate read from the jars' end records. */
class ClassPathIndexTest {
  @TempDir Path dir;

  /** Writes a zip of {@code n} empty entries with random names; returns its directory bytes. */
  private long zip(Path p, int n, long seed) throws IOException {
    Random r = new Random(seed);
    long cen = 0;
    try (ZipOutputStream out =
        new ZipOutputStream(new BufferedOutputStream(Files.newOutputStream(p)))) {
      for (int i = 0; i < n; i++) {
        String name = "d" + i + "/" + "n".repeat(1 + r.nextInt(60)) + ".class";
        out.putNextEntry(new ZipEntry(name));
        out.closeEntry();
        cen += 46 + name.length(); // central directory header + name, no extra field or comment
      }
    }
    return cen;
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 300, 70_000}) // 70,000 > 65,535: a zip64 end record
  void directorySizeAndEntriesComeFromTheEndRecord(int n) throws IOException {
    Path p = dir.resolve("a.jar");
    long cen = zip(p, n, n);
    long[] d = ClassPathIndex.directory(p);
    if (n > 65_535) {
      // zip64 entries carry an extra field in the central directory: count only the entries
      assertEquals(n, d[1]);
      assertEquals(true, d[0] >= cen, "directory " + d[0] + " >= " + cen);
    } else {
      assertArrayEquals(new long[] {cen, n}, d);
    }
    assertEquals(d[0] + 22 + 14L * n + 2048, ClassPathIndex.heapBytes(p.toString()));
  }

  @Test
  void manifestClassPathIsFollowedAndDirectoriesAndMissingFilesCountNothing() throws IOException {
    Path a = dir.resolve("lib/a.jar");
    Path b = dir.resolve("lib/b.jar");
    Files.createDirectories(a.getParent());
    long ca = zip(a, 50, 1);
    long cb = zip(b, 70, 2);
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    m.getMainAttributes().put(Attributes.Name.CLASS_PATH, "lib/a.jar " + b.toUri());
    Path booter = dir.resolve("booter.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(booter), m)) {
      out.flush();
    }
    long[] db = ClassPathIndex.directory(booter);
    long expect =
        (db[0] + 22 + 14 * db[1] + 2048) + (ca + 22 + 14 * 50 + 2048) + (cb + 22 + 14 * 70 + 2048);
    String cp =
        String.join(
            File.pathSeparator,
            booter.toString(),
            dir.toString(),
            dir.resolve("missing.jar").toString(),
            a.toString()); // a.jar twice: counted once
    assertEquals(expect, ClassPathIndex.heapBytes(cp));
  }

  @Test
  void aFileThatIsNoZipCountsNothing() throws IOException {
    Path p = dir.resolve("not.jar");
    Files.write(p, new byte[] {1, 2, 3});
    assertNull(ClassPathIndex.directory(p));
    assertEquals(0, ClassPathIndex.heapBytes(p.toString()));
  }
}
