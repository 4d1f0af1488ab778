package dev.cubed.zarr;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cubed.zarr.metadata.ArrayMetadata;
import dev.cubed.zarr.metadata.MetadataParser;
import dev.cubed.zarr.store.Json;
import dev.cubed.zarr.store.Store;
import java.io.ObjectStreamException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;

/**
 * What a {@link ZarrArray} is serialized as (its {@code writeReplace}): the store, the path and the
 * metadata document, read back into an array on the other side (a worker process, a Spark or Beam
 * worker) without touching the store.
 */
record ZarrArrayProxy(
    Store store,
    String path,
    String json,
    EmptyChunks emptyChunks,
    boolean missingIsError,
    String v2Attrs,
    String identity)
    implements Serializable, ZarrArray.SerializedForm {
  /** The serialized form of {@code z}. */
  static ZarrArrayProxy of(ZarrArray z) {
    ArrayMetadata meta = z.metadata();
    return new ZarrArrayProxy(
        z.store(),
        z.path(),
        z.metadataJson(),
        z.emptyChunks(),
        z.isIntermediate(),
        meta.zarrFormat == 2
            ? new String(Json.write(meta.v2Attributes()), StandardCharsets.UTF_8)
            : null,
        z.identityJson());
  }

  private Object readResolve() throws ObjectStreamException {
    String where = ZarrArray.describe(store, path, "metadata");
    JsonNode doc = Json.parseObject(json.getBytes(StandardCharsets.UTF_8), where);
    ArrayMetadata m =
        v2Attrs == null
            ? MetadataParser.parseV3(doc, where)
            : MetadataParser.parseV2(
                doc, Json.parseObject(v2Attrs.getBytes(StandardCharsets.UTF_8), where), where);
    return new ZarrArray(store, path, m, emptyChunks, missingIsError);
  }
}
