package dev.cubed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.zarr.ZarrArray;
import dev.cubed.zarr.store.FileSystemStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The diagnostics flags through {@link Main#execute}: each leaves its files. */
class DiagnosticsOptionsTest {
  @TempDir Path dir;

  /** Runs the command line; returns exit code, stdout and stderr (System.err captured too). */
  private String[] run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    ByteArrayOutputStream sysOut = new ByteArrayOutputStream();
    ByteArrayOutputStream sysErr = new ByteArrayOutputStream();
    PrintStream savedOut = System.out;
    PrintStream savedErr = System.err;
    int code;
    System.setOut(new PrintStream(sysOut, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(sysErr, true, StandardCharsets.UTF_8));
    try {
      code = Main.execute(new PrintWriter(out, true), new PrintWriter(err, true), false, args);
    } finally {
      System.setOut(savedOut);
      System.setErr(savedErr);
    }
    return new String[] {
      String.valueOf(code),
      out + sysOut.toString(StandardCharsets.UTF_8),
      err + sysErr.toString(StandardCharsets.UTF_8)
    };
  }

  private static void assertFiles(Path h, Path p, long tasks) throws Exception {
    List<String> rows = Files.readAllLines(h.resolve("tasks.csv"));
    assertThat(rows.get(0)).startsWith("compute,op,key,start_ms,end_ms");
    assertThat((long) rows.size() - 1).isEqualTo(tasks);
    assertThat(Files.readAllLines(h.resolve("ops.csv")).get(0)).startsWith("compute,op,kind");
    assertThat(Files.readString(h.resolve("plan.txt"))).contains("succeeded");
    String op = rows.get(1).split(",")[1];
    for (String f : List.of("timeline.svg", "memory.svg")) {
      Path svg = p.resolve(f);
      DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();
      dbf.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
      assertThat(dbf.newDocumentBuilder().parse(svg.toFile()).getDocumentElement().getNodeName())
          .isEqualTo("svg");
      assertThat(Files.readString(svg)).as(f).contains(op);
    }
  }

  @Test
  void demoLeavesHistoryChartsAndPlanPicture() throws Exception {
    Path h = dir.resolve("h");
    Path p = dir.resolve("p");
    Path pic = dir.resolve("plan.svg");
    String[] r =
        run(
            "demo",
            "--progress",
            "--history",
            h.toString(),
            "--plots",
            p.toString(),
            "--visualize",
            pic.toString(),
            "--work-dir",
            dir.resolve("work").toString());
    assertThat(r[0]).as(r[2]).isEqualTo("0");
    JsonNode j = new ObjectMapper().readTree(r[1]);
    assertFiles(h, p, j.get("tasks").asLong());
    assertThat(Files.readString(dir.resolve("plan.dot"))).startsWith("digraph cubed");
    if (r[2].contains("plan picture: " + pic)) { // Graphviz installed
      assertThat(Files.readString(pic)).contains("<svg");
    } else {
      assertThat(r[2]).contains("apt-get install graphviz");
    }
    // a bar per op, complete
    assertThat(r[2]).contains("100% [").contains("diagnostics: history in " + h);
  }

  @Test
  void demoNoProgressHidesTheBars() {
    String[] r = run("demo", "--no-progress", "--work-dir", dir.resolve("work").toString());
    assertThat(r[0]).as(r[2]).isEqualTo("0");
    assertThat(r[2]).doesNotContain("100% [");
  }

  @Test
  void rechunkLeavesHistoryCharts() throws Exception {
    NDArray a = NDArray.zeros(DType.FLOAT32, 24, 18);
    for (int i = 0; i < a.size(); i++) {
      a.setDouble(i, i);
    }
    ZarrArray src =
        ZarrArray.create(new FileSystemStore(dir.resolve("src.zarr")), "")
            .shape(a.shape())
            .chunks(1L, 18)
            .dtype(DType.FLOAT32)
            .build();
    src.write(new long[2], a);
    Path h = dir.resolve("h");
    Path p = dir.resolve("p");
    String[] r =
        run(
            "rechunk",
            dir.resolve("src.zarr").toString(),
            dir.resolve("dst.zarr").toString(),
            "--chunks",
            "24,3",
            "--allowed-mem",
            "100kB",
            "--reserved-mem",
            "1kB",
            "--history",
            h.toString(),
            "--plots",
            p.toString(),
            "--visualize",
            dir.resolve("plan.dot").toString());
    assertThat(r[0]).as(r[2]).isEqualTo("0");
    JsonNode j = new ObjectMapper().readTree(r[1]);
    assertFiles(h, p, j.get("tasks").asLong());
    assertThat(Files.readString(dir.resolve("plan.dot"))).contains("rechunk");
    assertThat(ZarrArray.open(new FileSystemStore(dir.resolve("dst.zarr")), "").read())
        .isEqualTo(a);
  }

  @Test
  void unusableHistoryDirectoryIsRefusedBeforeRunning() throws Exception {
    NDArray a = NDArray.zeros(DType.FLOAT32, 4, 4);
    ZarrArray.create(new FileSystemStore(dir.resolve("src.zarr")), "")
        .shape(a.shape())
        .chunks(1L, 4)
        .dtype(DType.FLOAT32)
        .build()
        .write(new long[2], a);
    Files.writeString(dir.resolve("file"), "x");
    Path bad = dir.resolve("file/h");
    String[] r =
        run(
            "rechunk",
            dir.resolve("src.zarr").toString(),
            dir.resolve("dst.zarr").toString(),
            "--chunks",
            "4,2",
            "--allowed-mem",
            "100kB",
            "--reserved-mem",
            "1kB",
            "--history",
            bad.toString());
    assertThat(r[0]).isEqualTo("1");
    assertThat(r[2]).contains("--history: cannot create the directory " + bad);
    assertThat(
            Files.exists(dir.resolve("dst.zarr/zarr.json"))
                || Files.exists(dir.resolve("dst.zarr/.zarray")))
        .as("target not created")
        .isFalse();
  }
}
