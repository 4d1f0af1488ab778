package dev.cubed.bridge;

import static dev.cubed.bridge.Calls.blockSizes;

import dev.cubed.CubedArray;
import dev.cubed.Spec;
import dev.cubed.Xp;
import dev.cubed.XpFft;
import dev.cubed.XpGroupby;
import dev.cubed.XpIndexing;
import dev.cubed.XpLinalg;
import dev.cubed.XpWindow;
import dev.cubed.nd.Axes;
import dev.cubed.nd.Complex;
import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.NDArray;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The public static methods of the public facades {@link Xp}, {@link XpLinalg}, {@link XpFft},
 * {@link XpIndexing}, {@link XpGroupby} and {@link XpWindow} as bridge functions ({@code "Xp.add"},
 * {@code "XpLinalg.qr"}), chosen among overloads by the argument tags. The facades extend nothing
 * and declare every method they offer, so the table is their declared public methods, called as any
 * class outside {@code dev.cubed} calls them (no {@code setAccessible}). A result that is a record
 * ({@code XpLinalg.Qr}, {@code Uniques.All}, ...) is returned as the list of its components, in
 * declaration order.
 */
final class FacadeMethods {
  private FacadeMethods() {}

  /** "Xp.add", "XpLinalg.qr", ...: the public static methods the facades declare. */
  private static final Map<String, List<Method>> XP = new HashMap<>();

  /** The only classes whose methods a CALL may name (an explicit list, never a lookup by name). */
  private static final List<Class<?>> API =
      List.of(
          Xp.class, XpLinalg.class, XpFft.class, XpIndexing.class, XpGroupby.class, XpWindow.class);

  static {
    for (Class<?> c : API) {
      for (Method m : c.getDeclaredMethods()) {
        if (Modifier.isStatic(m.getModifiers()) && Modifier.isPublic(m.getModifiers())) {
          XP.computeIfAbsent(c.getSimpleName() + "." + m.getName(), k -> new ArrayList<>()).add(m);
        }
      }
    }
  }

  /** The methods of a name ({@code "Xp.add"}: one per overload), or null if none has it. */
  static List<Method> named(String name) {
    return XP.get(name);
  }

  /** Every name with its methods, by name. */
  static Map<String, List<Method>> all() {
    return new TreeMap<>(XP);
  }

  /** Calls the best overload of {@code ms} for the arguments; a record result as its components. */
  static Object invoke(Calls.Session s, String name, List<Method> ms, List<Object> args)
      throws Throwable {
    return unpackRecord(invokeBest(s, name, ms, args));
  }

  /** A record result (Qr, Svd, Eigh, ...) as the list of its components; other values as is. */
  private static Object unpackRecord(Object v) throws ReflectiveOperationException {
    if (v == null || !v.getClass().isRecord()) {
      return v;
    }
    RecordComponent[] rc = v.getClass().getRecordComponents();
    List<Object> out = new ArrayList<>(rc.length);
    for (RecordComponent c : rc) {
      Method acc = c.getAccessor();
      acc.setAccessible(true);
      out.add(acc.invoke(v));
    }
    return out;
  }

