package dev.cubed.runtime.processes;

import java.io.ObjectInputFilter;
import java.util.Set;

/**
 * The filters every {@link java.io.ObjectInputStream} of the project sets: an allow-list of classes
 * and limits on the stream's shape, so that bytes from outside cannot name arbitrary classes of the
 * class path, allocate more than the payload could hold, or make the JVM spin (the classic
 * "SerialDOS" payload of nested {@code HashSet}s, a few KB whose reading hashes 2^100 sets, is
 * refused at its first class).
 *
 * <ul>
 *   <li>{@link #plans(long)}: a pickled lazy array (the Python bridge): only classes of {@code
 *       dev.cubed} and {@link #JDK_TYPES}, the JDK types plans hold (boxed numbers, enums, {@code
 *       Duration}, {@code TreeMap}, lists, lambdas of the engine's own classes, primitive arrays).
 *       Nothing whose reading hashes or compares its elements is allowed: no {@code HashSet},
 *       {@code HashMap} or immutable sets and maps ({@code java.util.CollSer}, the JDK's form of
 *       {@code List.of}, {@code Set.of} and {@code Map.of}, is refused; the bridge reads it as a
 *       class of its own that accepts lists only).
 *   <li>{@link #tasks(long)}: a task function sent to a worker process over its private pipe by the
 *       JVM that started it: the plan's classes as above, plus the user's own classes (any class
 *       not of the JDK: block functions and the lambdas that capture them) and the {@code
 *       java.util} collections user functions may capture; no other JDK package. The pipe's only
 *       writer is that JVM, so this filter bounds mistakes and sizes rather than a hostile sender.
 * </ul>
 *
 * Both refuse a depth over {@link #MAX_DEPTH} (a plan of thousands of operations stays far below),
 * more than {@link #MAX_REFS} references, and an array longer than the payload's length (an array
 * of {@code n} elements takes at least {@code n} bytes of the stream, so a longer declared length
 * can only be an attempt to allocate what the payload does not hold).
 */
public final class DeserializationFilters {
  private DeserializationFilters() {}

  /** The deepest nesting of objects read (a 100-operation plan is about 300 deep). */
  public static final long MAX_DEPTH = 20_000;

  /** The most object references in one stream. */
  public static final long MAX_REFS = 50_000_000;

  /** The JDK types a plan holds, by name (arrays of them and of primitives are allowed too). */
  public static final Set<String> JDK_TYPES =
      Set.of(
          "java.lang.Object",
          "java.lang.Number",
          "java.lang.Boolean",
          "java.lang.Byte",
          "java.lang.Short",
          "java.lang.Character",
          "java.lang.Integer",
          "java.lang.Long",
          "java.lang.Float",
          "java.lang.Double",
          "java.lang.String",
          "java.lang.Enum",
          "java.lang.invoke.SerializedLambda",
          "java.time.Duration",
          "java.time.Ser",
          "java.util.TreeMap",
          "java.util.ArrayList",
          // descriptors only: their instances travel as java.util.CollSer (see plans)
          "java.util.ImmutableCollections$List12",
          "java.util.ImmutableCollections$ListN",
          "java.util.Arrays$ArrayList",
          "java.util.Collections$EmptyList",
          "java.util.Collections$EmptyMap",
          "java.util.Collections$SingletonList",
          "java.util.Collections$UnmodifiableCollection",
          "java.util.Collections$UnmodifiableList",
          "java.util.Collections$UnmodifiableRandomAccessList",
          "java.util.Collections$UnmodifiableMap",
          "java.util.Collections$UnmodifiableSortedMap");

  /** The filter of a pickled plan of {@code payloadBytes} bytes (class comment). */
  public static ObjectInputFilter plans(long payloadBytes) {
    return filter(payloadBytes, false);
  }

  /** The filter of a task function of {@code payloadBytes} bytes sent to a worker process. */
  public static ObjectInputFilter tasks(long payloadBytes) {
    return filter(payloadBytes, true);
  }

  private static ObjectInputFilter filter(long payloadBytes, boolean userClasses) {
    return info -> {
      if (info.depth() > MAX_DEPTH
          || info.references() > MAX_REFS
          || info.arrayLength() > payloadBytes
          || info.streamBytes() > payloadBytes) {
        return ObjectInputFilter.Status.REJECTED;
      }
      Class<?> c = info.serialClass();
      while (c != null && c.isArray()) {
        c = c.getComponentType();
      }
      if (c == null || c.isPrimitive()) {
        return ObjectInputFilter.Status.UNDECIDED;
      }
      return allowed(c, userClasses)
          ? ObjectInputFilter.Status.ALLOWED
          : ObjectInputFilter.Status.REJECTED;
    };
  }

  private static boolean allowed(Class<?> c, boolean userClasses) {
    String n = c.getName();
    if (n.startsWith("dev.cubed.") || JDK_TYPES.contains(n)) {
      return true;
    }
    if (!userClasses) {
      return false;
    }
    ClassLoader l = c.getClassLoader();
    boolean jdk = l == null || l == ClassLoader.getPlatformClassLoader();
    return !jdk || n.startsWith("java.util.");
  }
}
