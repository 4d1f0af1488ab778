package dev.cubed.zarr.store;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * The consolidated metadata at an {@link HttpStore}'s base, read once: v2 {@code .zmetadata}
 * ({@code {"metadata": {key: document}}}) or v3 {@code consolidated_metadata} in the base's {@code
 * zarr.json} ({@code {"metadata": {path: document}}}). When present it answers every metadata key
 * below the base.
 */
final class HttpConsolidated {
  private static final Set<String> NAMES = Set.of(".zarray", ".zattrs", ".zgroup", "zarr.json");
  private static final HttpConsolidated NONE = new HttpConsolidated(null);

  private final Map<String, byte[]> docs; // null when there is no consolidated metadata

  private HttpConsolidated(Map<String, byte[]> docs) {
    this.docs = docs;
  }

  /** True for a key whose last segment names a Zarr metadata document. */
  static boolean isMetadataKey(String key) {
    return NAMES.contains(key.substring(key.lastIndexOf('/') + 1));
  }

  boolean present() {
    return docs != null;
  }

  /** The document of a metadata key; null if the consolidated metadata lacks it. */
  byte[] get(String key) {
    byte[] v = docs.get(key);
    return v == null ? null : v.clone();
  }

  /** Reads the consolidated metadata (a non-2xx answer means none; failures propagate). */
  static HttpConsolidated load(HttpStore store) {
    long max = Stores.maxMetadataBytes();
    HttpResponse<byte[]> r;
    try {
      r =
          store.send(
              "GET",
              ".zmetadata",
              null,
              "HTTP read of consolidated metadata '.zmetadata'",
              st -> HttpBody.Cap.whole(max));
    } catch (ValueTooLargeException e) {
      throw Stores.metadataTooLarge(store, ".zmetadata", e, max);
    }
    if (r.statusCode() / 100 == 2) {
      JsonNode doc = Json.parseObject(r.body(), store.describe() + ".zmetadata");
      JsonNode md = doc.get("metadata");
      if (md == null || !md.isObject()) {
        throw new ZarrFormatException(
            store.describe()
                + ".zmetadata: no 'metadata' object;"
                + " not zarr-python consolidated metadata");
      }
      Map<String, byte[]> docs = new HashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = md.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        docs.put(e.getKey(), bytes(e.getValue()));
      }
      return new HttpConsolidated(docs);
    }
    try {
      r =
          store.send(
              "GET",
              "zarr.json",
              null,
              "HTTP read of key 'zarr.json'",
              st -> HttpBody.Cap.whole(max));
    } catch (ValueTooLargeException e) {
      throw Stores.metadataTooLarge(store, "zarr.json", e, max);
    }
    if (r.statusCode() / 100 != 2) {
      return NONE;
    }
    JsonNode root = Json.parseObject(r.body(), store.describe() + "zarr.json");
    JsonNode md = root.path("consolidated_metadata").path("metadata");
    if (!md.isObject()) {
      return NONE;
    }
    Map<String, byte[]> docs = new HashMap<>();
    docs.put("zarr.json", r.body());
    for (Iterator<Map.Entry<String, JsonNode>> it = md.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String path = Keys.normalizePath(e.getKey());
      docs.put(Keys.join(path, "zarr.json"), bytes(e.getValue()));
    }
    return new HttpConsolidated(docs);
  }

  private static byte[] bytes(JsonNode n) {
    try {
      return Json.writeCompact(n);
    } catch (IllegalArgumentException e) {
      throw new ZarrStoreException("cannot re-encode consolidated metadata", new IOException(e));
    }
  }
}
