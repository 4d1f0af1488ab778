package dev.cubed.zarr.store;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The settings of a store plugin, each looked up in the first of: the store URI's query parameter,
 * the system property, the environment variable. For service {@code S3} and parameter {@code
 * max_attempts} these are {@code ?max_attempts=}, the property {@code cubed.s3.maxAttempts} (the
 * parameter in camel case after {@code cubed.} and the service in lower case) and the variable
 * {@code CUBED_S3_MAX_ATTEMPTS} (all in upper case). Blank values count as absent; values are
 * trimmed.
 */
public final class StoreSettings {
  private final String service;
  private final Map<String, String> query;
  private final Function<String, String> props;
  private final Function<String, String> env;

  private StoreSettings(
      String service,
      Map<String, String> query,
      Function<String, String> props,
      Function<String, String> env) {
    this.service = service;
    this.query = query;
    this.props = props;
    this.env = env;
  }

  /**
   * The settings of a store URI.
   *
   * @param service the service's name in properties, variables and messages, e.g. "S3"
   * @param valueless the value of a query parameter written without '=' (e.g. "true")
   * @param known the query parameters the store accepts
   * @param props the system properties (e.g. {@code System::getProperty})
   * @param env the environment (e.g. {@code System::getenv})
   * @throws IllegalArgumentException for a query parameter not in {@code known}: "SERVICE URI U:
   *     unknown query parameter 'P' (known: ...)", the URI shown by {@link #withoutQuery}
   */
  public static StoreSettings of(
      URI uri,
      String service,
      String valueless,
      List<String> known,
      Function<String, String> props,
      Function<String, String> env) {
    Map<String, String> out = new HashMap<>();
    String raw = uri.getRawQuery();
    if (raw != null && !raw.isEmpty()) {
      for (String part : raw.split("&")) {
        int eq = part.indexOf('=');
        String k = URLDecoder.decode(eq < 0 ? part : part.substring(0, eq), StandardCharsets.UTF_8);
        String v =
            eq < 0 ? valueless : URLDecoder.decode(part.substring(eq + 1), StandardCharsets.UTF_8);
        if (!known.contains(k)) {
          throw new IllegalArgumentException(
              service
                  + " URI "
                  + withoutQuery(uri)
                  + ": unknown query parameter '"
                  + k
                  + "' (known: "
                  + String.join(", ", known)
                  + ")");
        }
        out.put(k, v);
      }
    }
    return new StoreSettings(service, out, props, env);
  }

  /**
   * Settings of a service that has no URI query (JVM-wide settings, or a store whose URLs keep
   * their queries): system properties and the environment only.
   */
  public static StoreSettings global(
      String service, Function<String, String> props, Function<String, String> env) {
    return new StoreSettings(service, Map.of(), props, env);
  }

  /**
   * A setting: the query parameter {@code param}, else its system property, else its environment
   * variable (named as the class comment says); null if all are absent or blank.
   */
  public String get(String param) {
    String v = blankToNull(query.get(param));
    if (v == null) {
      v = blankToNull(props.apply(property(param)));
    }
    if (v == null) {
      v = blankToNull(env.apply(variable(param)));
    }
    return v;
  }

  /** An environment variable by its own name, blank as null and trimmed. */
  public String env(String name) {
    return blankToNull(env.apply(name));
  }

  /**
   * The {@code max_attempts} setting, or {@code defaultAttempts} if absent.
   *
   * @throws IllegalArgumentException "SERVICE max_attempts 'V' is not an integer"
   */
  public int maxAttempts(int defaultAttempts) {
    String ma = get("max_attempts");
    try {
      return ma == null ? defaultAttempts : Integer.parseInt(ma.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          service + " max_attempts '" + ma + "' is not an integer", e);
    }
  }

  /**
   * Checks attempts per request.
   *
   * @return {@code maxAttempts}
   * @throws IllegalArgumentException "SERVICE max_attempts must be at least 1, got N"
   */
  public static int checkMaxAttempts(String service, int maxAttempts) {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException(
          service + " max_attempts must be at least 1, got " + maxAttempts);
    }
    return maxAttempts;
  }

  /** The system property of a parameter, e.g. {@code cubed.s3.maxAttempts}. */
  String property(String param) {
    StringBuilder b =
        new StringBuilder("cubed.").append(service.toLowerCase(Locale.ROOT)).append('.');
    boolean up = false;
    for (char c : param.toCharArray()) {
      if (c == '_') {
        up = true;
      } else {
        b.append(up ? Character.toUpperCase(c) : c);
        up = false;
      }
    }
    return b.toString();
  }

  /** The environment variable of a parameter, e.g. {@code CUBED_S3_MAX_ATTEMPTS}. */
  String variable(String param) {
    return ("CUBED_" + service + "_" + param).toUpperCase(Locale.ROOT);
  }

  /** Null for null or blank, else the value trimmed. */
  public static String blankToNull(String v) {
    return v == null || v.isBlank() ? null : v.trim();
  }

  /**
   * A URI for messages: its query (whose values may hold anything) replaced by {@code ?...} and
   * credentials redacted ({@link Stores#redact}).
   */
  public static String withoutQuery(URI uri) {
    String s = uri.toString();
    int q = s.indexOf('?');
    return Stores.redact(q < 0 ? s : s.substring(0, q) + "?...");
  }
}
