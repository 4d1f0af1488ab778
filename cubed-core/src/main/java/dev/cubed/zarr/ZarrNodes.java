package dev.cubed.zarr;

import dev.cubed.zarr.store.Json;
import dev.cubed.zarr.store.Keys;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.Stores;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What may be replaced when a new array is created at a path: the rules that keep a write from
 * destroying data that is not a Zarr node it recognises.
 *
 * <ul>
 *   <li>nothing stored at the path (no keys; empty directories do not count): create;
 *   <li>a Zarr array or group (zarr.json, .zarray or .zgroup at the path) and overwrite asked:
 *       remove only that node's own keys (metadata, chunk keys of arrays, and the keys of nested
 *       Zarr nodes of groups), after marking an existing array incomplete so a crash halfway leaves
 *       a recognisably incomplete array, never an array silently missing chunks. If the node also
 *       holds any other file, refuse and name it;
 *   <li>a Zarr node without overwrite: refuse ("exists; pass --overwrite / overwrite()");
 *   <li>anything else (keys, but no Zarr node at the path): refuse, always.
 * </ul>
 */
final class ZarrNodes {
  private ZarrNodes() {}

  private static final Set<String> METADATA =
      Set.of("zarr.json", ".zarray", ".zgroup", ".zattrs", ".zmetadata");

  /** Chunk keys of any encoding: v3 default ("c", "c/0/1", "c.0.1") and v2 ("0", "0.1", "0/1"). */
  private static final Pattern CHUNK = Pattern.compile("c([./]\\d+)*|\\d+([./]\\d+)*");

  /** "array", "group" or null (no Zarr node at {@code path}). */
  static String kind(Store store, String path) {
    byte[] v3 = Stores.getMetadata(store, Keys.join(path, "zarr.json"));
    if (v3 != null) {
      try {
        String nt = Json.parseObject(v3, path).path("node_type").asText("");
        return nt.equals("group") ? "group" : "array";
      } catch (RuntimeException e) {
        return "array"; // unreadable metadata still marks a Zarr node
      }
    }
    if (store.exists(Keys.join(path, ".zarray"))) {
      return "array";
    }
    return store.exists(Keys.join(path, ".zgroup")) ? "group" : null;
  }

  /**
   * Makes {@code path} ready for a new array's metadata, or throws without changing anything.
   *
   * @param where the start of messages ("create zarr array 'x' in file:///...")
   * @throws IllegalArgumentException if the path holds data that may not be replaced
   */
  static void prepare(Store store, String path, boolean overwrite, String where) {
    prepare(store, path, overwrite, where, false);
  }

  /** {@link #prepare} that, with {@code checkOnly}, only throws and changes nothing. */
  static void prepare(
      Store store, String path, boolean overwrite, String where, boolean checkOnly) {
    String prefix = path.isEmpty() ? "" : path + "/";
    List<String> keys = new ArrayList<>();
    for (String k : store.list(prefix)) {
      if (!k.startsWith(".cubed-", prefix.length())) {
        keys.add(k); // not a compute's own staging array (a hidden child of a store root)
      }
    }
    if (keys.isEmpty()) {
      return;
    }
    String kind = kind(store, path);
    String loc = "'" + (path.isEmpty() ? "/" : path) + "' in " + store.describe();
    if (kind == null) {
      throw new IllegalArgumentException(
          where
              + ": "
              + loc
              + " is not a Zarr array or group"
              + " but holds "
              + keys.size()
              + " file(s) (e.g. '"
              + keys.get(0)
              + "'): refusing to"
              + " delete them; choose an empty or new path");
    }
    if (!overwrite) {
      boolean incomplete = kind.equals("array") && isIncomplete(store, path);
      throw new IllegalArgumentException(
          where
              + ": a Zarr "
              + kind
              + " already exists at "
              + loc
              + (incomplete ? " (INCOMPLETE: left by a compute that did not finish)" : "")
              + "; pass --overwrite (CLI) or call overwrite() to replace it, or choose a new path");
    }
    Map<String, String> kinds = new HashMap<>();
    kinds.put(path, kind);
    List<String> foreign = new ArrayList<>();
    List<String> chunks = new ArrayList<>();
    List<String> meta = new ArrayList<>();
    for (String k : keys) {
      String rel = k.substring(prefix.length());
      if (!isZarrKey(store, path, rel, kinds)) {
        foreign.add(k);
      } else if (METADATA.contains(rel.substring(rel.lastIndexOf('/') + 1))) {
        meta.add(k);
      } else {
        chunks.add(k);
      }
    }
    if (!foreign.isEmpty()) {
      throw new IllegalArgumentException(
          where
              + ": the Zarr "
              + kind
              + " at "
              + loc
              + " also holds "
              + foreign.size()
              + " file(s) that are not part of it (e.g. '"
              + foreign.get(0)
              + "'): refusing to replace it; move them away or choose a new path");
    }
    if (checkOnly) {
      return;
    }
    if (kind.equals("array")) {
      markIncomplete(store, path, "being replaced by a new array");
    }
    for (String k : chunks) {
      store.delete(k);
    }
    for (String k : meta) {
      store.delete(k);
    }
  }

