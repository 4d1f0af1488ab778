package dev.cubed.s3;

import dev.cubed.zarr.store.StoreSettings;
import dev.cubed.zarr.store.Stores;
import java.io.Serializable;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * How to reach an S3 service, without credentials (those always come from the SDK's default chain
 * in the JVM that uses the store, so they are never serialized with a store).
 *
 * <p>Each setting is taken from the first of: the store URI's query parameter, the system property,
 * the environment variable; otherwise the default.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>query</th><th>system property</th><th>environment</th><th>default</th></tr>
 *   <tr><td>endpoint</td><td>cubed.s3.endpoint</td><td>CUBED_S3_ENDPOINT</td>
 *       <td>none: AWS S3 of the region</td></tr>
 *   <tr><td>region</td><td>cubed.s3.region</td><td>CUBED_S3_REGION</td>
 *       <td>the SDK's region chain (aws.region, AWS_REGION, profile, instance metadata); us-east-1
 *       when an endpoint is set and the chain finds none</td></tr>
 *   <tr><td>path_style</td><td>cubed.s3.pathStyle</td><td>CUBED_S3_PATH_STYLE</td>
 *       <td>true when an endpoint is set, else false</td></tr>
 *   <tr><td>max_attempts</td><td>cubed.s3.maxAttempts</td><td>CUBED_S3_MAX_ATTEMPTS</td>
 *       <td>8</td></tr>
 * </table>
 *
 * @param endpoint endpoint override (e.g. {@code http://127.0.0.1:9000}), or null for AWS
 * @param region region name, or null for the SDK's region chain
 * @param pathStyle path-style addressing ({@code endpoint/bucket/key}) instead of virtual hosts
 * @param maxAttempts attempts per request, including the first (retries with backoff)
 */
public record S3Settings(String endpoint, String region, boolean pathStyle, int maxAttempts)
    implements Serializable {
  /** Default attempts per request. */
  public static final int DEFAULT_MAX_ATTEMPTS = 8;

  /**
   * Checks the settings.
   *
   * @throws IllegalArgumentException for a malformed endpoint or maxAttempts below 1
   */
  public S3Settings {
    if (endpoint != null) {
      URI u;
      try {
        u = URI.create(endpoint);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "S3 endpoint '" + Stores.redact(endpoint) + "' is not a URI");
      }
      if (u.getScheme() == null
          || u.getHost() == null
          || !(u.getScheme().equals("http") || u.getScheme().equals("https"))) {
        throw new IllegalArgumentException(
            "S3 endpoint '"
                + Stores.redact(endpoint)
                + "' must be an http:// or"
                + " https:// URL with a host, e.g. http://127.0.0.1:9000");
      }
    }
    StoreSettings.checkMaxAttempts("S3", maxAttempts);
  }

  /** The settings for a store URI, from its query, the system properties and the environment. */
  public static S3Settings resolve(URI uri) {
    return resolve(uri, System::getProperty, System::getenv);
  }

  static S3Settings resolve(URI uri, Function<String, String> props, Function<String, String> env) {
    StoreSettings q =
        StoreSettings.of(
            uri,
            "S3",
            "true",
            List.of("endpoint", "region", "path_style", "max_attempts"),
            props,
            env);
    String endpoint = q.get("endpoint");
    String region = q.get("region");
    String ps = q.get("path_style");
    boolean pathStyle = ps == null ? endpoint != null : parseBoolean(ps);
    return new S3Settings(endpoint, region, pathStyle, q.maxAttempts(DEFAULT_MAX_ATTEMPTS));
  }

  private static boolean parseBoolean(String s) {
    String v = s.trim().toLowerCase(Locale.ROOT);
    if (v.equals("true") || v.equals("1") || v.equals("yes")) {
      return true;
    }
    if (v.equals("false") || v.equals("0") || v.equals("no")) {
      return false;
    }
    throw new IllegalArgumentException("S3 path_style '" + s + "' is not true or false");
  }

  /** The settings, the endpoint's credentials redacted ({@link Stores#redact}). */
  @Override
  public String toString() {
    return "S3Settings[endpoint="
        + Stores.redact(endpoint)
        + ", region="
        + region
        + ", pathStyle="
        + pathStyle
        + ", maxAttempts="
        + maxAttempts
        + "]";
  }

  /** For messages: where requests go and how credentials are found. */
  String describe() {
    return (endpoint == null ? "AWS S3" : "endpoint " + Stores.redact(endpoint))
        + (region == null ? ", region from the SDK's region chain" : ", region " + region)
        + (pathStyle ? ", path-style" : "")
        + "; credentials from the AWS SDK default chain (aws.accessKeyId/aws.secretAccessKey"
        + " system properties, AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE and"
        + " ~/.aws/credentials, web identity, container or instance role)";
  }
}
