package dev.cubed.zarr.store;

/** Key validation and joining shared by the stores. */
public final class Keys {
  private Keys() {}

  /** Checks that a key is relative and stays inside the store root. */
  static String check(String key) {
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException("store key must not be empty");
    }
    if (key.startsWith("/")
        || key.contains("\\")
        || key.indexOf('\0') >= 0
        || (key.length() > 1 && key.charAt(1) == ':')) {
      throw new IllegalArgumentException(
          "store key '"
              + key
              + "' is not a relative '/'-separated key (absolute paths,"
              + " backslashes and drive letters are rejected)");
    }
    for (String seg : key.split("/", -1)) {
      if (seg.isEmpty() || seg.equals(".") || seg.equals("..")) {
        throw new IllegalArgumentException(
            "store key '"
                + key
                + "' has an empty, '.' or '..' segment; keys may not escape the"
                + " store root");
      }
    }
    return key;
  }

  /** Checks a list prefix: empty, or a key prefix (may end with '/'). */
  static String checkPrefix(String prefix) {
    if (prefix == null || prefix.isEmpty()) {
      return "";
    }
    String p = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
    if (!p.isEmpty()) {
      check(p);
    }
    return prefix;
  }

  /** Joins a node path and a name ("" path means the root). */
  public static String join(String path, String name) {
    return path.isEmpty() ? name : path + "/" + name;
  }

  /** Normalizes a node path: strips leading/trailing '/', "" for the root. */
  public static String normalizePath(String path) {
    if (path == null) {
      return "";
    }
    String p = path;
    while (p.startsWith("/")) {
      p = p.substring(1);
    }
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    if (!p.isEmpty()) {
      check(p);
    }
    return p;
  }
}