  /** {@code attrs} plus {@link ZarrArray#INCOMPLETE_ATTRIBUTE}. */
  static Map<String, Object> incompleteAttributes(Map<String, Object> attrs) {
    Map<String, Object> m = new LinkedHashMap<>(attrs);
    m.put(ZarrArray.INCOMPLETE_ATTRIBUTE, ZarrArray.INCOMPLETE_TEXT);
    return m;
  }

  /**
   * Creates the described (deferred) array {@code a} in its store, marked incomplete, under the
   * rules of this class; with {@code resume} an existing array of the same shape, chunks and dtype
   * is kept with its chunks. With {@code checkOnly} only throws and changes nothing.
   */
  static ZarrArray create(ZarrArray a, boolean overwrite, boolean resume, boolean checkOnly) {
    Store store = a.store();
    String path = a.path();
    Map<String, Object> attrs = incompleteAttributes(a.attributes());
    if (resume && "array".equals(kind(store, path))) {
      ZarrArray old = null;
      try {
        old = ZarrArray.open(store, path);
      } catch (RuntimeException e) {
        // unreadable: handled by the rules below
      }
      if (old != null
          && Arrays.equals(old.shape(), a.shape())
          && Arrays.equals(old.chunks(), a.chunks())
          && old.dtype() == a.dtype()) {
        return checkOnly ? a : old.withEmptyChunks(a.emptyChunks()).withAttributes(attrs);
      }
    }
    prepare(
        store,
        path,
        overwrite,
        "create zarr array '" + path + "' in " + store.describe(),
        checkOnly);
    return checkOnly ? a : a.withAttributes(attrs);
  }

  private static boolean isZarrKey(
      Store store, String node, String rel, Map<String, String> kinds) {
    int slash = rel.indexOf('/');
    String kind = kinds.computeIfAbsent(node, n -> String.valueOf(kind(store, n)));
    if (METADATA.contains(rel)) {
      return true;
    }
    if (kind.equals("array")) {
      return CHUNK.matcher(rel).matches();
    }
    if (kind.equals("group") && slash > 0) {
      return isZarrKey(
          store, Keys.join(node, rel.substring(0, slash)), rel.substring(slash + 1), kinds);
    }
    return false;
  }

  static boolean isIncomplete(Store store, String path) {
    try {
      return ZarrArray.open(store, path).isIncomplete();
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static void markIncomplete(Store store, String path, String why) {
    ZarrArray old;
    try {
      old = ZarrArray.open(store, path);
    } catch (RuntimeException e) {
      return; // unreadable metadata: nothing a reader could trust anyway
    }
    Map<String, Object> attrs = new LinkedHashMap<>(old.attributes());
    attrs.put(ZarrArray.INCOMPLETE_ATTRIBUTE, why);
    old.withAttributes(attrs);
  }
}
