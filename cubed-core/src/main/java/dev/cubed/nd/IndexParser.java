package dev.cubed.nd;

import java.util.ArrayList;
import java.util.List;

/** Parses NumPy's basic-index syntax ({@link Index#parse}). */
final class IndexParser {
  private IndexParser() {}

  static Index[] parse(String text) {
    if (text == null) {
      throw new IllegalArgumentException("Index.parse: the index text is null");
    }
    String body = text.strip();
    if (body.startsWith("[") && body.endsWith("]")) {
      body = body.substring(1, body.length() - 1).strip();
    }
    if (body.isEmpty() || body.equals("()")) {
      return new Index[0];
    }
    String[] parts = body.split(",", -1);
    int n = parts.length;
    if (n > 1 && parts[n - 1].isBlank()) {
      n--; // a trailing comma, as in x[0,]
    }
    List<Index> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(part(parts[i].strip(), text));
    }
    return out.toArray(new Index[0]);
  }

  private static Index part(String p, String text) {
    if (p.isEmpty()) {
      throw bad(p, text, "an empty entry between commas");
    }
    if (p.equals("...") || p.equals("Ellipsis")) {
      return Index.ELLIPSIS;
    }
    if (p.equals("None") || p.equals("np.newaxis") || p.equals("newaxis")) {
      return Index.NEW_AXIS;
    }
    if (!p.contains(":")) {
      return Index.at(integer(p, p, text));
    }
    String[] s = p.split(":", -1);
    if (s.length > 3) {
      throw bad(p, text, "more than two ':' in one slice");
    }
    Long start = bound(s[0], p, text);
    Long stop = bound(s[1], p, text);
    Long step = s.length == 3 ? bound(s[2], p, text) : null;
    if (step != null && step == 0) {
      throw bad(p, text, "a slice step of zero");
    }
    return new Index.Slice(start, stop, step == null ? 1 : step);
  }

  private static Long bound(String s, String part, String text) {
    String t = s.strip();
    return t.isEmpty() || t.equals("None") ? null : integer(t, part, text);
  }

  private static long integer(String s, String part, String text) {
    try {
      return Long.parseLong(s.replace("_", ""));
    } catch (NumberFormatException e) {
      throw bad(
          part,
          text,
          "'"
              + s
              + "' is not an integer, a slice, None or ... (arrays and masks are not basic"
              + " indices: use Xp.take or XpIndexing)");
    }
  }

  private static IllegalArgumentException bad(String part, String text, String why) {
    return new IllegalArgumentException(
        "Index.parse(\"" + text + "\"): entry '" + part + "': " + why);
  }
}
