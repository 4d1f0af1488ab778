package dev.cubed.cli;

import dev.cubed.nd.Shapes;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.ZarrGroup;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.Stores;
import dev.cubed.zarr.store.ZarrFormatException;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ./cubed info PATH}: prints the metadata of a Zarr array (format, shape, chunks, dtype,
 * fill value, codecs, chunks written of total, attributes, dimension names) or group (attributes
 * and members). PATH is a directory, a {@code file://} or {@code memory://} URI, optionally
 * followed by {@code #node/path} to name a node inside the store.
 */
@Command(
    name = "info",
    mixinStandardHelpOptions = true,
    description = "Print the metadata of a Zarr array or group (v2 or v3).")
final class InfoCommand implements Callable<Integer> {

  @Parameters(
      index = "0",
      paramLabel = "PATH",
      description = "Zarr store directory or URI, optionally followed by #node/path")
  String location;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    String loc = location;
    String node = "";
    int hash = loc.indexOf('#');
    if (hash >= 0) {
      node = loc.substring(hash + 1);
      loc = loc.substring(0, hash);
    }
    Store store = Stores.open(loc);
    ZarrArray array = null;
    ZarrFormatException arrayError;
    try {
      array = ZarrArray.open(store, node);
      arrayError = null;
    } catch (ZarrFormatException e) {
      arrayError = e;
    }
    if (array != null) {
      printArray(out, array);
      out.flush();
      return 0;
    }
    ZarrGroup group;
    try {
      group = ZarrGroup.open(store, node);
    } catch (ZarrFormatException e) {
      if (arrayError.getMessage().contains("no zarr.json")) {
        throw new IllegalArgumentException(
            "no Zarr array or group at " + location + " (expected zarr.json, .zarray or .zgroup)");
      }
      throw arrayError;
    }
    printGroup(out, group);
    out.flush();
    return 0;
  }

  static void printArray(PrintWriter out, ZarrArray a) {
    out.println(
        "Zarr array"
            + (a.path().isEmpty() ? "" : " '" + a.path() + "'")
            + (a.isIncomplete() ? "  INCOMPLETE" : ""));
    if (a.isIncomplete()) {
      out.println("  INCOMPLETE:      " + a.attributes().get(ZarrArray.INCOMPLETE_ATTRIBUTE));
    }
    out.println("  format:          v" + a.zarrFormat());
    out.println("  shape:           " + Shapes.format(a.shape()));
    out.println("  chunks:          " + Shapes.format(a.chunks()));
    if (!Arrays.equals(a.innerChunks(), a.chunks())) {
      out.println("  inner chunks:    " + Shapes.format(a.innerChunks()));
    }
    out.println("  chunk grid:      " + Shapes.format(a.chunkGridShape()));
    out.println("  dtype:           " + a.dtype());
    out.println("  fill value:      " + a.fillValue());
    out.println(
        "  "
            + (a.zarrFormat() == 3 ? "codecs:          " : "encoding:        ")
            + describeCodecs(a.codecs()));
    out.println("  chunks written:  " + a.chunksWritten() + " of " + a.chunkCount());
    List<String> dims = a.dimensionNames();
    out.println("  dimension names: " + (dims.isEmpty() ? "(none)" : dims));
    out.println("  attributes:      " + (a.attributes().isEmpty() ? "(none)" : ""));
    printAttributes(out, a.attributes());
  }

  static String describeCodecs(List<Map<String, Object>> codecs) {
    StringBuilder sb = new StringBuilder();
    for (Map<String, Object> c : codecs) {
      if (sb.length() > 0) {
        sb.append(" -> ");
      }
      Object name = c.get("name");
      if (name == null) {
        sb.append(c); // v2: order, dtype, compressor
      } else {
        sb.append(name);
        Object conf = c.get("configuration");
        if (conf != null) {
          sb.append(conf);
        }
      }
    }
    return sb.toString();
  }

  static void printAttributes(PrintWriter out, Map<String, Object> attrs) {
    for (Map.Entry<String, Object> e : attrs.entrySet()) {
      out.println("    " + e.getKey() + ": " + e.getValue());
    }
  }

  static void printGroup(PrintWriter out, ZarrGroup g) {
    out.println("Zarr group" + (g.path().isEmpty() ? "" : " '" + g.path() + "'"));
    out.println("  format:     v" + g.zarrFormat());
    out.println("  attributes: " + (g.attributes().isEmpty() ? "(none)" : ""));
    printAttributes(out, g.attributes());
    Map<String, ZarrGroup.NodeType> members = g.members();
    out.println("  members:    " + (members.isEmpty() ? "(none)" : ""));
    for (Map.Entry<String, ZarrGroup.NodeType> e : members.entrySet()) {
      if (e.getValue() == ZarrGroup.NodeType.ARRAY) {
        ZarrArray a = g.openArray(e.getKey());
        out.println(
            "    "
                + e.getKey()
                + "  array "
                + a.dtype()
                + " "
                + Shapes.format(a.shape())
                + " chunks "
                + Shapes.format(a.chunks())
                + (a.dimensionNames().isEmpty() ? "" : " dims " + a.dimensionNames()));
      } else {
        out.println("    " + e.getKey() + "/  group");
      }
    }
  }
}
