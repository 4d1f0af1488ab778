package dev.cubed.zarr;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cubed.zarr.store.Json;
import dev.cubed.zarr.store.Keys;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.Stores;
import dev.cubed.zarr.store.ZarrFormatException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A Zarr group (format 2 or 3): attributes and member arrays and subgroups. Immutable; consolidated
 * metadata ({@code .zmetadata}, v3 {@code consolidated_metadata}) is ignored, members are found by
 * listing the store.
 */
public final class ZarrGroup {
  /** The kind of a member node. */
  public enum NodeType {
    ARRAY,
    GROUP
  }

  private final Store store;
  private final String path;
  private final int zarrFormat;
  private final Map<String, Object> attributes;

  private ZarrGroup(Store store, String path, int zarrFormat, Map<String, Object> attributes) {
    this.store = store;
    this.path = path;
    this.zarrFormat = zarrFormat;
    this.attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
  }

  /**
   * Opens the group at {@code path} ("" for the root).
   *
   * @throws ZarrFormatException if no group is there (naming what was found instead)
   */
  public static ZarrGroup open(Store store, String path) {
    String p = Keys.normalizePath(path);
    byte[] v3 = Stores.getMetadata(store, Keys.join(p, "zarr.json"));
    if (v3 != null) {
      String where =
          "zarr group '" + p + "' (" + Keys.join(p, "zarr.json") + " in " + store.describe() + ")";
      JsonNode doc = Json.parseObject(v3, where);
      String nt = doc.path("node_type").asText("");
      if (!nt.equals("group")) {
        throw new ZarrFormatException(where + ": node_type is '" + nt + "', expected 'group'");
      }
      if (doc.path("zarr_format").asInt() != 3) {
        throw new ZarrFormatException(
            where + ": field 'zarr_format' is " + doc.get("zarr_format") + ", expected 3");
      }
      return new ZarrGroup(store, p, 3, Json.toMap(doc.get("attributes")));
    }
    byte[] v2 = Stores.getMetadata(store, Keys.join(p, ".zgroup"));
    if (v2 != null) {
      String where =
          "zarr group '" + p + "' (" + Keys.join(p, ".zgroup") + " in " + store.describe() + ")";
      JsonNode doc = Json.parseObject(v2, where);
      if (doc.path("zarr_format").asInt() != 2) {
        throw new ZarrFormatException(
            where + ": field 'zarr_format' is " + doc.get("zarr_format") + ", expected 2");
      }
      byte[] at = Stores.getMetadata(store, Keys.join(p, ".zattrs"));
      Map<String, Object> attrs =
          at == null ? Map.of() : Json.toMap(Json.parseObject(at, where + " .zattrs"));
      return new ZarrGroup(store, p, 2, attrs);
    }
    String hint = store.exists(Keys.join(p, ".zarray")) ? " (an array is there)" : "";
    throw new ZarrFormatException(
        "zarr group '"
            + p
            + "' in "
            + store.describe()
            + ": no zarr.json (v3) or .zgroup (v2) found"
            + hint
            + "; expected group metadata");
  }

  /** Opens the group at the root of a store location ({@link Stores#open}). */
  public static ZarrGroup open(String uriOrPath) {
    return open(Stores.open(uriOrPath), "");
  }

  /**
   * Creates (or replaces the metadata of) a group with attributes.
   *
   * @throws IllegalArgumentException if the format is not 2 or 3, or an array is at the path
   */
  public static ZarrGroup create(
      Store store, String path, int zarrFormat, Map<String, ?> attributes) {
    String p = Keys.normalizePath(path);
    if (zarrFormat != 2 && zarrFormat != 3) {
      throw new IllegalArgumentException(
          "create zarr group '" + p + "': format " + zarrFormat + " is not 2 or 3");
    }
    if (store.exists(Keys.join(p, ".zarray")) || isV3Array(store, p)) {
      throw new IllegalArgumentException(
          "create zarr group '" + p + "' in " + store.describe() + ": an array exists there");
    }
    ZarrGroup g = new ZarrGroup(store, p, zarrFormat, new LinkedHashMap<>(attributes));
    g.writeMetadata();
    return g;
  }

  private static boolean isV3Array(Store store, String p) {
    byte[] b = Stores.getMetadata(store, Keys.join(p, "zarr.json"));
    return b != null && "array".equals(Json.parseObject(b, p).path("node_type").asText());
  }

  private void writeMetadata() {
    if (zarrFormat == 3) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("zarr_format", 3);
      m.put("node_type", "group");
      m.put("attributes", attributes);
      store.put(Keys.join(path, "zarr.json"), Json.write(m));
    } else {
      store.put(Keys.join(path, ".zgroup"), Json.write(Map.of("zarr_format", 2)));
      if (attributes.isEmpty()) {
        store.delete(Keys.join(path, ".zattrs"));
      } else {
        store.put(Keys.join(path, ".zattrs"), Json.write(attributes));
      }
    }
  }

  /** This group with its attributes replaced (metadata rewritten). */
  public ZarrGroup withAttributes(Map<String, ?> attributes) {
    ZarrGroup g = new ZarrGroup(store, path, zarrFormat, new LinkedHashMap<>(attributes));
    g.writeMetadata();
    return g;
  }

  /** 2 or 3. */
  public int zarrFormat() {
    return zarrFormat;
  }

  /** The group's path ("" for the root). */
  public String path() {
    return path;
  }

  /** The store. */
  public Store store() {
    return store;
  }

  /** The attributes (read-only). */
  public Map<String, Object> attributes() {
    return attributes;
  }

  /** The direct members by name (sorted) and their kind. */
  public Map<String, NodeType> members() {
    Map<String, NodeType> out = new TreeMap<>();
    String prefix = path.isEmpty() ? "" : path + "/";
    for (String name : store.listChildren(prefix)) {
      String child = prefix + name;
      if (name.startsWith(".") || name.equals("zarr.json")) {
        continue;
      }
      byte[] z = Stores.getMetadata(store, child + "/zarr.json");
      if (z != null) {
        try {
          String nt = Json.parseObject(z, child).path("node_type").asText("");
          if (nt.equals("array")) {
            out.put(name, NodeType.ARRAY);
          } else if (nt.equals("group")) {
            out.put(name, NodeType.GROUP);
          }
        } catch (ZarrFormatException e) {
          // not a valid node: not a member
        }
      } else if (store.exists(child + "/.zarray")) {
        out.put(name, NodeType.ARRAY);
      } else if (store.exists(child + "/.zgroup")) {
        out.put(name, NodeType.GROUP);
      }
    }
    return out;
  }

  /** Opens a member array by name (or relative path). */
  public ZarrArray openArray(String name) {
    return ZarrArray.open(store, Keys.join(path, Keys.normalizePath(name)));
  }

  /** Opens a member group by name (or relative path). */
  public ZarrGroup openGroup(String name) {
    return open(store, Keys.join(path, Keys.normalizePath(name)));
  }

  /** Starts a new member array of this group's format. */
  public ZarrArrayBuilder createArray(String name) {
    return ZarrArray.create(store, Keys.join(path, Keys.normalizePath(name)))
        .zarrFormat(zarrFormat);
  }

  /** Creates a member group of this group's format. */
  public ZarrGroup createGroup(String name, Map<String, ?> attributes) {
    return create(store, Keys.join(path, Keys.normalizePath(name)), zarrFormat, attributes);
  }

  @Override
  public String toString() {
    return "ZarrGroup(v" + zarrFormat + " '" + path + "' in " + store.describe() + ")";
  }
}
