package dev.cubed.azure;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.identity.DefaultAzureCredentialBuilder;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import dev.cubed.zarr.store.Stores;
import java.io.Serializable;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import reactor.core.publisher.Mono;

/**
 * Where an {@link AzureStore} connects and how, without secrets: the credentials are looked up
 * again on every JVM that opens a client (never serialized).
 *
 * <p>Credentials: the connection string in the environment variable {@value #CONNECTION_STRING} (or
 * the system property {@value #CONNECTION_STRING_PROPERTY}), which also names the endpoint
 * (Azurite's, or a SAS / account-key one); without it, the Azure SDK's default chain ({@code
 * DefaultAzureCredential}: environment service principal, workload or managed identity, Azure CLI
 * login...) for the account named by {@code abfs://container@ACCOUNT.dfs.core.windows.net/} or the
 * environment variable {@value #ACCOUNT}, at {@code https://ACCOUNT.blob.core.windows.net}.
 *
 * @param account the storage account without a connection string, else null
 * @param attempts tries per request (the SDK's exponential retry policy: 100 ms doubling up to 5 s,
 *     on throttling (429), 5xx, timeouts and I/O failures)
 */
public record AzureSettings(String account, int attempts) implements Serializable {
  /** The environment variable holding a connection string. */
  public static final String CONNECTION_STRING = "AZURE_STORAGE_CONNECTION_STRING";

  /** The system property that may hold a connection string instead (tests, embedding). */
  public static final String CONNECTION_STRING_PROPERTY = "cubed.azure.connectionString";

  /** The environment variable naming the account for the default credential chain. */
  public static final String ACCOUNT = "AZURE_STORAGE_ACCOUNT_NAME";

  /** Tries per request unless {@code ?max_attempts=} says otherwise. */
  public static final int DEFAULT_ATTEMPTS = 5;

  private static final ConcurrentHashMap<String, BlobServiceClient> CLIENTS =
      new ConcurrentHashMap<>();
  private static final Pattern SECRETS =
      Pattern.compile("(?i)(AccountKey|SharedAccessSignature|sig|SharedAccessKey)=[^;&\\s'\"]*");

  /**
   * Buffers the body of every error answer: the storage retry policy and the error decoding both
   * read it, and the JDK client's body can be read only once ("This publisher has already one
   * subscriber" instead of the retry). Successful bodies stay streamed.
   */
  private static final HttpPipelinePolicy BUFFER_ERRORS =
      new HttpPipelinePolicy() {
        @Override
        public Mono<HttpResponse> process(
            HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
          return next.process().map(r -> r.getStatusCode() >= 400 ? r.buffer() : r);
        }

        @Override
        public HttpPipelinePosition getPipelinePosition() {
          return HttpPipelinePosition.PER_RETRY;
        }
      };

  static {
    // the SDK sets Content-Length itself; without this the JDK client ignores it (it computes the
    // same value) and the SDK logs a warning per client. Read when the first JDK client is built.
    if (System.getProperty("jdk.httpclient.allowRestrictedHeaders") == null) {
      System.setProperty("jdk.httpclient.allowRestrictedHeaders", "content-length");
    }
  }

  /** The connection string from the environment or the system property, or null. */
  static String connectionString() {
    String p = System.getProperty(CONNECTION_STRING_PROPERTY);
    if (p != null && !p.isBlank()) {
      return p;
    }
    String e = System.getenv(CONNECTION_STRING);
    return e == null || e.isBlank() ? null : e;
  }

  /**
   * Text with account keys and SAS signatures masked, then {@link
   * dev.cubed.zarr.store.Stores#redact}.
   */
  static String redact(String text) {
    return text == null ? null : Stores.redact(SECRETS.matcher(text).replaceAll("$1=***"));
  }

  /** Where credentials come from, for messages. */
  String credentialSource() {
    return connectionString() != null
        ? "the connection string in " + CONNECTION_STRING
        : "the Azure SDK default credential chain (DefaultAzureCredential) for account '"
            + account
            + "'";
  }

  /** The client for these settings (shared per settings and connection string). */
  BlobServiceClient client() {
    String cs = connectionString();
    if (cs == null && (account == null || account.isEmpty())) {
      throw new IllegalArgumentException(
          "Azure store: no credentials: set "
              + CONNECTION_STRING
              + " (e.g. Azurite's), or name the account ("
              + ACCOUNT
              + " or abfs://container@ACCOUNT"
              + ".dfs.core.windows.net/path) to use the Azure SDK default credential chain");
    }
    String key = attempts + "|" + (cs != null ? "cs:" + cs : "account:" + account);
    return CLIENTS.computeIfAbsent(
        key,
        k -> {
          BlobServiceClientBuilder b =
              new BlobServiceClientBuilder()
                  .httpClient(new JdkHttpClientBuilder().build())
                  .retryOptions(
                      new RequestRetryOptions(
                          RetryPolicyType.EXPONENTIAL,
                          attempts,
                          Duration.ofSeconds(60),
                          Duration.ofMillis(100),
                          Duration.ofSeconds(5),
                          null))
                  .addPolicy(BUFFER_ERRORS);
          if (cs != null) {
            b.connectionString(cs);
          } else {
            b.endpoint("https://" + account.toLowerCase(Locale.ROOT) + ".blob.core.windows.net")
                .credential(new DefaultAzureCredentialBuilder().build());
          }
          return b.buildClient();
        });
  }
}
