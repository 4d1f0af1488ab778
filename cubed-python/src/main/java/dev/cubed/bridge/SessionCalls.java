package dev.cubed.bridge;

import static dev.cubed.bridge.Calls.arg;

import dev.cubed.Spec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The bridge's functions on the session itself: its handle table ({@code free}, {@code handles},
 * {@code info}), its spec ({@code settings}, {@code configure}) and {@code echo}.
 */
final class SessionCalls {
  private SessionCalls() {}

  static void register(Map<String, Calls.Fn> own) {
    own.put(
        "free",
        (s, a) -> {
          for (long id : (long[]) arg(a, 0, long[].class, "free")) {
            s.handles.remove(id);
          }
          return null;
        });
    // echo(value): returns its argument (measures the pipe and the encoding alone)
    own.put("echo", (s, a) -> a.isEmpty() ? null : a.get(0));
    own.put("handles", (s, a) -> (long) s.handles.size());
    own.put("info", (s, a) -> s.get(arg(a, 0, Object.class, "info"), "info"));
    // reads them back)
    own.put(
        "settings",
        (s, a) -> {
          List<Object> out = new ArrayList<>();
          s.spec.settings().forEach((k, v) -> out.add(Arrays.asList(k, v)));
          return out;
        });
    own.put(
        "configure",
        (s, a) -> {
          // configure(key, value, ...): rebuilds the session spec (arrays made before keep theirs)
          Spec.Builder b = s.spec.toBuilder();
          for (int i = 0; i + 1 < a.size(); i += 2) {
            String k = (String) a.get(i);
            b.set(k, String.valueOf(a.get(i + 1)));
          }
          s.spec = b.build();
          return s.spec.toString();
        });
  }
}
