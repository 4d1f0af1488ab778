package dev.cubed.s3;

import dev.cubed.zarr.Stores;
import java.io.Serializable;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * How to reach an S3 service, without credentials (those always come from the SDK's default
 * chain in the JVM that uses the store, so they are never serialized with a store).
 *
 * <p>Each setting is taken from the first of: the store URI's query parameter, the system
 * property, the environment variable; otherwise the default.
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
        throw new IllegalArgumentException("S3 endpoint '" + Stores.redact(endpoint)
            + "' is not a URI");
      }
      if (u.getScheme() == null || u.getHost() == null
          || !(u.getScheme().equals("http") || u.getScheme().equals("https"))) {
        throw new IllegalArgumentException("S3 endpoint '" + Stores.redact(endpoint)
            + "' must be an http:// or"
            + " https:// URL with a host, e.g. http://127.0.0.1:9000");
      }
    }
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("S3 max_attempts must be at least 1, got "
          + maxAttempts);
    }
  }

  /** The settings for a store URI, from its query, the system properties and the environment. */
  public static S3Settings resolve(URI uri) {
    return resolve(uri, System::getProperty, System::getenv);
  }

  static S3Settings resolve(URI uri, Function<String, String> props,
      Function<String, String> env) {
    Map<String, String> q = query(uri);
    String endpoint = pick(q, "endpoint", "cubed.s3.endpoint", "CUBED_S3_ENDPOINT", props, env);
    String region = pick(q, "region", "cubed.s3.region", "CUBED_S3_REGION", props, env);
    String ps = pick(q, "path_style", "cubed.s3.pathStyle", "CUBED_S3_PATH_STYLE", props, env);
    String ma = pick(q, "max_attempts", "cubed.s3.maxAttempts", "CUBED_S3_MAX_ATTEMPTS", props,
        env);
    boolean pathStyle = ps == null ? endpoint != null : parseBoolean(ps);
    int attempts;
    try {
      attempts = ma == null ? DEFAULT_MAX_ATTEMPTS : Integer.parseInt(ma.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("S3 max_attempts '" + ma + "' is not an integer", e);
    }
    return new S3Settings(endpoint, region, pathStyle, attempts);
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

  private static String pick(Map<String, String> q, String param, String prop, String envName,
      Function<String, String> props, Function<String, String> env) {
    String v = q.get(param);
    if (v == null || v.isBlank()) {
      v = props.apply(prop);
    }
    if (v == null || v.isBlank()) {
      v = env.apply(envName);
    }
    return v == null || v.isBlank() ? null : v.trim();
  }

  private static Map<String, String> query(URI uri) {
    Map<String, String> out = new HashMap<>();
    String raw = uri.getRawQuery();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String part : raw.split("&")) {
      int eq = part.indexOf('=');
      String k = URLDecoder.decode(eq < 0 ? part : part.substring(0, eq), StandardCharsets.UTF_8);
      String v = eq < 0 ? "true" : URLDecoder.decode(part.substring(eq + 1),
          StandardCharsets.UTF_8);
      switch (k) {
        case "endpoint", "region", "path_style", "max_attempts" -> out.put(k, v);
        default -> throw new IllegalArgumentException("S3 URI " + withoutQuery(uri)
            + ": unknown query"
            + " parameter '" + k + "' (known: endpoint, region, path_style, max_attempts)");
      }
    }
    return out;
  }

  /** A URI without its query (whose values may hold anything) and with credentials redacted. */
  static String withoutQuery(URI uri) {
    String s = uri.toString();
    int q = s.indexOf('?');
    return Stores.redact(q < 0 ? s : s.substring(0, q) + "?...");
  }

  /** The settings, the endpoint's credentials redacted ({@link Stores#redact}). */
  @Override
  public String toString() {
    return "S3Settings[endpoint=" + Stores.redact(endpoint) + ", region=" + region
        + ", pathStyle=" + pathStyle + ", maxAttempts=" + maxAttempts + "]";
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
