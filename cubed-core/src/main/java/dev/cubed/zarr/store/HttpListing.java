package dev.cubed.zarr.store;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Listing an {@link HttpStore} from the HTML directory listings file servers give: the relative
 * links of a directory's page are its entries, those ending with '/' subdirectories.
 */
final class HttpListing {
  private static final Pattern HREF =
      Pattern.compile("(?i)href\\s*=\\s*(?:\"([^\"]*)\"|'([^']*)')");

  private HttpListing() {}

  /**
   * The entries of a directory ("" or ending with '/'): name to true for a subdirectory; empty if
   * the directory does not exist (404).
   *
   * @throws ZarrStoreException if the server gives no HTML listing there
   */
  static Map<String, Boolean> entries(HttpStore store, String dir) {
    String what = "HTTP listing of '" + (dir.isEmpty() ? "/" : dir) + "'";
    HttpResponse<byte[]> r =
        store.send("GET", dir, null, what, st -> HttpBody.Cap.whole(HttpStore.MAX_LISTING_BYTES));
    Map<String, Boolean> out = new TreeMap<>();
    if (r.statusCode() == 404 || r.statusCode() == 410) {
      return out;
    }
    String type = r.headers().firstValue("Content-Type").orElse("").toLowerCase(Locale.ROOT);
    if (r.statusCode() / 100 != 2 || !type.contains("html")) {
      throw new ZarrStoreException(
          what
              + " at "
              + Stores.redact(r.uri().toString())
              + ": the server gives no HTML directory listing there (HTTP "
              + r.statusCode()
              + (type.isEmpty() ? "" : ", " + type)
              + "), so the keys cannot be listed; arrays"
              + " opened by path need no listing (open them, not their group)",
          new IOException("no directory listing"));
    }
    Matcher m = HREF.matcher(new String(r.body(), StandardCharsets.UTF_8));
    while (m.find()) {
      String href = m.group(1) != null ? m.group(1) : m.group(2);
      int cut = indexOfAny(href, '?', '#');
      if (cut >= 0) {
        href = href.substring(0, cut);
      }
      if (href.isEmpty()
          || href.startsWith("/")
          || href.startsWith(".")
              && (href.equals(".")
                  || href.equals("..")
                  || href.startsWith("./")
                  || href.startsWith("../"))
          || href.contains(":")) {
        continue; // a parent, absolute, sorting or other-site link
      }
      boolean isDir = href.endsWith("/");
      String name = decode(isDir ? href.substring(0, href.length() - 1) : href);
      if (name == null || name.isEmpty() || name.contains("/") || name.contains("\\")) {
        continue;
      }
      out.merge(name, isDir, Boolean::logicalOr);
    }
    return out;
  }

  /** Appends every key below a directory ("" or ending with '/'). */
  static void walk(HttpStore store, String dir, List<String> out) {
    for (Map.Entry<String, Boolean> e : entries(store, dir).entrySet()) {
      if (e.getValue()) {
        walk(store, dir + e.getKey() + "/", out);
      } else {
        out.add(dir + e.getKey());
      }
    }
  }

  private static int indexOfAny(String s, char a, char b) {
    int i = s.indexOf(a);
    int j = s.indexOf(b);
    return i < 0 ? j : j < 0 ? i : Math.min(i, j);
  }

  /** Percent-decodes a link ('+' stays '+'); null if malformed. */
  static String decode(String s) {
    if (s.indexOf('%') < 0) {
      return s.replace("&amp;", "&");
    }
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    byte[] in = s.replace("&amp;", "&").getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < in.length; i++) {
      if (in[i] == '%') {
        if (i + 2 >= in.length) {
          return null;
        }
        int hi = Character.digit(in[i + 1], 16);
        int lo = Character.digit(in[i + 2], 16);
        if (hi < 0 || lo < 0) {
          return null;
        }
        b.write(hi * 16 + lo);
        i += 2;
      } else {
        b.write(in[i]);
      }
    }
    return b.toString(StandardCharsets.UTF_8);
  }
}
