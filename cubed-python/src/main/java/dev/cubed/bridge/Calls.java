package dev.cubed.bridge;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cubed.ComputeOptions;
import dev.cubed.Cubed;
import dev.cubed.CubedArray;
import dev.cubed.PlanFigures;
import dev.cubed.Spec;
import dev.cubed.Xp;
import dev.cubed.XpFft;
import dev.cubed.XpGroupby;
import dev.cubed.XpIndexing;
import dev.cubed.XpLinalg;
import dev.cubed.XpWindow;
import dev.cubed.diagnostics.Diagnostics;
import dev.cubed.nd.Axes;
import dev.cubed.nd.Complex;
import dev.cubed.nd.DType;
import dev.cubed.nd.Index;
import dev.cubed.nd.NDArray;
import dev.cubed.plan.ResultBuffers;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.ZarrArrayBuilder;
import dev.cubed.zarr.ZarrGroup;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.Stores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * What a CALL message may name: the bridge's own functions (handles, compute, Zarr, spec, {@code
 * functions}) and the public static methods of the public facades {@link Xp}, {@link XpLinalg},
 * {@link XpFft} and {@link XpIndexing} ({@code "Xp.add"}, {@code "XpLinalg.qr"}), chosen among
 * overloads by the argument tags. The facades extend nothing and declare every method they offer,
 * so the table is their declared public methods, called as any class outside {@code dev.cubed}
 * calls them (no {@code setAccessible}). Nothing else is reachable. A result that is a record
 * ({@code XpLinalg.Qr}, {@code Uniques.All}, ...) is returned as the list of its components, in
 * declaration order. {@code functions()} lists the table, for the test that the Python package
 * names only functions that exist here (python/tests/test_bridge_names.py).
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

  /**
   * Computes {@code xs} with the results the run writes straight into memory going into result
   * files made before it runs (one copy, task to file; see {@link SharedMemory#create}); returns
   * per array its {@link SharedMemory.Mapped} file or its array.
   */
  static List<Object> computeShared(SharedMemory shm, ComputeOptions options, CubedArray[] xs) {
    SharedMemory.Mapped[] files = new SharedMemory.Mapped[xs.length];
    try {
      ResultBuffers into =
          new ResultBuffers() {
            @Override
            public ByteBuffer buffer(int i, DType dtype, long[] shape) {
              try {
                files[i] = shm.create(dtype, shape);
              } catch (IOException e) {
                throw new UncheckedIOException("making a shared result file: " + e, e);
              }
              return files[i] == null ? null : files[i].buffer();
            }

            @Override
            public FileChannel channel(int i) {
              return files[i] == null ? null : files[i].channel();
            }
          };
      List<NDArray> rs = Cubed.computeInto(into, options, xs);
      List<Object> out = new ArrayList<>();
      for (int i = 0; i < xs.length; i++) {
        out.add(rs.get(i) != null ? rs.get(i) : files[i]);
      }
      return out;
    } finally {
      for (SharedMemory.Mapped m : files) {
        SharedMemory.release(m);
      }
    }
  }

  /** Attributes cross the pipe as JSON text (writeDataset, zarrAttrs). */
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final Map<String, Fn> OWN = new HashMap<>();

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
    // functions(): [name, parameter count, varargs] for every facade method (one entry per
    // overload), then [name, -1, true] for each of the bridge's own functions (any count)
    OWN.put(
        "functions",
        (s, a) -> {
          List<Object> out = new ArrayList<>();
          new TreeMap<>(XP)
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
    OWN.put(
        "free",
        (s, a) -> {
          for (long id : (long[]) arg(a, 0, long[].class, "free")) {
            s.handles.remove(id);
          }
          return null;
        });
    // echo(value): returns its argument (measures the pipe and the encoding alone)
    OWN.put("echo", (s, a) -> a.isEmpty() ? null : a.get(0));
    // timeCompute(handle, n): n computes inside the JVM; [min, median] nanoseconds (the engine's
    // own cost of a compute, to set beside a round trip from Python)
    OWN.put(
        "timeCompute",
        (s, a) -> {
          CubedArray x = s.get(a.get(0), "timeCompute");
          long[] ts = new long[Math.toIntExact((Long) arg(a, 1, Long.class, "timeCompute"))];
          for (int i = 0; i < ts.length; i++) {
            long t0 = System.nanoTime();
            x.compute();
            ts[i] = System.nanoTime() - t0;
          }
          Arrays.sort(ts);
          return List.of(ts[0], ts[ts.length / 2]);
        });
    OWN.put("handles", (s, a) -> (long) s.handles.size());
    OWN.put("info", (s, a) -> s.get(arg(a, 0, Object.class, "info"), "info"));
    OWN.put(
        "compute",
        (s, a) -> {
          List<?> hs = (List<?>) arg(a, 0, List.class, "compute");
          CubedArray[] xs = new CubedArray[hs.size()];
          for (int i = 0; i < xs.length; i++) {
            xs[i] = s.get(hs.get(i), "compute");
          }
          return computeShared(s.shm, ComputeOptions.defaults(), xs);
        });
    OWN.put("computeWith", ComputeWith::apply);
    // persistInMemory(handles[, maxBytes]): computes them in one plan and returns in-memory
    // arrays of the results with the same chunks (held in this JVM, as Dask's persist keeps NumPy
    // blocks), or null without computing when their bytes together exceed maxBytes (default: a
    // quarter of the JVM's heap; the caller then persists to Zarr)
    OWN.put(
        "persistInMemory",
        (s, a) -> {
          List<?> hs = (List<?>) arg(a, 0, List.class, "persistInMemory");
          CubedArray[] xs = new CubedArray[hs.size()];
          long bytes = 0;
          for (int i = 0; i < xs.length; i++) {
            xs[i] = s.get(hs.get(i), "persistInMemory");
            long n = xs[i].dtype().itemSize();
            for (long d : xs[i].shape()) {
              n = d == 0 || n <= Long.MAX_VALUE / d ? n * d : Long.MAX_VALUE;
            }
            bytes = n > Long.MAX_VALUE - bytes ? Long.MAX_VALUE : bytes + n;
          }
          long max =
              a.size() > 1 && a.get(1) != null
                  ? (Long) arg(a, 1, Long.class, "persistInMemory")
                  : Runtime.getRuntime().maxMemory() / 4;
          if (bytes > max) {
            return null;
          }
          List<NDArray> rs = Cubed.compute(xs);
          List<CubedArray> out = new ArrayList<>();
          for (int i = 0; i < xs.length; i++) {
            out.add(Cubed.persisted(rs.get(i), xs[i]));
          }
          return out;
        });
    // planFigures(handles): [tasks, ops, largest projected task memory, intermediate bytes] of
    // the plan computing them together (Cubed.summary; nothing is computed)
    OWN.put(
        "planFigures",
        (s, a) -> {
          List<CubedArray> xs = new ArrayList<>();
          for (Object h : (List<?>) arg(a, 0, List.class, "planFigures")) {
            xs.add(s.get(h, "planFigures"));
          }
          PlanFigures f = Cubed.summary(xs);
          return List.of(f.tasks(), (long) f.ops(), f.maxProjectedMem(), f.intermediateBytes());
        });

    // pyBlockwise(...): a lazy op running a Python function in worker processes (PyBlockwise)
    OWN.put("pyBlockwise", PyBlockwise::apply);
    // serialize(handle): the array's plan as bytes (uint8), nothing computed (see PlanBytes)
    OWN.put(
        "serialize",
        (s, a) -> {
          byte[] b = PlanBytes.write(s.get(a.isEmpty() ? null : a.get(0), "serialize"));
          return new NDArray(DType.UINT8, new long[] {b.length}, b);
        });
    // deserialize(uint8 array): a new handle for the array serialize wrote (any bridge process)
    OWN.put(
        "deserialize",
        (s, a) -> {
          NDArray b = (NDArray) arg(a, 0, NDArray.class, "deserialize");
          if (b == null || b.dtype() != DType.UINT8 || b.ndim() != 1) {
            throw new IllegalArgumentException(
                "deserialize: expected a 1-D uint8 array of bytes," + " got " + describe(b));
          }
          return PlanBytes.read((byte[]) b.data());
        });
    OWN.put(
        "fromArray",
        (s, a) -> {
          NDArray x = (NDArray) arg(a, 0, NDArray.class, "fromArray");
          Object chunks = a.size() > 1 ? a.get(1) : null;
          if (chunks instanceof List<?> l) {
            return Cubed.fromArray(x, blockSizes(l, "fromArray"), s.spec);
          }
          return Cubed.fromArray(x, (long[]) chunks, s.spec);
        });
    // random(shape, blockSizes, seed): uniform [0, 1) float64 (Cubed.random), nothing computed
    OWN.put(
        "random",
        (s, a) ->
            Cubed.random(
                (long[]) arg(a, 0, long[].class, "random"),
                (long[]) arg(a, 1, long[].class, "random"),
                (Long) arg(a, 2, Long.class, "random"),
                s.spec));
    // visualize(handles, path): the plan computing them together as a picture (SVG by Graphviz
    // when the path ends in .svg and dot is installed, else its DOT text), nothing computed;
    // [file written, whether it is an SVG, why not (or None)]
    OWN.put(
        "visualize",
        (s, a) -> {
          List<?> hs = (List<?>) arg(a, 0, List.class, "visualize");
          List<CubedArray> xs = new ArrayList<>();
          for (Object h : hs) {
            xs.add(s.get(h, "visualize"));
          }
          var r =
              Diagnostics.visualize(
                  Cubed.plan(xs), Path.of((String) arg(a, 1, String.class, "visualize")));
          return Arrays.asList(r.file().toString(), r.svg(), r.note());
        });
    OWN.put(
        "fromZarr", (s, a) -> Cubed.fromZarr((String) arg(a, 0, String.class, "fromZarr"), s.spec));
    OWN.put(
        "toZarr",
        (s, a) -> {
          CubedArray x = s.get(a.get(0), "toZarr");
          String path = (String) arg(a, 1, String.class, "toZarr");
          boolean overwrite = a.size() > 2 && Boolean.TRUE.equals(a.get(2));
          Cubed.toZarr(x, Stores.open(path), "", overwrite);
          return null;
        });
    OWN.put(
        "writeDataset",
        (s, a) -> {
          // writeDataset(group, [names], [handles], [[dims]], overwrite[, [attrs JSON per array],
          // group attrs JSON]): a Zarr v3 group with one array per variable (dimension_names set,
          // as xarray reads them; user attributes from JSON objects), written in one plan
          String group = (String) arg(a, 0, String.class, "writeDataset");
          List<?> names = (List<?>) arg(a, 1, List.class, "writeDataset");
          List<?> hs = (List<?>) arg(a, 2, List.class, "writeDataset");
          List<?> dims = (List<?>) arg(a, 3, List.class, "writeDataset");
          boolean overwrite = a.size() > 4 && Boolean.TRUE.equals(a.get(4));
          List<?> attrs = a.size() > 5 ? (List<?>) arg(a, 5, List.class, "writeDataset") : null;
          Map<String, Object> groupAttrs =
              a.size() > 6
                  ? jsonObject((String) arg(a, 6, String.class, "writeDataset"), "writeDataset")
                  : Map.of();
          Store store = Stores.open(group);
          ZarrGroup.create(store, "", 3, groupAttrs);
          CubedArray[] ws = new CubedArray[hs.size()];
          for (int i = 0; i < ws.length; i++) {
            CubedArray x = s.get(hs.get(i), "writeDataset");
            ZarrArrayBuilder b =
                ZarrArray.create(store, (String) names.get(i))
                    .shape(x.shape())
                    .chunks(x.chunkShape())
                    .dtype(x.dtype())
                    .dimensionNames(((List<?>) dims.get(i)).toArray(new String[0]));
            if (attrs != null && attrs.get(i) != null) {
              b.attributes(jsonObject((String) attrs.get(i), "writeDataset"));
            }
            if (x.spec().checksum()) {
              b.crc32c();
            }
            if (overwrite) {
              b.overwrite();
            }
            ws[i] = Cubed.store(x, b.buildDeferred());
          }
          Cubed.compute(ws);
          return null;
        });
    OWN.put(
        "zarrMembers",
        (s, a) -> {
          // [name, kind, name, kind, ...] of a Zarr group
          ZarrGroup g = ZarrGroup.open((String) arg(a, 0, String.class, "zarrMembers"));
          List<Object> out = new ArrayList<>();
          g.members()
              .forEach(
                  (k, v) -> {
                    out.add(k);
                    out.add(v.name().toLowerCase(Locale.ROOT));
                  });
          return out;
        });
    // zarrAttrs(path): the user attributes of a Zarr array or group, as a JSON object
    OWN.put(
        "zarrAttrs",
        (s, a) -> {
          String path = (String) arg(a, 0, String.class, "zarrAttrs");
          Map<String, Object> m;
          try {
            m = ZarrArray.open(path).attributes();
          } catch (RuntimeException notAnArray) {
            m = ZarrGroup.open(path).attributes();
          }
          return JSON.writeValueAsString(m);
        });
    OWN.put(
        "zarrDims",
        (s, a) -> {
          // dimension names of a Zarr array (v3 dimension_names or v2 _ARRAY_DIMENSIONS), or null
          ZarrArray z = ZarrArray.open((String) arg(a, 0, String.class, "zarrDims"));
          Object dims = z.dimensionNames();
          return dims != null ? dims : z.attributes().get("_ARRAY_DIMENSIONS");
        });
    OWN.put(
        "zarrCreate",
        (s, a) -> {
          // zarrCreate(path, shape, chunks, dtype): an empty array map_blocks writes block by block
          String path = (String) arg(a, 0, String.class, "zarrCreate");
          ZarrArray.create(Stores.open(path), "")
              .shape((long[]) a.get(1))
              .chunks((long[]) a.get(2))
              .dtype((DType) a.get(3))
              .overwrite()
              .build();
          return null;
        });
    // storeRegion(handle, target path, origin): a lazy write into a box of an existing Zarr array
    OWN.put("storeRegion", StoreRegion::apply);
    OWN.put(
        "zarrRead",
        (s, a) -> {
          // zarrRead(path, start, shape): the box [start, start + shape) of a Zarr array (no plan)
          ZarrArray z = ZarrArray.open((String) arg(a, 0, String.class, "zarrRead"));
          return z.read(
              (long[]) arg(a, 1, long[].class, "zarrRead"),
              (long[]) arg(a, 2, long[].class, "zarrRead"));
        });
    OWN.put(
        "zarrWrite",
        (s, a) -> {
          // zarrWrite(path, start, data): writes a region (the block of map_blocks)
          ZarrArray z = ZarrArray.open((String) arg(a, 0, String.class, "zarrWrite"));
          z.write((long[]) a.get(1), (NDArray) a.get(2));
          return null;
        });
    // settings(): the session spec's every setting as [name, value] pairs (values as configure
    // reads them back)
    OWN.put(
        "settings",
        (s, a) -> {
          List<Object> out = new ArrayList<>();
          s.spec.settings().forEach((k, v) -> out.add(Arrays.asList(k, v)));
          return out;
        });
    OWN.put(
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

  private Calls() {}

  /** A JSON object given as text (attributes), or an IllegalArgumentException naming fn. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> jsonObject(String text, String fn) {
    try {
      Object v = JSON.readValue(text, Object.class);
      if (v instanceof Map<?, ?> m) {
        return (Map<String, Object>) m;
      }
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          fn + ": attributes are not JSON: " + e.getOriginalMessage());
    }
    throw new IllegalArgumentException(fn + ": attributes must be a JSON object, got " + text);
  }

  static Object call(Session s, String name, List<Object> args) throws Throwable {
    Fn own = OWN.get(name);
    if (own != null) {
      return own.apply(s, args);
    }
    List<Method> ms = XP.get(name);
    if (ms != null) {
      return unpackRecord(invokeBest(s, name, ms, args));
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

  private static Object arg(List<Object> a, int i, Class<?> type, String fn) {
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

  private static long[][] blockSizes(List<?> l, String fn) {
    long[][] out = new long[l.size()][];
    for (int i = 0; i < out.length; i++) {
      if (!(l.get(i) instanceof long[] b)) {
        throw new IllegalArgumentException(fn + ": block sizes must be lists of ints");
      }
      out[i] = b;
    }
    return out;
  }

  private static Object invokeBest(Session s, String name, List<Method> ms, List<Object> args)
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

  private static Object convert(Session s, String fn, Class<?> p, Object v) {
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
