package dev.cubed.zarr;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cubed.zarr.metadata.MetadataParser;
import dev.cubed.zarr.store.Json;
import dev.cubed.zarr.store.Keys;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.Stores;
import dev.cubed.zarr.store.ZarrFormatException;

/**
 * Opening an array from its store: the metadata document read and checked (v3 {@code zarr.json},
 * else v2 {@code .zarray} with {@code .zattrs}). Opening only reads: where no metadata is found,
 * the error names what a staged write left beside the path (a staging array, a backup of an
 * interrupted commit) and says that only the compute's own resume finishes it; nothing is renamed,
 * moved or deleted. See {@link ZarrArray#open(Store, String)} for the contract.
 */
final class ZarrOpen {
  private static final String NO_METADATA = "expected array metadata there";

  private ZarrOpen() {}

  static ZarrArray open(Store store, String path) {
    String p = Keys.normalizePath(path);
    try {
      return openAt(store, p);
    } catch (ZarrFormatException e) {
      if (!e.getMessage().endsWith(NO_METADATA)) {
        throw e;
      }
      String hint = StagedWrite.missingTargetHint(store, p);
      if (hint.isEmpty()) {
        throw e;
      }
      throw new ZarrFormatException(e.getMessage() + hint);
    }
  }

  private static ZarrArray openAt(Store store, String p) {
    String where3 = ZarrArray.describe(store, p, "zarr.json");
    byte[] v3 = Stores.getMetadata(store, Keys.join(p, "zarr.json"));
    if (v3 != null) {
      JsonNode doc = Json.parseObject(v3, where3);
      JsonNode fmt = doc.get("zarr_format");
      if (fmt == null || fmt.asInt() != 3) {
        throw new ZarrFormatException(where3 + ": field 'zarr_format' is " + fmt + ", expected 3");
      }
      String nt = doc.path("node_type").asText("");
      if (!nt.equals("array")) {
        throw new ZarrFormatException(
            where3
                + ": node_type is '"
                + nt
                + "', expected 'array' (open groups with ZarrGroup.open)");
      }
      return new ZarrArray(store, p, MetadataParser.parseV3(doc, where3), EmptyChunks.SKIP);
    }
    byte[] v2 = Stores.getMetadata(store, Keys.join(p, ".zarray"));
    if (v2 != null) {
      String where2 = ZarrArray.describe(store, p, ".zarray");
      JsonNode doc = Json.parseObject(v2, where2);
      byte[] at = Stores.getMetadata(store, Keys.join(p, ".zattrs"));
      JsonNode attrs =
          at == null ? null : Json.parseObject(at, ZarrArray.describe(store, p, ".zattrs"));
      return new ZarrArray(store, p, MetadataParser.parseV2(doc, attrs, where2), EmptyChunks.SKIP);
    }
    throw new ZarrFormatException(
        "zarr array '"
            + p
            + "' in "
            + store.describe()
            + ": no zarr.json (v3) or .zarray (v2) found; "
            + NO_METADATA);
  }
}
