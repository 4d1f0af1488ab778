package dev.cubed.zarr.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cubed.nd.DType;
import dev.cubed.nd.Shapes;
import dev.cubed.zarr.codec.ArrayBytesCodec;
import dev.cubed.zarr.codec.BloscBytesCodec;
import dev.cubed.zarr.codec.BytesCodec;
import dev.cubed.zarr.codec.CodecPipeline;
import dev.cubed.zarr.codec.Compression;
import dev.cubed.zarr.codec.Crc32cBytesCodec;
import dev.cubed.zarr.codec.FillValues;
import dev.cubed.zarr.codec.GzipBytesCodec;
import dev.cubed.zarr.codec.Lz4BytesCodec;
import dev.cubed.zarr.codec.ShardingCodec;
import dev.cubed.zarr.codec.V2Codec;
import dev.cubed.zarr.codec.ZlibBytesCodec;
import dev.cubed.zarr.codec.ZstdBytesCodec;
import dev.cubed.zarr.store.Json;
import dev.cubed.zarr.store.ZarrFormatException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Parses and validates v2 ({@code .zarray}) and v3 ({@code zarr.json}) array metadata. */
public final class MetadataParser {
  private MetadataParser() {}

  static String text(JsonNode n, String field, String where) {
    JsonNode v = n.get(field);
    if (v == null || !v.isTextual()) {
      throw new ZarrFormatException(where + ": field '" + field + "' is missing or not a string");
    }
    return v.textValue();
  }

  // ------------------------------------------------------------------ v2

  public static ArrayMetadata parseV2(JsonNode doc, JsonNode attrs, String where) {
    JsonNode fmt = doc.get("zarr_format");
    if (fmt == null || fmt.asInt() != 2) {
      throw new ZarrFormatException(where + ": field 'zarr_format' is " + fmt + ", expected 2");
    }
    long[] shape = ArrayMetadata.longArray(doc.get("shape"), where, "shape");
    int[] chunks =
        ArrayMetadata.intChunks(ArrayMetadata.longArray(doc.get("chunks"), where, "chunks"), where);
    String dt = text(doc, "dtype", where);
    DType dtype;
    try {
      dtype = DType.fromTypeString(dt);
    } catch (IllegalArgumentException e) {
      throw new ZarrFormatException(where + ": field 'dtype': " + e.getMessage(), e);
    }
    boolean big = DType.isBigEndianTypeString(dt) && dtype.itemSize() > 1;
    ArrayMetadata.checkSizes(shape, chunks, dtype, where);
    JsonNode order = doc.get("order");
    String ord = order == null || order.isNull() ? "C" : order.asText();
    if (!ord.equals("C") && !ord.equals("F")) {
      throw new ZarrFormatException(where + ": field 'order' is '" + ord + "', expected C or F");
    }
    JsonNode filters = doc.get("filters");
    if (filters != null && !filters.isNull() && !(filters.isArray() && filters.size() == 0)) {
      throw new ZarrFormatException(
          where
              + ": field 'filters' "
              + filters
              + " is not supported (only null); filters such as delta or categorize are not"
              + " implemented");
    }
    JsonNode sepNode = doc.get("dimension_separator");
    String sep = sepNode == null || sepNode.isNull() ? "." : sepNode.asText();
    if (!sep.equals(".") && !sep.equals("/")) {
      throw new ZarrFormatException(
          where + ": field 'dimension_separator' is '" + sep + "', expected '.' or '/'");
    }
    BytesCodec comp = parseV2Compressor(doc.get("compressor"), dtype, where);
    Object fill = FillValues.parse(dtype, doc.get("fill_value"), where);
    Map<String, Object> a = Json.toMap(attrs);
    List<String> dims = null;
    Object ad = a.get("_ARRAY_DIMENSIONS");
    if (ad instanceof List<?> l && l.size() == shape.length) {
      dims = new ArrayList<>();
      for (Object o : l) {
        dims.add(String.valueOf(o));
      }
      a.remove("_ARRAY_DIMENSIONS");
    }
    return new ArrayMetadata(
        2,
        shape,
        chunks,
        dtype,
        fill,
        a,
        dims,
        sep,
        false,
        new V2Codec(dtype, big, ord.equals("F"), comp));
  }

