package dev.cubed.runtime.processes;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The heap a worker JVM spends on the jar files of its class path, estimated from the jars
 * themselves. The first {@code ObjectInputStream} a worker makes (to read its first task function)
 * initializes the JDK's serialization-filter logger, which looks the logger backend up with a
 * {@code ServiceLoader} over the system class loader; that opens <em>every</em> jar of the class
 * path (manifest {@code Class-Path} entries included), and the JDK keeps each open jar's central
 * directory on the heap for the life of the JVM: the directory bytes plus an index of about 14
 * bytes per entry. With the CLI's class path (222 jars, Spark and Beam included) that is 14 MiB,
 * more than a whole idle worker otherwise holds, and it is in the worker's heap before its first
 * task starts.
 *
 * <p>Per jar: central directory size + end record (22 bytes) + 14 bytes per entry + 2 KiB (the
 * loader, jar and zip objects). Read from each jar's end-of-central-directory record (zip64 records
 * honoured); a jar that cannot be read counts nothing (the worker cannot open it either).
 */
final class ClassPathIndex {
  private static final long PER_ENTRY = 14;
  private static final long PER_JAR = 2048;
  private static final int END_SIG = 0x06054b50;
  private static final int ZIP64_LOCATOR_SIG = 0x07064b50;
  private static final int ZIP64_END_SIG = 0x06064b50;
  private static final ConcurrentHashMap<String, Long> CACHE = new ConcurrentHashMap<>();

  private ClassPathIndex() {}

  /** The estimate for the class path workers are started with ({@code java.class.path}). */
  static long workerHeapBytes() {
    String cp = System.getProperty("java.class.path", "");
    return CACHE.computeIfAbsent(cp, ClassPathIndex::heapBytes);
  }

  /** The estimate for a class path ({@link File#pathSeparator}-separated). */
  static long heapBytes(String classPath) {
    Deque<Path> todo = new ArrayDeque<>();
    for (String e : classPath.split(File.pathSeparator)) {
      if (!e.isBlank()) {
        todo.add(Path.of(e));
      }
    }
    Set<Path> seen = new HashSet<>();
    long total = 0;
    while (!todo.isEmpty()) {
      Path p = todo.poll().toAbsolutePath().normalize();
      if (!seen.add(p) || !Files.isRegularFile(p)) {
        continue; // directories cost nothing of this kind
      }
      long[] d = directory(p);
      if (d == null) {
        continue;
      }
      total += d[0] + 22 + PER_ENTRY * d[1] + PER_JAR;
      todo.addAll(manifestClassPath(p));
    }
    return total;
  }

  /** {central directory bytes, entries} of a zip file, or null if it is not one. */
  static long[] directory(Path zip) {
    try (RandomAccessFile f = new RandomAccessFile(zip.toFile(), "r")) {
      long len = f.length();
      int tail = (int) Math.min(len, 22 + 65535);
      byte[] b = new byte[tail];
      f.seek(len - tail);
      f.readFully(b);
      for (int i = tail - 22; i >= 0; i--) {
        if (le32(b, i) != END_SIG) {
          continue;
        }
        long entries = le16(b, i + 10);
        long cenSize = le32(b, i + 12) & 0xffffffffL;
        if ((entries == 0xffff || cenSize == 0xffffffffL)
            && i >= 20
            && le32(b, i - 20) == ZIP64_LOCATOR_SIG) {
          long endPos = le64(b, i - 20 + 8);
          byte[] z = new byte[56];
          f.seek(endPos);
          f.readFully(z);
          if (le32(z, 0) == ZIP64_END_SIG) {
            entries = le64(z, 32);
            cenSize = le64(z, 40);
          }
        }
        return new long[] {cenSize, entries};
      }
      return null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** The jars a jar's manifest {@code Class-Path} adds (resolved against the jar's directory). */
  private static Set<Path> manifestClassPath(Path jar) {
    Set<Path> r = new HashSet<>();
    try (JarFile j = new JarFile(jar.toFile(), false)) {
      Manifest m = j.getManifest();
      String cp = m == null ? null : m.getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
      if (cp == null) {
        return r;
      }
      URI base = jar.toUri();
      for (String e : cp.trim().split("\\s+")) {
        if (e.isEmpty()) {
          continue;
        }
        try {
          URI u = base.resolve(e);
          if ("file".equals(u.getScheme())) {
            r.add(Path.of(u));
          }
        } catch (RuntimeException ignored) {
          // a malformed entry: the class loader skips it too
        }
      }
    } catch (IOException | RuntimeException e) {
      // not a readable jar: no Class-Path
    }
    return r;
  }

  private static int le16(byte[] b, int i) {
    return (b[i] & 0xff) | (b[i + 1] & 0xff) << 8;
  }

  private static int le32(byte[] b, int i) {
    return le16(b, i) | le16(b, i + 2) << 16;
  }

  private static long le64(byte[] b, int i) {
    return (le32(b, i) & 0xffffffffL) | (long) le32(b, i + 4) << 32;
  }
}
