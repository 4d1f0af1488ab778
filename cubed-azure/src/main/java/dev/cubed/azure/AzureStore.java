package dev.cubed.azure;

import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobRange;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.ListBlobsOptions;
import dev.cubed.zarr.store.ObjectStore;
import dev.cubed.zarr.store.ObjectStores;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.Stores;
import dev.cubed.zarr.store.ZarrStoreException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A {@link Store} on Azure Blob Storage: key {@code k} is the blob {@code prefix + k} of a
 * container. Opened by {@link Stores#open} for {@code az://container/path} and {@code
 * abfs[s]://container@ACCOUNT.dfs.core.windows.net/path} (optionally {@code ?max_attempts=N}).
 *
 * <p>Credentials and endpoint: see {@link AzureSettings} (a connection string from {@code
 * AZURE_STORAGE_CONNECTION_STRING}, else the SDK's default chain for the named account). A put
 * replaces a blob atomically (one Put Blob); a put into a container that does not exist creates it.
 * Throttling (429), 5xx and I/O failures are retried by the SDK's exponential retry policy.
 * Messages never contain keys or signatures ({@link AzureSettings#redact}).
 */
public final class AzureStore extends ObjectStore<AzureSettings> {
  private static final long serialVersionUID = 1L;

  private transient volatile BlobContainerClient client;

  /**
   * A store below {@code prefix} of a container.
   *
   * @throws IllegalArgumentException for an invalid container name or prefix
   */
  public AzureStore(String container, String prefix, AzureSettings settings) {
    super(checkContainer(container), blobPrefix(prefix), settings);
  }

  private static String checkContainer(String container) {
    if (container == null || !container.matches("[a-z0-9$][a-z0-9-]{1,62}")) {
      throw new IllegalArgumentException(
          "Azure store: container name '"
              + container
              + "' is not valid (3-63 lower-case letters, digits and '-')");
    }
    return container;
  }

  /** "" or the prefix without leading '/' and with a trailing one. */
  private static String blobPrefix(String prefix) {
    String p = prefix == null ? "" : prefix;
    while (p.startsWith("/")) {
      p = p.substring(1);
    }
    if (!p.isEmpty() && !p.endsWith("/")) {
      p = p + "/";
    }
    if (!p.isEmpty()) {
      Stores.checkPrefix(p);
    }
    return p;
  }

  /**
   * Opens {@code az://container/path} or {@code abfs[s]://container@account.dfs.core.windows.net
   * /path}; {@code ?max_attempts=N} sets the tries per request.
   *
   * @throws IllegalArgumentException for a malformed URI
   */
  public static AzureStore open(URI uri) {
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    String shown =
        AzureSettings.redact(uri.getScheme() + "://" + uri.getRawAuthority() + uri.getRawPath());
    String container;
    String account = System.getenv(AzureSettings.ACCOUNT);
    if (scheme.equals("az")) {
      container = uri.getAuthority();
    } else if (scheme.equals("abfs") || scheme.equals("abfss")) {
      container = uri.getUserInfo();
      String host = uri.getHost();
      if (host == null || container == null) {
        throw new IllegalArgumentException(
            "Azure URI "
                + shown
                + " is not abfs://container@"
                + "ACCOUNT.dfs.core.windows.net/path");
      }
      account = host.substring(0, host.indexOf('.') < 0 ? host.length() : host.indexOf('.'));
    } else {
      throw new IllegalArgumentException("not an az:// or abfs:// URI: " + shown);
    }
    if (container == null || container.isEmpty()) {
      throw new IllegalArgumentException(
          "Azure URI " + shown + " names no container; expected" + " az://container/path");
    }
    int attempts = AzureSettings.DEFAULT_ATTEMPTS;
    if (uri.getQuery() != null) {
      for (String kv : uri.getQuery().split("&")) {
        if (kv.startsWith("max_attempts=")) {
          try {
            attempts = Integer.parseInt(kv.substring("max_attempts=".length()));
          } catch (NumberFormatException e) {
            attempts = 0;
          }
          if (attempts < 1) {
            throw new IllegalArgumentException(
                "Azure URI " + shown + ": max_attempts must be" + " a positive integer");
          }
        } else if (!kv.isEmpty()) {
          throw new IllegalArgumentException(
              "Azure URI "
                  + shown
                  + ": unknown option '"
                  + kv.split("=")[0]
                  + "' (known: max_attempts)");
        }
      }
    }
    return new AzureStore(container, uri.getPath(), new AzureSettings(account, attempts));
  }

  /** The container. */
  public String container() {
    return bucket;
  }

  BlobContainerClient client() {
    BlobContainerClient c = client;
    if (c == null) {
      c = settings.client().getBlobContainerClient(bucket);
      client = c;
    }
    return c;
  }

  private BlobClient blob(String key) {
    return client().getBlobClient(objectName(key));
  }

  /** The exception for a failed operation, saying what, where, why and what to do. */
  ZarrStoreException failure(String op, String key, RuntimeException e) {
    String where =
        "Azure " + op + (key == null ? "" : " of key '" + key + "'") + " of " + describe();
    String why;
    if (e instanceof BlobStorageException b) {
      int st = b.getStatusCode();
      BlobErrorCode code = b.getErrorCode();
      if (BlobErrorCode.CONTAINER_NOT_FOUND.equals(code)) {
        why = "container '" + bucket + "' does not exist";
      } else if (st == 403 || st == 401) {
        why =
            "access denied (HTTP "
                + st
                + " "
                + code
                + "): check the credentials from "
                + settings.credentialSource();
      } else {
        why =
            "HTTP "
                + st
                + (code == null ? "" : " " + code)
                + (st == 429 || st >= 500 ? " after " + settings.attempts() + " attempts" : "");
      }
    } else {
      Throwable root = e;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      why =
          "failed after "
              + settings.attempts()
              + " attempts: "
              + root.getClass().getSimpleName()
              + (root.getMessage() == null ? "" : ": " + AzureSettings.redact(root.getMessage()));
    }
    return new ZarrStoreException(
        where + ": " + why,
        new IOException(AzureSettings.redact(String.valueOf(e.getMessage())), null));
  }

  private static boolean missing(BlobStorageException e) {
    return e.getStatusCode() == 404 && !BlobErrorCode.CONTAINER_NOT_FOUND.equals(e.getErrorCode());
  }

  /**
   * The result of a request for {@code key}, or {@code ifAbsent} if it fails with a
   * BlobStorageException that {@code absent} accepts; any other failure becomes the store's
   * exception for {@code op}.
   */
  private <T> T request(
      String op, String key, Supplier<T> call, Predicate<BlobStorageException> absent, T ifAbsent) {
    try {
      return call.get();
    } catch (RuntimeException e) {
      if (e instanceof BlobStorageException b && absent.test(b)) {
        return ifAbsent;
      }
      throw failure(op, key, e);
    }
  }

  private static boolean notFound(BlobStorageException e) {
    return e.getStatusCode() == 404;
  }

  @Override
  public byte[] get(String key) {
    BlobClient b = blob(key);
    return request(
        "read",
        key,
        () -> {
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          b.downloadStream(out);
          return out.toByteArray();
        },
        e -> missing(e) || BlobErrorCode.CONTAINER_NOT_FOUND.equals(e.getErrorCode()),
        null);
  }

  @Override
  public byte[] getRange(String key, long offset, int length) {
    Stores.checkRange(key, offset, length);
    BlobClient b = blob(key);
    if (length == 0) {
      return exists(key) ? new byte[0] : null;
    }
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(length, 1 << 16));
      b.downloadStreamWithResponse(
          out, new BlobRange(offset, (long) length), null, null, false, null, Context.NONE);
      return out.toByteArray();
    } catch (BlobStorageException e) {
      if (missing(e) || BlobErrorCode.CONTAINER_NOT_FOUND.equals(e.getErrorCode())) {
        return null;
      }
      if (e.getStatusCode() == 416) { // the value ends before the offset
        return new byte[0];
      }
      throw failure("range read", key, e);
    } catch (RuntimeException e) {
      throw failure("range read", key, e);
    }
  }

  @Override
  public byte[] getSuffix(String key, int length) {
    Stores.checkSuffix(key, length);
    BlobClient b = blob(key);
    Long blobSize =
        request(
            "size read", key, () -> b.getProperties().getBlobSize(), AzureStore::notFound, null);
    if (blobSize == null) {
      return null;
    }
    long size = blobSize;
    return getRange(key, Math.max(0, size - length), (int) Math.min(length, size));
  }

  @Override
  public void put(String key, byte[] value) {
    put(key, value, value.length);
  }

  @Override
  public void put(String key, byte[] value, int length) {
    Stores.checkLength(key, value, length);
    BlobClient b = blob(key);
    BinaryData data = BinaryData.fromByteBuffer(ByteBuffer.wrap(value, 0, length));
    try {
      try {
        b.upload(data, true);
      } catch (BlobStorageException e) {
        if (!BlobErrorCode.CONTAINER_NOT_FOUND.equals(e.getErrorCode())) {
          throw e;
        }
        client().createIfNotExists();
        b.upload(data, true);
      }
    } catch (RuntimeException e) {
      throw failure("write", key, e);
    }
  }

  @Override
  public void delete(String key) {
    BlobClient b = blob(key);
    request("delete", key, b::deleteIfExists, AzureStore::notFound, false);
  }

  @Override
  public boolean exists(String key) {
    BlobClient b = blob(key);
    return request("existence check", key, b::exists, AzureStore::notFound, false);
  }

  @Override
  public List<String> list(String prefix) {
    List<String> out = listing(prefix, this.prefix + Stores.checkPrefix(prefix), false);
    out.sort(null);
    return out;
  }

  @Override
  public List<String> listChildren(String prefix) {
    return Stores.listChildren(this, prefix, p -> listing(prefix, this.prefix + p, true));
  }

  /**
   * The keys under blob-name prefix {@code pre} (with {@code oneLevel}: the child names one level
   * below it), unsorted; none if the container does not exist.
   */
  private List<String> listing(String prefix, String pre, boolean oneLevel) {
    ListBlobsOptions options = new ListBlobsOptions().setPrefix(pre);
    return request(
        "listing of prefix '" + prefix + "'",
        null,
        () -> {
          List<String> out = new ArrayList<>();
          for (BlobItem item :
              oneLevel
                  ? client().listBlobsByHierarchy("/", options, null)
                  : client().listBlobs(options, null)) {
            out.add(
                oneLevel
                    ? ObjectStores.childName(item.getName(), pre.length())
                    : keyOf(item.getName()));
          }
          return out;
        },
        e -> BlobErrorCode.CONTAINER_NOT_FOUND.equals(e.getErrorCode()),
        new ArrayList<>());
  }

  /** 2: the encoded bytes and the HTTP client's buffer of them. */
  @Override
  public int bufferCopies() {
    return 2;
  }

  @Override
  public String describe() {
    String endpoint;
    try {
      endpoint = settings.client().getAccountUrl();
    } catch (RuntimeException e) {
      endpoint = "(no credentials)";
    }
    return "az://" + bucket + "/" + prefix + " at " + AzureSettings.redact(endpoint);
  }

  @Override
  public String toString() {
    return "AzureStore(az://" + bucket + "/" + prefix + ")";
  }
}
