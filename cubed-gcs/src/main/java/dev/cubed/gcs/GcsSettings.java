package dev.cubed.gcs;

import dev.cubed.zarr.store.StoreSettings;
import dev.cubed.zarr.store.Stores;
import java.io.Serializable;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * How to reach Google Cloud Storage, without credentials (those always come from Application
 * Default Credentials in the JVM that uses the store, so they are never serialized with a store).
 *
 * <p>Each setting is taken from the first of: the store URI's query parameter, the system property,
 * the environment variable; otherwise the default.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>query</th><th>system property</th><th>environment</th><th>default</th></tr>
 *   <tr><td>endpoint</td><td>cubed.gcs.endpoint</td><td>CUBED_GCS_ENDPOINT, then
 *       STORAGE_EMULATOR_HOST</td><td>none: https://storage.googleapis.com</td></tr>
 *   <tr><td>project</td><td>cubed.gcs.project</td><td>CUBED_GCS_PROJECT</td>
 *       <td>the SDK's (GOOGLE_CLOUD_PROJECT, the credentials' project)</td></tr>
 *   <tr><td>credentials</td><td>cubed.gcs.credentials</td><td>CUBED_GCS_CREDENTIALS</td>
 *       <td>{@code none} when an endpoint is set (emulators), else {@code default}</td></tr>
 *   <tr><td>max_attempts</td><td>cubed.gcs.maxAttempts</td><td>CUBED_GCS_MAX_ATTEMPTS</td>
 *       <td>8</td></tr>
 *   <tr><td>client_factory</td><td>cubed.gcs.clientFactory</td><td>CUBED_GCS_CLIENT_FACTORY</td>
 *       <td>none: the store builds its client from the settings above</td></tr>
 * </table>
 *
 * @param endpoint endpoint override (e.g. {@code http://127.0.0.1:4443}), or null for Google's
 * @param project project id, or null for the SDK's default
 * @param anonymous true to send no credentials ({@code credentials=none}), false for Application
 *     Default Credentials ({@code credentials=default})
 * @param maxAttempts attempts per request, including the first (retries with backoff)
 * @param clientFactory the class name of a {@link GcsClientFactory} that builds the client, or null
 *     for the store's own (JSON API transport with the settings above)
 */
public record GcsSettings(
    String endpoint, String project, boolean anonymous, int maxAttempts, String clientFactory)
    implements Serializable {
  /** Default attempts per request. */
  public static final int DEFAULT_MAX_ATTEMPTS = 8;

  /**
   * Checks the settings.
   *
   * @throws IllegalArgumentException for a malformed endpoint or maxAttempts below 1
   */
  public GcsSettings {
    if (endpoint != null) {
      endpoint = normalizeEndpoint(endpoint);
    }
    StoreSettings.checkMaxAttempts("GCS", maxAttempts);
    if (clientFactory != null && !CLASS_NAME.matcher(clientFactory).matches()) {
      throw new IllegalArgumentException(
          "GCS client_factory '"
              + clientFactory
              + "' is not a Java class name (e.g. com.example.MyGcsClientFactory)");
    }
  }

  /**
   * Settings without a client factory: the store builds its own client.
   *
   * @throws IllegalArgumentException for a malformed endpoint or maxAttempts below 1
   */
  public GcsSettings(String endpoint, String project, boolean anonymous, int maxAttempts) {
    this(endpoint, project, anonymous, maxAttempts, null);
  }

  private static final Pattern CLASS_NAME =
      Pattern.compile(
          "\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*"
              + "(\\.\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*)*");

  /**
   * {@code host:port} (the form of STORAGE_EMULATOR_HOST) becomes {@code http://host:port}; a
   * trailing '/' is dropped.
   */
  private static String normalizeEndpoint(String endpoint) {
    String e = endpoint.trim();
    if (!e.contains("://")) {
      e = "http://" + e;
    }
    while (e.endsWith("/")) {
      e = e.substring(0, e.length() - 1);
    }
    URI u;
    try {
      u = URI.create(e);
    } catch (IllegalArgumentException x) {
      throw new IllegalArgumentException(
          "GCS endpoint '" + Stores.redact(endpoint) + "' is not a URI");
    }
    if (u.getHost() == null || !(u.getScheme().equals("http") || u.getScheme().equals("https"))) {
      throw new IllegalArgumentException(
          "GCS endpoint '"
              + Stores.redact(endpoint)
              + "' must be host:port or an http:// or https:// URL with a host, e.g."
              + " http://127.0.0.1:4443");
    }
    return e;
  }

  /** The settings for a store URI, from its query, the system properties and the environment. */
  public static GcsSettings resolve(URI uri) {
    return resolve(uri, System::getProperty, System::getenv);
  }

  static GcsSettings resolve(
      URI uri, Function<String, String> props, Function<String, String> env) {
    StoreSettings q =
        StoreSettings.of(
            uri,
            "GCS",
            "",
            List.of("endpoint", "project", "credentials", "max_attempts", "client_factory"),
            props,
            env);
    String endpoint = q.get("endpoint");
    if (endpoint == null) {
      endpoint = q.env("STORAGE_EMULATOR_HOST");
    }
    String project = q.get("project");
    String cred = q.get("credentials");
    boolean anonymous;
    if (cred == null) {
      anonymous = endpoint != null;
    } else {
      anonymous =
          switch (cred.toLowerCase(Locale.ROOT)) {
            case "none" -> true;
            case "default" -> false;
            default ->
                throw new IllegalArgumentException(
                    "GCS credentials '"
                        + cred
                        + "' is neither 'default' (Application Default Credentials) nor 'none'");
          };
    }
    return new GcsSettings(
        endpoint, project, anonymous, q.maxAttempts(DEFAULT_MAX_ATTEMPTS), q.get("client_factory"));
  }

  /** The settings, the endpoint's credentials redacted ({@link Stores#redact}). */
  @Override
  public String toString() {
    return "GcsSettings[endpoint="
        + Stores.redact(endpoint)
        + ", project="
        + project
        + ", anonymous="
        + anonymous
        + ", maxAttempts="
        + maxAttempts
        + (clientFactory == null ? "" : ", clientFactory=" + clientFactory)
        + "]";
  }

  /** For messages: where requests go and how credentials are found. */
  String describe() {
    if (clientFactory != null) {
      return "the client of " + clientFactory + " (client_factory)";
    }
    return (endpoint == null ? "Google Cloud Storage" : "endpoint " + Stores.redact(endpoint))
        + (project == null ? "" : ", project " + project)
        + (anonymous
            ? "; no credentials sent (credentials=none)"
            : "; credentials from Application Default Credentials"
                + " (GOOGLE_APPLICATION_CREDENTIALS, gcloud auth application-default login,"
                + " the metadata server of GCE/GKE/Cloud Run)");
  }
}