  static int intField(JsonNode n, String field, int dflt, String where) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      return dflt;
    }
    if (!v.isIntegralNumber() || !v.canConvertToInt()) {
      throw new ZarrFormatException(
          where + ": field '" + field + "' (" + v + ") is not an integer");
    }
    return v.intValue();
  }

  static BytesCodec parseV2Compressor(JsonNode c, DType dtype, String where) {
    if (c == null || c.isNull()) {
      return null;
    }
    String w = where + ": field 'compressor'";
    if (!c.isObject() || c.get("id") == null) {
      throw new ZarrFormatException(w + " must be null or an object with an 'id'");
    }
    String id = c.get("id").asText();
    return switch (id) {
      case "zstd" -> new ZstdBytesCodec(intField(c, "level", 1, w));
      case "gzip" -> new GzipBytesCodec(intField(c, "level", 1, w));
      case "zlib" -> new ZlibBytesCodec(intField(c, "level", 1, w));
      case "lz4" -> new Lz4BytesCodec(intField(c, "acceleration", 1, w));
      case "blosc" ->
          new BloscBytesCodec(
              Compression.BloscCodec.fromId(c.path("cname").asText("lz4"), w),
              intField(c, "clevel", 5, w),
              Compression.Shuffle.fromV2(intField(c, "shuffle", 1, w), w),
              intField(c, "typesize", dtype.itemSize(), w),
              intField(c, "blocksize", 0, w));
      default ->
          throw new ZarrFormatException(
              w
                  + ": unknown compressor id '"
                  + id
                  + "'; supported are blosc, zstd, zlib, gzip, lz4");
    };
  }

  // ------------------------------------------------------------------ v3

  public static ArrayMetadata parseV3(JsonNode doc, String where) {
    JsonNode sts = doc.get("storage_transformers");
    if (sts != null && sts.isArray() && sts.size() > 0) {
      throw new ZarrFormatException(
          where
              + ": field 'storage_transformers' "
              + sts
              + " is not supported (expected an empty list)");
    }
    long[] shape = ArrayMetadata.longArray(doc.get("shape"), where, "shape");
    String dtName = text(doc, "data_type", where);
    DType dtype = null;
    for (DType d : DType.values()) {
      if (d.zarrV3Name().equals(dtName)) {
        dtype = d;
      }
    }
    if (dtype == null) {
      throw new ZarrFormatException(
          where
              + ": field 'data_type': unknown or unsupported data"
              + " type '"
              + dtName
              + "'; supported are bool, int8..int64, uint8..uint64, float32,"
              + " float64, complex64, complex128");
    }
    JsonNode grid = doc.get("chunk_grid");
    if (grid == null || !"regular".equals(grid.path("name").asText())) {
      throw new ZarrFormatException(
          where
              + ": field 'chunk_grid' "
              + grid
              + " is not supported; expected {\"name\": \"regular\", ...}");
    }
    int[] chunks =
        ArrayMetadata.intChunks(
            ArrayMetadata.longArray(
                grid.path("configuration").get("chunk_shape"), where, "chunk_grid.chunk_shape"),
            where);
    ArrayMetadata.checkSizes(shape, chunks, dtype, where);
    JsonNode kenc = doc.get("chunk_key_encoding");
    String kname = kenc == null ? "default" : kenc.path("name").asText("default");
    boolean dflt;
    if (kname.equals("default")) {
      dflt = true;
    } else if (kname.equals("v2")) {
      dflt = false;
    } else {
      throw new ZarrFormatException(
          where
              + ": field 'chunk_key_encoding': unknown name '"
              + kname
              + "', expected default or v2");
    }
    String sep =
        kenc == null ? "/" : kenc.path("configuration").path("separator").asText(dflt ? "/" : ".");
    if (!sep.equals(".") && !sep.equals("/")) {
      throw new ZarrFormatException(
          where + ": field 'chunk_key_encoding.separator' is '" + sep + "', expected '.' or '/'");
    }
    Object fill = FillValues.parse(dtype, doc.get("fill_value"), where);
    CodecPipeline codec = parseCodecs(doc.get("codecs"), dtype, fill, chunks, where, "codecs");
    List<String> dims = null;
    JsonNode dn = doc.get("dimension_names");
    if (dn != null && !dn.isNull()) {
      if (!dn.isArray() || dn.size() != shape.length) {
        throw new ZarrFormatException(
            where
                + ": field 'dimension_names' "
                + dn
                + " must be a list of "
                + shape.length
                + " names (or nulls)");
      }
      dims = new ArrayList<>();
      for (JsonNode e : dn) {
        dims.add(e.isNull() ? null : e.asText());
      }
      dims = Collections.unmodifiableList(dims);
    }
    Map<String, Object> attrs = Json.toMap(doc.get("attributes"));
    return new ArrayMetadata(
        3,
        shape,
        chunks,
        dtype,
        fill,
        attrs,
        dims == null ? null : new ArrayList<>(dims),
        sep,
        dflt,
        codec);
  }

  static CodecPipeline parseCodecs(
      JsonNode codecs, DType dtype, Object fill, int[] chunkShape, String where, String field) {
    if (codecs == null || !codecs.isArray() || codecs.size() == 0) {
      throw new ZarrFormatException(
          where
              + ": field '"
              + field
              + "' is missing or empty; expected a list with one array-to-bytes codec");
    }
    List<int[]> transposes = new ArrayList<>();
    ArrayBytesCodec ab = null;
    List<BytesCodec> bb = new ArrayList<>();
    int nd = chunkShape.length;
    long[] cur = new long[nd];
    for (int i = 0; i < nd; i++) {
      cur[i] = chunkShape[i];
    }
    Iterator<JsonNode> it = codecs.elements();
    while (it.hasNext()) {
      JsonNode c = it.next();
      String name = c.isTextual() ? c.asText() : c.path("name").asText("");
      JsonNode conf = c.path("configuration");
      String w = where + ": codec '" + name + "' in '" + field + "'";
      switch (name) {
        case "transpose" -> {
          if (ab != null) {
            throw new ZarrFormatException(w + " must come before the array-to-bytes codec");
          }
          JsonNode o = conf.get("order");
          if (o != null && o.isTextual()) {
            int[] ord = new int[nd];
            for (int k = 0; k < nd; k++) {
              ord[k] = o.asText().equals("F") ? nd - 1 - k : k;
            }
            transposes.add(ord);
          } else {
            long[] ol = ArrayMetadata.longArray(o, w, "order");
            int[] ord = new int[ol.length];
            boolean[] seen = new boolean[nd];
            if (ol.length != nd) {
              throw new ZarrFormatException(
                  w + ": order " + o + " must be a permutation of 0.." + (nd - 1));
            }
            for (int k = 0; k < nd; k++) {
              if (ol[k] >= nd || seen[(int) ol[k]]) {
                throw new ZarrFormatException(
                    w + ": order " + o + " must be a permutation of 0.." + (nd - 1));
              }
              seen[(int) ol[k]] = true;
              ord[k] = (int) ol[k];
            }
            transposes.add(ord);
          }
          cur = CodecPipeline.permute(cur, transposes.get(transposes.size() - 1));
        }
        case "bytes" -> {
          if (ab != null) {
            throw new ZarrFormatException(w + ": only one array-to-bytes codec is allowed");
          }
          String e = conf.path("endian").asText("little");
          if (!e.equals("little") && !e.equals("big")) {
            throw new ZarrFormatException(w + ": endian '" + e + "', expected little or big");
          }
          ab = new ArrayBytesCodec.Bytes(dtype, e.equals("big"));
        }
        case "sharding_indexed" -> {
          if (ab != null) {
            throw new ZarrFormatException(w + ": only one array-to-bytes codec is allowed");
          }
          ab = parseSharding(conf, dtype, fill, cur, w);
        }
        case "zstd" -> bb.add(new ZstdBytesCodec(intField(conf, "level", 0, w)));
        case "gzip" -> bb.add(new GzipBytesCodec(intField(conf, "level", 5, w)));
        case "crc32c" -> bb.add(new Crc32cBytesCodec());
        case "blosc" ->
            bb.add(
                new BloscBytesCodec(
                    Compression.BloscCodec.fromId(conf.path("cname").asText("lz4"), w),
                    intField(conf, "clevel", 5, w),
                    Compression.Shuffle.fromV3(conf.path("shuffle").asText("noshuffle"), w),
                    intField(conf, "typesize", dtype.itemSize(), w),
                    intField(conf, "blocksize", 0, w)));
        default ->
            throw new ZarrFormatException(
                w
                    + ": unknown codec; supported are bytes,"
                    + " transpose, sharding_indexed, zstd, gzip, blosc, crc32c");
      }
      if (ab != null
          && (name.equals("zstd")
              || name.equals("gzip")
              || name.equals("crc32c")
              || name.equals("blosc"))) {
        continue;
      }
      if (ab == null && !bb.isEmpty()) {
        throw new ZarrFormatException(
            w + ": bytes-to-bytes codecs must follow the" + " array-to-bytes codec");
      }
    }
    if (ab == null) {
      throw new ZarrFormatException(
          where
              + ": field '"
              + field
              + "' has no array-to-bytes codec (bytes or sharding_indexed)");
    }
    return new CodecPipeline(transposes, ab, bb);
  }

  /** The {@code sharding_indexed} codec of a v3 codec list's configuration {@code conf}. */
  static ShardingCodec parseSharding(
      JsonNode conf, DType dtype, Object fill, long[] shardShape, String where) {
    int[] inner =
        ArrayMetadata.intChunks(
            ArrayMetadata.longArray(conf.get("chunk_shape"), where, "chunk_shape"), where);
    if (inner.length != shardShape.length) {
      throw new ZarrFormatException(
          where
              + ": inner chunk_shape "
              + Arrays.toString(inner)
              + " must have "
              + shardShape.length
              + " dimensions like the shard "
              + Shapes.format(shardShape));
    }
    for (int i = 0; i < inner.length; i++) {
      if (shardShape[i] % inner[i] != 0) {
        throw new ZarrFormatException(
            where
                + ": shard shape "
                + Shapes.format(shardShape)
                + " is not divisible by inner chunk_shape "
                + Arrays.toString(inner));
      }
    }
    CodecPipeline ic =
        parseCodecs(conf.get("codecs"), dtype, fill, inner, where, "sharding_indexed.codecs");
    JsonNode idx = conf.get("index_codecs");
    boolean crc = false;
    if (idx != null && idx.isArray()) {
      for (JsonNode c : idx) {
        String name = c.isTextual() ? c.asText() : c.path("name").asText();
        if (name.equals("crc32c")) {
          crc = true;
        } else if (name.equals("bytes")) {
          if (!c.path("configuration").path("endian").asText("little").equals("little")) {
            throw new ZarrFormatException(where + ": big-endian shard index is not supported");
          }
        } else {
          throw new ZarrFormatException(
              where
                  + ": index codec '"
                  + name
                  + "' is not supported; expected bytes (little) and optionally crc32c");
        }
      }
    }
    String loc = conf.path("index_location").asText("end");
    if (!loc.equals("end") && !loc.equals("start")) {
      throw new ZarrFormatException(
          where + ": index_location '" + loc + "', expected end or start");
    }
    return new ShardingCodec(dtype, fill, inner, ic, crc, loc.equals("start"));
  }
}