  private static Object invokeBest(Calls.Session s, String name, List<Method> ms, List<Object> args)
      throws Throwable {
    Method best = null;
    int bestScore = -1;
    for (Method m : ms) {
      Class<?>[] ps = m.getParameterTypes();
      if (ps.length != args.size()) {
        continue;
      }
      int score = 0;
      for (int i = 0; i < ps.length && score >= 0; i++) {
        int sc = score(ps[i], args.get(i));
        score = sc < 0 ? -1 : score + sc;
      }
      if (score > bestScore) {
        bestScore = score;
        best = m;
      }
    }
    if (best == null) {
      List<String> sigs = new ArrayList<>();
      for (Method m : ms) {
        sigs.add(
            m.getName()
                + Arrays.toString(m.getParameterTypes())
                    .replace("class ", "")
                    .replace("dev.cubed.", ""));
      }
      List<String> got = new ArrayList<>();
      for (Object a : args) {
        got.add(a == null ? "None" : a.getClass().getSimpleName());
      }
      throw new IllegalArgumentException(
          name + ": no overload takes " + got + "; overloads: " + sigs);
    }
    Class<?>[] ps = best.getParameterTypes();
    Object[] conv = new Object[ps.length];
    for (int i = 0; i < ps.length; i++) {
      conv[i] = convert(s, name, ps[i], args.get(i));
    }
    try {
      return best.invoke(null, conv);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /** How well a wire value fits a parameter type: -1 not at all, higher is better. */
  private static int score(Class<?> p, Object v) {
    if (v == null) {
      return p.isPrimitive() ? -1 : 1;
    }
    if (v instanceof Wire.Handle) {
      return p == CubedArray.class ? 3 : p == Object.class ? 1 : -1;
    }
    if (v instanceof Long) {
      return p == long.class || p == int.class || p == Integer.class || p == Long.class
          ? 3
          : p == double.class ? 2 : p == Object.class ? 2 : -1;
    }
    if (v instanceof Double) {
      return p == double.class ? 3 : p == Object.class ? 2 : -1;
    }
    if (v instanceof Boolean) {
      return p == boolean.class ? 3 : p == Object.class ? 2 : -1;
    }
    if (v instanceof Complex) {
      return p == Object.class ? 2 : -1;
    }
    if (v instanceof DType) {
      return p == DType.class ? 3 : p == Object.class ? 1 : -1;
    }
    if (v instanceof String) {
      return p == String.class || p.isEnum() ? 3 : p == DType.class ? 2 : -1;
    }
    if (v instanceof long[]) {
      return p == long[].class || p == int[].class ? 3 : p == Axes.class ? 2 : -1;
    }
    if (v instanceof NDArray) {
      return p == NDArray.class ? 3 : -1;
    }
    if (v instanceof Index[]) {
      return p == Index[].class ? 3 : -1;
    }
    if (v == Wire.SessionSpec.INSTANCE) {
      return p == Spec.class ? 3 : -1;
    }
    if (v instanceof List<?> l) {
      if (p == NDArray[].class) {
        return l.stream().allMatch(e -> e instanceof NDArray) ? 3 : -1;
      }
      if (p == List.class || p == CubedArray[].class) {
        return l.stream().allMatch(e -> e instanceof Wire.Handle) ? 3 : -1;
      }
      if (p == long[][].class) {
        return l.stream().allMatch(e -> e instanceof long[]) ? 3 : -1;
      }
      if (p == Object[].class) {
        return 2;
      }
    }
    return -1;
  }

  private static Object convert(Calls.Session s, String fn, Class<?> p, Object v) {
    if (v == null) {
      return null;
    }
    if (v instanceof Wire.Handle) {
      return s.get(v, fn);
    }
    if (v == Wire.SessionSpec.INSTANCE) {
      return s.spec;
    }
    if (p == int.class || p == Integer.class) {
      return Math.toIntExact((Long) v);
    }
    if (p == double.class && v instanceof Long l) {
      return l.doubleValue();
    }
    if (p == int[].class) {
      long[] l = (long[]) v;
      int[] out = new int[l.length];
      for (int i = 0; i < l.length; i++) {
        out[i] = Math.toIntExact(l[i]);
      }
      return out;
    }
    if (p == Axes.class) {
      return Axes.of((int[]) convert(s, fn, int[].class, v));
    }
    if (p == DType.class && v instanceof String str) {
      return Wire.dtype(str);
    }
    if (p.isEnum() && v instanceof String str) {
      for (Object c : p.getEnumConstants()) {
        if (((Enum<?>) c).name().equalsIgnoreCase(str)) {
          return c;
        }
      }
      throw new IllegalArgumentException(
          fn + ": '" + str + "' is not one of " + Arrays.toString(p.getEnumConstants()));
    }
    if (v instanceof List<?> l) {
      if (p == NDArray[].class) {
        return l.toArray(new NDArray[0]);
      }
      if (p == List.class) {
        List<CubedArray> xs = new ArrayList<>();
        for (Object e : l) {
          xs.add(s.get(e, fn));
        }
        return xs;
      }
      if (p == CubedArray[].class) {
        CubedArray[] xs = new CubedArray[l.size()];
        for (int i = 0; i < xs.length; i++) {
          xs[i] = s.get(l.get(i), fn);
        }
        return xs;
      }
      if (p == long[][].class) {
        return blockSizes(l, fn);
      }
      if (p == Object[].class) {
        Object[] xs = new Object[l.size()];
        for (int i = 0; i < xs.length; i++) {
          Object e = l.get(i);
          xs[i] = e instanceof Wire.Handle ? s.get(e, fn) : e;
        }
        return xs;
      }
    }
    return v;
  }
}
