package dev.cubed.gcs;

import com.google.api.gax.paging.Page;
import com.google.api.gax.retrying.RetrySettings;
import com.google.cloud.NoCredentials;
import com.google.cloud.ReadChannel;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.HttpStorageOptions;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.Storage.BlobField;
import com.google.cloud.storage.Storage.BlobGetOption;
import com.google.cloud.storage.Storage.BlobListOption;
import com.google.cloud.storage.StorageOptions;
import com.google.cloud.storage.StorageRetryStrategy;
import dev.cubed.zarr.store.ObjectStore;
import dev.cubed.zarr.store.ObjectStores;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.StoreSettings;
import dev.cubed.zarr.store.Stores;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link Store} on a Google Cloud Storage bucket (or a GCS-compatible server), rooted at an
 * object-name prefix: {@code gs://bucket/some/prefix} maps store key {@code a/zarr.json} to object
 * {@code some/prefix/a/zarr.json}. Requests go through the Cloud Storage client's JSON API
 * transport ({@code google-cloud-storage}).
 *
 * <p>Writes are one single-request upload each, which GCS makes atomic: readers see the old object
 * or the new one. Reads of absent keys return null (404). Transient failures (408, 429, 5xx,
 * connection failures) are retried by the client with exponential backoff ({@link
 * GcsSettings#maxAttempts()} attempts), for every request including uploads (a store write replayed
 * writes the same bytes); when they are spent, or for access denied and missing buckets, a {@link
 * dev.cubed.zarr.store.ZarrStoreException} names the key, the bucket and the cause.
 *
 * <p>Serializable: the bucket, prefix and {@link GcsSettings} travel, never credentials; the
 * receiving JVM builds its own client (Application Default Credentials, or the settings' {@link
 * GcsClientFactory}) on first use. Clients are shared per settings within a JVM. A store may also
 * be built on a given client ({@link #GcsStore(String, String, Storage)}), which stays in its JVM.
 * The memory model counts {@link #bufferCopies() 2 copies} of every chunk read or written.
 */
public final class GcsStore extends ObjectStore<GcsSettings> {
  private static final long serialVersionUID = 1L;
  private static final ConcurrentHashMap<GcsSettings, Storage> CLIENTS = new ConcurrentHashMap<>();

  /** Objects per listing page requested (tests lower it to exercise pagination). */
  static volatile int listPageSize = 1000;

  /** Objects per batch delete request (the JSON API's batch limit is 100). */
  static final int DELETE_BATCH = 100;

  private transient volatile Storage client;

  /** The client given to the constructor, or null when the store builds its own. */
  private final transient Storage given;

  /**
   * A store on {@code bucket} under {@code prefix} ("" for the bucket's root).
   *
   * @throws IllegalArgumentException for an empty bucket or a malformed prefix
   */
  public GcsStore(String bucket, String prefix, GcsSettings settings) {
    this(bucket, prefix, settings, null);
  }

  /**
   * A store on {@code bucket} under {@code prefix} whose requests go through {@code client}, built
   * by the caller (other transport options or credentials, or an in-memory client in tests) instead
   * of one built from settings. The client does not travel: such a store refuses to be serialized
   * (for stores sent to other JVMs, name a {@link GcsClientFactory} in the {@code client_factory}
   * setting). Two such stores are equal only if they share the client.
   *
   * @throws IllegalArgumentException for an empty bucket or a malformed prefix
   * @throws NullPointerException if {@code client} is null
   */
  public GcsStore(String bucket, String prefix, Storage client) {
    this(bucket, prefix, describing(Objects.requireNonNull(client, "client")), client);
  }

  private GcsStore(String bucket, String prefix, GcsSettings settings, Storage given) {
    super(ObjectStores.checkBucket("GCS", bucket), ObjectStores.rootPrefix(prefix), settings);
    this.given = given;
    this.client = given;
  }

  /** Settings describing a given client: its host (unless Google's), project and attempts. */
  private static GcsSettings describing(Storage client) {
    StorageOptions o = client.getOptions();
    String host = o.getHost();
    String endpoint = host == null || host.equals("https://storage.googleapis.com") ? null : host;
    int attempts = o.getRetrySettings().getMaxAttempts();
    return new GcsSettings(
        endpoint,
        o.getProjectId(),
        false,
        attempts < 1 ? GcsSettings.DEFAULT_MAX_ATTEMPTS : attempts,
        null);
  }

  /**
   * Opens {@code gs://bucket/prefix[?endpoint=...&project=...&credentials=...&max_attempts=...]};
   * settings not in the query come from system properties and the environment ({@link
   * GcsSettings#resolve}).
   *
   * @throws IllegalArgumentException if the URI is not gs:// or names no bucket
   */
  public static GcsStore open(URI uri) {
    if (uri.getScheme() == null || !uri.getScheme().equalsIgnoreCase("gs")) {
      throw new IllegalArgumentException("not a gs:// URI: " + StoreSettings.withoutQuery(uri));
    }
    String bucket = ObjectStores.bucketOf(uri, "GCS", "gs");
    return new GcsStore(bucket, uri.getPath(), GcsSettings.resolve(uri));
  }

  Storage client() {
    Storage c = client;
    if (c == null) {
      c = CLIENTS.computeIfAbsent(settings, GcsStore::buildClient);
      client = c;
    }
    return c;
  }

  /** For messages: how this store's client was made. */
  String clientDescription() {
    return given == null
        ? settings.describe()
        : "the Storage client given to the store (project " + settings.project() + ")";
  }

  private static Storage buildClient(GcsSettings s) {
    return s.clientFactory() != null ? fromFactory(s) : httpClient(s);
  }

  /** The client of the settings' {@link GcsClientFactory}, checked before it is instantiated. */
  private static Storage fromFactory(GcsSettings s) {
    String name = s.clientFactory();
    ClassLoader cl = Thread.currentThread().getContextClassLoader();
    Class<?> c;
    try {
      c = Class.forName(name, false, cl != null ? cl : GcsStore.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new IllegalArgumentException(
          "GCS client_factory class '" + name + "' is not on this JVM's classpath", e);
    }
    if (!GcsClientFactory.class.isAssignableFrom(c)) {
      throw new IllegalArgumentException(
          "GCS client_factory class '"
              + name
              + "' does not implement "
              + GcsClientFactory.class.getName());
    }
    GcsClientFactory f;
    try {
      f = (GcsClientFactory) c.getConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException(
          "GCS client_factory class '" + name + "' has no public no-argument constructor: " + e, e);
    }
    return Objects.requireNonNull(f.create(s), () -> name + ".create returned no client");
  }

  /** The client's retry timing: exponential backoff from 50 ms, doubling, at most 20 s apart. */
  static RetrySettings retrySettings(int maxAttempts) {
    return RetrySettings.newBuilder()
        .setMaxAttempts(maxAttempts)
        .setInitialRetryDelayDuration(Duration.ofMillis(50))
        .setRetryDelayMultiplier(2.0)
        .setMaxRetryDelayDuration(Duration.ofSeconds(20))
        .setJittered(true)
        .setInitialRpcTimeoutDuration(Duration.ofSeconds(60))
        .setRpcTimeoutMultiplier(1.0)
        .setMaxRpcTimeoutDuration(Duration.ofSeconds(60))
        .setTotalTimeoutDuration(Duration.ofMinutes(10))
        .build();
  }

  private static Storage httpClient(GcsSettings s) {
    HttpStorageOptions.Builder b =
        HttpStorageOptions.http()
            .setRetrySettings(retrySettings(s.maxAttempts()))
            // every request is retried, uploads included: a store write replayed writes the same
            // bytes, a replayed delete finds nothing (which delete() accepts)
            .setStorageRetryStrategy(StorageRetryStrategy.getUniformStorageRetryStrategy());
    if (s.endpoint() != null) {
      b.setHost(s.endpoint());
    }
    if (s.project() != null) {
      b.setProjectId(s.project());
    }
    if (s.anonymous()) {
      b.setCredentials(NoCredentials.getInstance());
      if (s.project() == null) {
        b.setProjectId("cubed"); // no credentials to take one from; object requests ignore it
      }
    }
    return b.build().getService();
  }

  private BlobId object(String key) {
    return BlobId.of(bucket, objectName(key));
  }

  @Override
  public byte[] get(String key) {
    BlobId id = object(key);
    try {
      return client().readAllBytes(id);
    } catch (RuntimeException e) {
      if (GcsErrors.classify(e) == GcsErrors.Kind.NOT_FOUND) {
        return null;
      }
      throw GcsErrors.failure("read", key, this, e);
    }
  }

  @Override
  public byte[] getRange(String key, long offset, int length) {
    ObjectStores.checkRange(this, key, offset, length);
    return read(key, offset, length, false);
  }

  @Override
  public byte[] getSuffix(String key, int length) {
    ObjectStores.checkSuffix(this, key, length);
    return read(key, 0, length, true);
  }

  /**
   * A range ({@code suffix}: the last {@code length} bytes) of a key's value, or null if absent:
   * the object's size and generation first, then the bytes of that generation, so a concurrent
   * overwrite cannot mix two values. If the generation is replaced between the two requests the
   * read starts again (a few times).
   */
  private byte[] read(String key, long offset, int length, boolean suffix) {
    for (int attempt = 1; ; attempt++) {
      Blob meta = metadata(key);
      if (meta == null) {
        return null;
      }
      long size = meta.getSize();
      long start = suffix ? Math.max(0, size - length) : offset;
      long end = suffix ? size : Math.min(size, offset + length);
      if (start >= end) {
        return new byte[0];
      }
      try {
        return ranged(meta.getBlobId(), start, end);
      } catch (IOException | RuntimeException e) {
        if (GcsErrors.classify(e) != GcsErrors.Kind.NOT_FOUND || attempt >= 5) {
          throw GcsErrors.failure("read (bytes " + start + "-" + (end - 1) + ")", key, this, e);
        }
      }
    }
  }

  /** Object metadata (name, size, generation), or null if absent. */
  private Blob metadata(String key) {
    BlobId id = object(key);
    try {
      return client()
          .get(id, BlobGetOption.fields(BlobField.NAME, BlobField.SIZE, BlobField.GENERATION));
    } catch (RuntimeException e) {
      if (GcsErrors.classify(e) == GcsErrors.Kind.NOT_FOUND) {
        return null;
      }
      throw GcsErrors.failure("check (metadata)", key, this, e);
    }
  }

  /** Bytes [start, end) of one generation of an object. */
  private byte[] ranged(BlobId generation, long start, long end) throws IOException {
    int n = Math.toIntExact(end - start);
    ByteBuffer buf = ByteBuffer.allocate(n);
    try (ReadChannel rc = client().reader(generation)) {
      rc.setChunkSize(0); // no read-ahead beyond the range
      rc.seek(start);
      rc.limit(end);
      while (buf.hasRemaining() && rc.read(buf) >= 0) {
        // until the range is read or the object ends
      }
    }
    return buf.position() == n ? buf.array() : Arrays.copyOf(buf.array(), buf.position());
  }

  @Override
  public void put(String key, byte[] value) {
    put(key, value, value.length);
  }

  /** One single-request upload of the first {@code length} bytes, without copying them. */
  @Override
  public void put(String key, byte[] value, int length) {
    Stores.checkLength(key, value, length);
    BlobId id = object(key);
    try {
      client().create(BlobInfo.newBuilder(id).build(), value, 0, length);
    } catch (RuntimeException e) {
      throw GcsErrors.failure("write", key, this, e);
    }
  }

  @Override
  public void delete(String key) {
    BlobId id = object(key);
    try {
      client().delete(id);
    } catch (RuntimeException e) {
      if (GcsErrors.classify(e) == GcsErrors.Kind.NOT_FOUND) {
        return;
      }
      throw GcsErrors.failure("delete", key, this, e);
    }
  }

  /**
   * Deletes every key under {@code keyPrefix} with batch requests of up to {@value #DELETE_BATCH}
   * objects, instead of one request per key.
   */
  @Override
  public void deletePrefix(String keyPrefix) {
    String p = prefix + Stores.checkPrefix(keyPrefix);
    List<BlobId> ids = new ArrayList<>();
    for (Blob b : listing(p, false, keyPrefix)) {
      ids.add(BlobId.of(bucket, b.getName()));
    }
    for (int i = 0; i < ids.size(); i += DELETE_BATCH) {
      List<BlobId> batch = ids.subList(i, Math.min(ids.size(), i + DELETE_BATCH));
      try {
        client().delete(batch); // false for objects already gone: fine
      } catch (UnsupportedOperationException e) {
        // a client without batch requests (Google's in-memory LocalStorageHelper): one by one
        for (BlobId id : batch) {
          delete(keyOf(id.getName()));
        }
      } catch (RuntimeException e) {
        throw GcsErrors.failure("delete (batch of " + batch.size() + ")", keyPrefix + "*", this, e);
      }
    }
  }

  @Override
  public boolean exists(String key) {
    return metadata(key) != null;
  }

  @Override
  public List<String> list(String keyPrefix) {
    String p = prefix + Stores.checkPrefix(keyPrefix);
    TreeSet<String> out = new TreeSet<>();
    for (Blob b : listing(p, false, keyPrefix)) {
      out.add(keyOf(b.getName()));
    }
    return new ArrayList<>(out);
  }

  @Override
  public List<String> listChildren(String keyPrefix) {
    String p = prefix + Stores.checkPrefix(keyPrefix);
    TreeSet<String> out = new TreeSet<>();
    for (Blob b : listing(p, true, keyPrefix)) {
      out.add(ObjectStores.childName(b.getName(), p.length()));
    }
    out.remove("");
    return new ArrayList<>(out);
  }

  /** Every object (and with {@code oneLevel}, every "directory") under a name prefix. */
  private List<Blob> listing(String p, boolean oneLevel, String keyPrefix) {
    List<Blob> out = new ArrayList<>();
    List<BlobListOption> opts = new ArrayList<>();
    opts.add(BlobListOption.pageSize(listPageSize));
    opts.add(BlobListOption.fields(BlobField.NAME));
    if (!p.isEmpty()) {
      opts.add(BlobListOption.prefix(p));
    }
    if (oneLevel) {
      opts.add(BlobListOption.currentDirectory());
    }
    try {
      Page<Blob> page = client().list(bucket, opts.toArray(new BlobListOption[0]));
      for (Blob b : page.iterateAll()) {
        out.add(b);
      }
    } catch (RuntimeException e) {
      throw GcsErrors.failure("list", keyPrefix + "*", this, e);
    }
    return out;
  }

  /** 2: a GCS read or write holds the chunk's bytes once more than a local one (HTTP buffer). */
  @Override
  public int bufferCopies() {
    return 2;
  }

  /** Equal stores: same bucket, prefix and settings, and the same given client (if any). */
  @Override
  public boolean equals(Object o) {
    return super.equals(o) && ((GcsStore) o).given == given;
  }

  @Override
  public int hashCode() {
    return super.hashCode();
  }

  private void writeObject(ObjectOutputStream out) throws IOException {
    if (given != null) {
      throw new NotSerializableException(
          "GCS store "
              + describe()
              + " uses a Storage client given to its constructor, which cannot travel to another"
              + " JVM: name a "
              + GcsClientFactory.class.getName()
              + " in the client_factory setting instead");
    }
    out.defaultWriteObject();
  }

  @Override
  public String describe() {
    return ObjectStores.describe("gs", bucket, prefix, settings.endpoint());
  }
}
