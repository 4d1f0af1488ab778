package dev.cubed.zarr.store;

import java.net.URI;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Pattern;

/** Opens stores from URIs or paths. */
public final class Stores {
  private static final ConcurrentHashMap<String, MemoryStore> MEMORY = new ConcurrentHashMap<>();

  private Stores() {}

  /** The largest value a byte array holds (a few bytes under {@code Integer.MAX_VALUE}). */
  static final int MAX_VALUE_BYTES = Integer.MAX_VALUE - 8;

  /**
   * The default of {@link #maxMetadataBytes()}: 16 MiB, far above any real metadata document
   * (consolidated metadata of thousands of arrays included) and far below a heap.
   */
  public static final long DEFAULT_MAX_METADATA_BYTES = 16L << 20;

  /**
   * The most a metadata document ({@code zarr.json}, {@code .zarray}, {@code .zattrs}, {@code
   * .zgroup}, {@code .zmetadata}) may hold: the store setting {@code max_metadata_bytes} of service
   * {@code STORE} (system property {@code cubed.store.maxMetadataBytes}, else the environment
   * variable {@code CUBED_STORE_MAX_METADATA_BYTES}; {@link StoreSettings}), default {@link
   * #DEFAULT_MAX_METADATA_BYTES}. A larger document is refused before it is read ({@link
   * #getMetadata}).
   *
   * @throws IllegalArgumentException if the setting is not a positive whole number of bytes
   */
  public static long maxMetadataBytes() {
    StoreSettings s = StoreSettings.global("STORE", System::getProperty, System::getenv);
    String v = s.get("max_metadata_bytes");
    if (v == null) {
      return DEFAULT_MAX_METADATA_BYTES;
    }
    try {
      long n = Long.parseLong(v);
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // the message below
    }
    throw new IllegalArgumentException(
        "STORE max_metadata_bytes '"
            + v
            + "' (cubed.store.maxMetadataBytes or CUBED_STORE_MAX_METADATA_BYTES) is not a positive"
            + " number of bytes");
  }

  /**
   * A metadata document of {@code store}, at most {@link #maxMetadataBytes()} bytes; null if
   * absent.
   *
   * @throws ValueTooLargeException for a larger one, in one line naming the key, the store, both
   *     sizes and the setting, before it is read whole
   */
  public static byte[] getMetadata(Store store, String key) {
    long max = maxMetadataBytes();
    try {
      return store.get(key, max);
    } catch (ValueTooLargeException e) {
      throw metadataTooLarge(store, key, e, max);
    }
  }

  /** The one-line refusal of metadata document {@code key}, from a store's refusal {@code e}. */
  static ValueTooLargeException metadataTooLarge(
      Store store, String key, ValueTooLargeException e, long max) {
    {
      ValueTooLargeException t =
          new ValueTooLargeException(
              "metadata document '"
                  + key
                  + "' of "
                  + store.describe()
                  + " holds "
                  + ValueTooLargeException.sizeText(e.size(), max)
                  + ", more than the "
                  + max
                  + " bytes a metadata document may hold; refused before reading it (a corrupt"
                  + " or hostile store; raise the limit with cubed.store.maxMetadataBytes or"
                  + " CUBED_STORE_MAX_METADATA_BYTES if the document is genuine)",
              e.size(),
              max);
      t.initCause(e);
      return t;
    }
  }

  /** Checks a bound of {@link Store#get(String, long)}. */
  static void checkMaxBytes(String key, long maxBytes) {
    if (maxBytes < 0) {
      throw new IllegalArgumentException(
          "bounded read of key '" + key + "': negative bound " + maxBytes);
    }
  }

  /**
   * Opens a store: {@code "file:///abs/dir"} or a plain path gives a {@link FileSystemStore};
   * {@code "memory://name"} the JVM-wide {@link MemoryStore} of that name (created on first use);
   * other schemes are looked up among the {@link StoreProvider} plugins ({@code http} and {@code
   * https}: the read-only {@link HttpStore}, built in).
   *
   * @throws IllegalArgumentException for an unsupported scheme, naming the URI and the schemes
   *     available
   */
  public static Store open(String uriOrPath) {
    if (uriOrPath == null || uriOrPath.isEmpty()) {
      throw new IllegalArgumentException("Stores.open: empty store location");
    }
    int colon = uriOrPath.indexOf("://");
    if (colon <= 1) { // no scheme, or a Windows drive letter
      return new FileSystemStore(Paths.get(uriOrPath));
    }
    String scheme = uriOrPath.substring(0, colon).toLowerCase(Locale.ROOT);
    if (scheme.equals("file")) {
      return new FileSystemStore(Path.of(URI.create(uriOrPath)));
    }
    if (scheme.equals("memory")) {
      String name = uriOrPath.substring(colon + 3);
      while (name.endsWith("/")) {
        name = name.substring(0, name.length() - 1);
      }
      return memory(name);
    }
    URI uri;
    try {
      uri = URI.create(uriOrPath);
    } catch (IllegalArgumentException e) {
      // the URI parser's message repeats the input: keep it out, the cause stays for debugging
      throw new IllegalArgumentException("Stores.open: malformed URI '" + redact(uriOrPath) + "'");
    }
    for (StoreProvider p : ServiceLoader.load(StoreProvider.class)) {
      if (p.supports(scheme)) {
        return p.open(uri);
      }
    }
    throw new IllegalArgumentException(
        "Stores.open: no store for scheme '"
            + scheme
            + "' in '"
            + redact(uriOrPath)
            + "': supported are plain paths, file://, memory:// and http(s):// (read-only);"
            + " other schemes need a StoreProvider plugin on the classpath (cubed-s3 for s3://,"
            + " cubed-azure for az://)");
  }

