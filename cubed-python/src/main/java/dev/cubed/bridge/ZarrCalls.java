package dev.cubed.bridge;

import static dev.cubed.bridge.Calls.arg;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.ZarrArrayBuilder;
import dev.cubed.zarr.ZarrGroup;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.Stores;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The bridge's functions on Zarr arrays and groups: lazy reads and writes ({@code fromZarr}, {@code
 * toZarr}, {@code writeDataset}, {@code storeRegion}) and direct access with no plan (members,
 * attributes, dimension names, create, read and write a region).
 */
final class ZarrCalls {
  private ZarrCalls() {}

  /** Attributes cross the pipe as JSON text (writeDataset, zarrAttrs). */
  private static final ObjectMapper JSON = new ObjectMapper();

  static void register(Map<String, Calls.Fn> own) {
    own.put(
        "fromZarr", (s, a) -> Cubed.fromZarr((String) arg(a, 0, String.class, "fromZarr"), s.spec));
    own.put(
        "toZarr",
        (s, a) -> {
          CubedArray x = s.get(a.get(0), "toZarr");
          String path = (String) arg(a, 1, String.class, "toZarr");
          boolean overwrite = a.size() > 2 && Boolean.TRUE.equals(a.get(2));
          Cubed.toZarr(x, Stores.open(path), "", overwrite);
          return null;
        });
    own.put(
        "writeDataset",
        (s, a) -> {
          // writeDataset(group, [names], [handles], [[dims]], overwrite[, [attrs JSON per array],
          // group attrs JSON]): a Zarr v3 group with one array per variable (dimension_names set,
          // as xarray reads them; user attributes from JSON objects), written in one plan
          String group = (String) arg(a, 0, String.class, "writeDataset");
          List<?> names = (List<?>) arg(a, 1, List.class, "writeDataset");
          List<?> hs = (List<?>) arg(a, 2, List.class, "writeDataset");
          List<?> dims = (List<?>) arg(a, 3, List.class, "writeDataset");
          boolean overwrite = a.size() > 4 && Boolean.TRUE.equals(a.get(4));
          List<?> attrs = a.size() > 5 ? (List<?>) arg(a, 5, List.class, "writeDataset") : null;
          Map<String, Object> groupAttrs =
              a.size() > 6
                  ? jsonObject((String) arg(a, 6, String.class, "writeDataset"), "writeDataset")
                  : Map.of();
          Store store = Stores.open(group);
          ZarrGroup.create(store, "", 3, groupAttrs);
          CubedArray[] ws = new CubedArray[hs.size()];
          for (int i = 0; i < ws.length; i++) {
            CubedArray x = s.get(hs.get(i), "writeDataset");
            ZarrArrayBuilder b =
                ZarrArray.create(store, (String) names.get(i))
                    .shape(x.shape())
                    .chunks(x.chunkShape())
                    .dtype(x.dtype())
                    .dimensionNames(((List<?>) dims.get(i)).toArray(new String[0]));
            if (attrs != null && attrs.get(i) != null) {
              b.attributes(jsonObject((String) attrs.get(i), "writeDataset"));
            }
            if (x.spec().checksum()) {
              b.crc32c();
            }
            if (overwrite) {
              b.overwrite();
            }
            ws[i] = Cubed.store(x, b.buildDeferred());
          }
          Cubed.compute(ws);
          return null;
        });
    own.put(
        "zarrMembers",
        (s, a) -> {
          // [name, kind, name, kind, ...] of a Zarr group
          ZarrGroup g = ZarrGroup.open((String) arg(a, 0, String.class, "zarrMembers"));
          List<Object> out = new ArrayList<>();
          g.members()
              .forEach(
                  (k, v) -> {
                    out.add(k);
                    out.add(v.name().toLowerCase(Locale.ROOT));
                  });
          return out;
        });
    // zarrAttrs(path): the user attributes of a Zarr array or group, as a JSON object
    own.put(
        "zarrAttrs",
        (s, a) -> {
          String path = (String) arg(a, 0, String.class, "zarrAttrs");
          Map<String, Object> m;
          try {
            m = ZarrArray.open(path).attributes();
          } catch (RuntimeException notAnArray) {
            m = ZarrGroup.open(path).attributes();
          }
          return JSON.writeValueAsString(m);
        });
    own.put(
        "zarrDims",
        (s, a) -> {
          // dimension names of a Zarr array (v3 dimension_names or v2 _ARRAY_DIMENSIONS), or null
          ZarrArray z = ZarrArray.open((String) arg(a, 0, String.class, "zarrDims"));
          Object dims = z.dimensionNames();
          return dims != null ? dims : z.attributes().get("_ARRAY_DIMENSIONS");
        });
    own.put(
        "zarrCreate",
        (s, a) -> {
          // zarrCreate(path, shape, chunks, dtype): an empty array map_blocks writes block by block
          String path = (String) arg(a, 0, String.class, "zarrCreate");
          ZarrArray.create(Stores.open(path), "")
              .shape((long[]) a.get(1))
              .chunks((long[]) a.get(2))
              .dtype((DType) a.get(3))
              .overwrite()
              .build();
          return null;
        });
    // storeRegion(handle, target path, origin): a lazy write into a box of an existing Zarr array
    own.put("storeRegion", StoreRegion::apply);
    own.put(
        "zarrRead",
        (s, a) -> {
          // zarrRead(path, start, shape): the box [start, start + shape) of a Zarr array (no plan)
          ZarrArray z = ZarrArray.open((String) arg(a, 0, String.class, "zarrRead"));
          return z.read(
              (long[]) arg(a, 1, long[].class, "zarrRead"),
              (long[]) arg(a, 2, long[].class, "zarrRead"));
        });
    own.put(
        "zarrWrite",
        (s, a) -> {
          // zarrWrite(path, start, data): writes a region (the block of map_blocks)
          ZarrArray z = ZarrArray.open((String) arg(a, 0, String.class, "zarrWrite"));
          z.write((long[]) a.get(1), (NDArray) a.get(2));
          return null;
        });
    // settings(): the session spec's every setting as [name, value] pairs (values as configure
  }

  /** A JSON object given as text (attributes), or an IllegalArgumentException naming fn. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> jsonObject(String text, String fn) {
    try {
      Object v = JSON.readValue(text, Object.class);
      if (v instanceof Map<?, ?> m) {
        return (Map<String, Object>) m;
      }
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          fn + ": attributes are not JSON: " + e.getOriginalMessage());
    }
    throw new IllegalArgumentException(fn + ": attributes must be a JSON object, got " + text);
  }
}
