package dev.cubed.zarr;

import dev.cubed.zarr.store.Keys;
import dev.cubed.zarr.store.Store;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The object-store side of a {@link StagedWrite} (memory, S3: no rename): where a target's staging
 * arrays are, and steps 2-5 of its commit (see {@link StagedWrite}'s class comment). Every step is
 * idempotent and reported through {@link StagedWrite#step} before it runs, so a commit killed at
 * any point is finished by running {@link #finish} again.
 */
final class ObjectStoreCommit {
  /** The metadata documents of a Zarr node, deleted first and written last by a commit. */
  private static final List<String> NODE_DOCS = List.of("zarr.json", ".zarray", ".zgroup");

  private ObjectStoreCommit() {}

  /** The staging path of the object-store target at {@code path} for the staging {@code name}. */
  static String stagingPath(String path, String name) {
    if (path.isEmpty()) {
      return name; // a hidden child: an object store root has no parent
    }
    int slash = path.lastIndexOf('/');
    return (slash < 0 ? "" : path.substring(0, slash + 1)) + name;
  }

  /**
   * The staging arrays (paths) of any compute for the target at {@code path} of an object store.
   */
  static List<String> stagings(Store store, String path) {
    int slash = path.lastIndexOf('/');
    String parent = path.isEmpty() || slash < 0 ? "" : path.substring(0, slash + 1);
    String start =
        path.isEmpty()
            ? StagedWrite.STAGING
            : "." + path.substring(slash + 1) + StagedWrite.STAGING;
    String prefix = path.isEmpty() ? "" : parent;
    List<String> out = new ArrayList<>();
    for (String n : store.listChildren(prefix)) {
      if (n.startsWith(start)) {
        out.add(prefix + n);
      }
    }
    return out;
  }

  /** Steps 2-5 of the object-store commit (see {@link StagedWrite}); idempotent. */
  static void finish(Store store, String path, String stagingPath) {
    ZarrArray st = ZarrArray.open(store, stagingPath);
    for (String doc : NODE_DOCS) {
      StagedWrite.step("delete " + doc + " of the target");
      store.delete(Keys.join(path, doc));
    }
    StagedWrite.step("delete .zattrs of the target");
    store.delete(Keys.join(path, ".zattrs"));
    String sPre = stagingPath + "/";
    Set<String> staged = new HashSet<>();
    for (String k : store.list(sPre)) {
      String rel = k.substring(sPre.length());
      if (rel.equals(StagedWrite.COMMIT_MARK) || NODE_DOCS.contains(rel) || rel.equals(".zattrs")) {
        continue;
      }
      staged.add(rel);
      byte[] v = store.get(k);
      if (v != null) {
        StagedWrite.step("copy " + rel);
        store.put(Keys.join(path, rel), v);
      }
    }
    String dPre = path.isEmpty() ? "" : path + "/";
    for (String k : store.list(dPre)) {
      String rel = k.substring(dPre.length());
      if (!rel.startsWith(".cubed-") && !staged.contains(rel)) {
        StagedWrite.step("delete stale " + rel);
        store.delete(k);
      }
    }
    Map<String, Object> attrs = new LinkedHashMap<>(st.attributes());
    attrs.remove(ZarrArray.INCOMPLETE_ATTRIBUTE);
    StagedWrite.step("write the target's metadata");
    st.relocated(store, path).withAttributes(attrs);
    StagedWrite.step("delete the commit mark");
    store.delete(Keys.join(stagingPath, StagedWrite.COMMIT_MARK));
    StagedWrite.step("delete the staging array");
    store.deletePrefix(sPre);
  }
}