  /**
   * Checks a store key the way the built-in stores do (for {@link StoreProvider} plugins):
   * relative, '/'-separated, no empty, "." or ".." segments, no backslash or drive letter.
   *
   * @return the key
   * @throws IllegalArgumentException naming the key and what is wrong with it
   */
  public static String checkKey(String key) {
    return Keys.check(key);
  }

  /** Checks a list prefix ("" or a key prefix, which may end with '/'); see {@link #checkKey}. */
  public static String checkPrefix(String prefix) {
    return Keys.checkPrefix(prefix);
  }

  /**
   * Checks the arguments of {@link Store#getRange} the way the built-in stores do.
   *
   * @throws IllegalArgumentException "getRange: offset O and length L must be &gt;= 0 (key 'K')" if
   *     {@code offset} or {@code length} is negative
   */
  public static void checkRange(String key, long offset, int length) {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException(
          "getRange: offset "
              + offset
              + " and length "
              + length
              + " must be >= 0 (key '"
              + key
              + "')");
    }
  }

  /**
   * Checks the argument of {@link Store#getSuffix} the way the built-in stores do.
   *
   * @throws IllegalArgumentException "getSuffix: length L must be &gt;= 0 (key 'K')" if {@code
   *     length} is negative
   */
  public static void checkSuffix(String key, int length) {
    if (length < 0) {
      throw new IllegalArgumentException(
          "getSuffix: length " + length + " must be >= 0 (key '" + key + "')");
    }
  }

  /**
   * Checks the length of {@link Store#put(String, byte[], int)}.
   *
   * @throws IllegalArgumentException "put: length L outside [0, N] (key 'K')" if {@code length} is
   *     negative or beyond {@code value.length}
   */
  public static void checkLength(String key, byte[] value, int length) {
    if (length < 0 || length > value.length) {
      throw new IllegalArgumentException(
          "put: length " + length + " outside [0, " + value.length + "] (key '" + key + "')");
    }
  }

  /**
   * {@link Store#listChildren} of a store that can list one level of a "directory" quickly: a
   * prefix that is "" or ends with '/' goes to {@code directory} (given the checked prefix; its
   * names are returned sorted), any other prefix is answered from {@link Store#list} as the
   * interface's default does.
   *
   * @throws IllegalArgumentException for a malformed prefix ({@link #checkPrefix})
   */
  public static List<String> listChildren(
      Store store, String prefix, Function<String, List<String>> directory) {
    String pre = Keys.checkPrefix(prefix);
    if (!pre.isEmpty() && !pre.endsWith("/")) {
      return childrenFromList(store, prefix);
    }
    List<String> out = new ArrayList<>(directory.apply(pre));
    Collections.sort(out);
    return out;
  }

  /** The default {@link Store#listChildren}: first segments of {@link Store#list}, sorted. */
  static List<String> childrenFromList(Store store, String prefix) {
    TreeSet<String> names = new TreeSet<>();
    for (String k : store.list(prefix)) {
      String rest = k.substring(prefix.length());
      int slash = rest.indexOf('/');
      names.add(slash < 0 ? rest : rest.substring(0, slash));
    }
    return new ArrayList<>(names);
  }

  /**
   * True if a location names a local filesystem path: a plain path or a {@code file://} URI (not a
   * {@code memory://} store or a plugin scheme such as {@code s3://}).
   */
  public static boolean isLocal(String uriOrPath) {
    int colon = uriOrPath.indexOf("://");
    return colon <= 1 || uriOrPath.substring(0, colon).toLowerCase(Locale.ROOT).equals("file");
  }

  /**
   * The local path of a location for which {@link #isLocal} holds.
   *
   * @throws IllegalArgumentException if the location is not local
   */
  public static Path localPath(String uriOrPath) {
    if (!isLocal(uriOrPath)) {
      throw new IllegalArgumentException("'" + uriOrPath + "' is not a local path or file:// URI");
    }
    return uriOrPath.indexOf("://") <= 1 ? Paths.get(uriOrPath) : Path.of(URI.create(uriOrPath));
  }

  /** scheme://userinfo@ (the userinfo up to the last '@' of the authority). */
  private static final Pattern USERINFO =
      Pattern.compile("(?i)\\b([a-z][a-z0-9+.-]*://)[^\\s/?#'\"]*@");

  /** The same, percent-encoded (a URL inside a query parameter): %3A%2F%2Fuserinfo%40. */
  private static final Pattern ENCODED_USERINFO =
      Pattern.compile("(?i)(%3A%2F%2F)(?:(?!%2F)[^\\s/?#&'\"])*%40");

  /**
   * A text (a store URI, a message) with the credentials of every URL in it replaced by {@code
   * ***}: {@code http://user:secret@host:9000/b} becomes {@code http://***@host:9000/b}, also when
   * such a URL sits percent-encoded inside another's query ({@code ?endpoint=http%3A%2F
   * %2Fuser%3Asecret%40host}). Every store's {@link Store#describe()} and every message naming a
   * store location goes through it, so a password in an endpoint URL is never printed or logged.
   *
   * @return the text with credentials removed; null for null
   */
  public static String redact(String text) {
    if (text == null || text.indexOf('@') < 0 && !text.toUpperCase(Locale.ROOT).contains("%40")) {
      return text;
    }
    String r = USERINFO.matcher(text).replaceAll("$1***@");
    return ENCODED_USERINFO.matcher(r).replaceAll("$1***%40");
  }

  /** The shared in-memory store of a name. */
  static MemoryStore memory(String name) {
    return MEMORY.computeIfAbsent(name, MemoryStore::new);
  }

  /** Forgets a named in-memory store (its data becomes garbage once unreferenced). */
  public static void dropMemory(String name) {
    MEMORY.remove(name);
  }
}
