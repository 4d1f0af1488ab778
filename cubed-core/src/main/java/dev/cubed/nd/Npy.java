package dev.cubed.nd;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Reads and writes NumPy's {@code .npy} format (versions 1.0, 2.0 and 3.0; every Array API dtype in
 * either byte order; C or Fortran order) and {@code .npz} archives (stored or deflated).
 */
public final class Npy {
  private Npy() {}

  private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
  private static final Pattern DESCR = Pattern.compile("'descr'\\s*:\\s*'([^']*)'");
  private static final Pattern FORTRAN = Pattern.compile("'fortran_order'\\s*:\\s*(True|False)");
  private static final Pattern SHAPE = Pattern.compile("'shape'\\s*:\\s*\\(([^)]*)\\)");

  /** Reads one {@code .npy} file. */
  public static NDArray read(Path path) {
    try (InputStream in = Files.newInputStream(path)) {
      return read(in, path.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("npy: cannot read " + path, e);
    }
  }

  /** Reads one array in {@code .npy} format from a stream; {@code name} is used in errors. */
  public static NDArray read(InputStream in, String name) throws IOException {
    byte[] magic = in.readNBytes(8);
    if (magic.length < 8) {
      throw new IllegalArgumentException("npy: " + name + " is truncated: no header");
    }
    for (int i = 0; i < MAGIC.length; i++) {
      if (magic[i] != MAGIC[i]) {
        throw new IllegalArgumentException("npy: " + name + " is not a .npy file (bad magic)");
      }
    }
    int major = magic[6];
    int headerLen;
    if (major == 1) {
      byte[] l = in.readNBytes(2);
      headerLen = (l[0] & 0xFF) | (l[1] & 0xFF) << 8;
    } else if (major == 2 || major == 3) {
      byte[] l = in.readNBytes(4);
      headerLen = (l[0] & 0xFF) | (l[1] & 0xFF) << 8 | (l[2] & 0xFF) << 16 | (l[3] & 0xFF) << 24;
    } else {
      throw new IllegalArgumentException("npy: " + name + " has unsupported version " + major);
    }
    if (headerLen < 0 || headerLen > 1 << 20) {
      throw new IllegalArgumentException(
          "npy: " + name + " declares an absurd header length " + headerLen);
    }
    String header =
        new String(
            in.readNBytes(headerLen),
            major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
    Matcher d = DESCR.matcher(header);
    Matcher f = FORTRAN.matcher(header);
    Matcher s = SHAPE.matcher(header);
    if (!d.find() || !f.find() || !s.find()) {
      throw new IllegalArgumentException("npy: " + name + " has an unreadable header: " + header);
    }
    String descr = d.group(1);
    DType dtype = DType.fromTypeString(descr);
    ByteOrder order =
        DType.isBigEndianTypeString(descr) ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    boolean fortran = f.group(1).equals("True");
    String dims = s.group(1).trim();
    long[] shape;
    if (dims.isEmpty()) {
      shape = new long[0];
    } else {
      String[] parts = dims.split(",");
      int n = 0;
      for (String p : parts) {
        if (!p.isBlank()) {
          n++;
        }
      }
      shape = new long[n];
      int k = 0;
      for (String p : parts) {
        if (!p.isBlank()) {
          shape[k++] = Long.parseLong(p.trim());
        }
      }
    }
    long nbytes = Shapes.size(shape) * dtype.itemSize();
    if (nbytes > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "npy: " + name + " holds " + nbytes + " bytes, more than one in-memory array can");
    }
    byte[] body = in.readNBytes((int) nbytes);
    if (body.length != nbytes) {
      throw new IllegalArgumentException(
          "npy: " + name + " is truncated: expected " + nbytes + " data bytes, got " + body.length);
    }
    if (!fortran) {
      return NDArray.fromBytes(dtype, shape, body, order);
    }
    long[] rev = new long[shape.length];
    int[] axes = new int[shape.length];
    for (int i = 0; i < shape.length; i++) {
      rev[i] = shape[shape.length - 1 - i];
      axes[i] = shape.length - 1 - i;
    }
    return NDArray.fromBytes(dtype, rev, body, order).permuteDims(axes);
  }

  /** Writes an array as a {@code .npy} (version 1.0, little-endian, C order) file. */
  public static void write(Path path, NDArray array) {
    try (OutputStream out = Files.newOutputStream(path)) {
      write(out, array);
    } catch (IOException e) {
      throw new UncheckedIOException("npy: cannot write " + path, e);
    }
  }

  /** Writes an array in {@code .npy} format (version 1.0, little-endian, C order). */
  public static void write(OutputStream out, NDArray array) throws IOException {
    long[] shape = array.shape();
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < shape.length; i++) {
      sb.append(shape[i]).append(shape.length == 1 ? "," : (i < shape.length - 1 ? ", " : ""));
    }
    sb.append(')');
    String header =
        "{'descr': '"
            + array.dtype().typeString(false)
            + "', 'fortran_order': False, 'shape': "
            + sb
            + ", }";
    int total = MAGIC.length + 2 + 2 + header.length() + 1;
    int pad = (64 - total % 64) % 64;
    header = header + " ".repeat(pad) + "\n";
    out.write(MAGIC);
    out.write(1);
    out.write(0);
    int len = header.length();
    out.write(len & 0xFF);
    out.write((len >> 8) & 0xFF);
    out.write(header.getBytes(StandardCharsets.ISO_8859_1));
    out.write(array.toBytes(ByteOrder.LITTLE_ENDIAN));
  }

  /** Bytes of an array in {@code .npy} format. */
  public static byte[] toBytes(NDArray array) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try {
      write(b, array);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return b.toByteArray();
  }

  /**
   * Reads every array of an {@code .npz} archive, keyed by name without the {@code .npy} suffix.
   */
  public static Map<String, NDArray> readNpz(Path path) {
    try (InputStream in = Files.newInputStream(path)) {
      return readNpz(in, path.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("npz: cannot read " + path, e);
    }
  }

  /** Reads every array of an {@code .npz} archive from a stream. */
  public static Map<String, NDArray> readNpz(InputStream in, String name) throws IOException {
    Map<String, NDArray> out = new LinkedHashMap<>();
    try (ZipInputStream zin = new ZipInputStream(in)) {
      ZipEntry e;
      while ((e = zin.getNextEntry()) != null) {
        String key = e.getName();
        if (key.endsWith(".npy")) {
          key = key.substring(0, key.length() - 4);
        }
        out.put(key, read(zin, name + ":" + e.getName()));
      }
    }
    return out;
  }
}
