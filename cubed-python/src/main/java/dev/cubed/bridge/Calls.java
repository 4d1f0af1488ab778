package dev.cubed.bridge;

import dev.cubed.CubedArray;
import dev.cubed.Spec;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * What a CALL message may name: the bridge's own functions and the public static methods of the
 * public facades ({@link FacadeMethods}: {@code "Xp.add"}, {@code "XpLinalg.qr"}). The bridge's own
 * are registered here by topic: the session's handles and spec ({@link SessionCalls}), arrays made
 * from Python's data ({@link ArrayCalls}), computes ({@link ComputeCalls}), Zarr ({@link
 * ZarrCalls}), and {@code functions}, which lists the whole table for the test that the Python
 * package names only functions that exist here (python/tests/test_bridge_names.py). Nothing else is
 * reachable.
 */
final class Calls {
  /** A bridge function over decoded arguments. */
  interface Fn {
    Object apply(Session s, List<Object> args) throws Exception;
  }

  /** The live state of one bridge process: its handle table and spec. */
  static final class Session {
    final Map<Long, CubedArray> handles = new HashMap<>();
    long nextId = 1;
    Spec spec = Spec.fromEnv();

    /** Where large results cross (set by {@link BridgeMain}; none by default). */
    SharedMemory shm = new SharedMemory(null, Long.MAX_VALUE);

    /**
     * Sends an event frame to the client while a call runs (set by {@link BridgeMain}); may be
     * called from any thread.
     */
    Consumer<Object> events =
        e -> {
          throw new IllegalStateException("this session sends no events");
        };

    CubedArray get(Object arg, String fn) {
      if (arg instanceof Wire.Handle h) {
        CubedArray x = handles.get(h.id());
        if (x == null) {
          throw new IllegalArgumentException(
              fn + ": no array with handle " + h.id() + " (freed, or from another bridge process)");
        }
        return x;
      }
      throw new IllegalArgumentException(fn + ": expected an array handle, got " + describe(arg));
    }

    long put(CubedArray x) {
      long id = nextId++;
      handles.put(id, x);
      return id;
    }
  }

  private static final Map<String, Fn> OWN = new HashMap<>();

  static {
    SessionCalls.register(OWN);
    ArrayCalls.register(OWN);
    ComputeCalls.register(OWN);
    ZarrCalls.register(OWN);
    // functions(): [name, parameter count, varargs] for every facade method (one entry per
    // overload), then [name, -1, true] for each of the bridge's own functions (any count)
    OWN.put(
        "functions",
        (s, a) -> {
          List<Object> out = new ArrayList<>();
          FacadeMethods.all()
              .forEach(
                  (name, ms) -> {
                    for (Method m : ms) {
                      out.add(List.of(name, (long) m.getParameterCount(), m.isVarArgs()));
                    }
                  });
          for (String name : new TreeSet<>(OWN.keySet())) {
            out.add(List.of(name, -1L, true));
          }
          return out;
        });
  }

  private Calls() {}

  static Object call(Session s, String name, List<Object> args) throws Throwable {
    Fn own = OWN.get(name);
    if (own != null) {
      return own.apply(s, args);
    }
    List<Method> ms = FacadeMethods.named(name);
    if (ms != null) {
      return FacadeMethods.invoke(s, name, ms, args);
    }
    throw new UnsupportedOperationException(
        "no bridge function '"
            + name
            + "': the bridge"
            + " offers "
            + new TreeSet<>(OWN.keySet())
            + " and Xp.<method>,"
            + " XpLinalg.<method>, XpFft.<method>, XpIndexing.<method> for the public static methods"
            + " of those classes of dev.cubed");
  }

  static Object arg(List<Object> a, int i, Class<?> type, String fn) {
    if (i >= a.size() || (a.get(i) != null && !type.isInstance(a.get(i)))) {
      throw new IllegalArgumentException(
          fn
              + ": argument "
              + i
              + " must be "
              + type.getSimpleName()
              + ", got "
              + (i < a.size() ? describe(a.get(i)) : "nothing"));
    }
    return a.get(i);
  }

  static String describe(Object v) {
    return v == null ? "None" : v.getClass().getSimpleName() + " " + v;
  }

  static long[][] blockSizes(List<?> l, String fn) {
    long[][] out = new long[l.size()][];
    for (int i = 0; i < out.length; i++) {
      if (!(l.get(i) instanceof long[] b)) {
        throw new IllegalArgumentException(fn + ": block sizes must be lists of ints");
      }
      out[i] = b;
    }
    return out;
  }
}
