package dev.cubed.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cubed.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** {@code cubed bench-user}: the user-path program's arguments, output and exit codes. */
class BenchUserCommandTest {

  @Test
  void helpListsTheExpressions() {
    StringWriter out = new StringWriter();
    int rc =
        Main.execute(
            new PrintWriter(out),
            new PrintWriter(new StringWriter()),
            false,
            new String[] {"bench-user", "--help"});
    assertThat(rc).isZero();
    assertThat(out.toString())
        .contains("Usage: cubed bench-user EXPRESSION --inputs DIR")
        .contains("where_chain")
        .contains("concat_sum");
  }

  @Test
  void aMissingInputIsAUsageErrorOfOneLine() {
    StringWriter err = new StringWriter();
    int rc =
        Main.execute(
            new PrintWriter(new StringWriter()),
            new PrintWriter(err),
            false,
            new String[] {"bench-user", "slice_sum", "--inputs", "/no/such/dir"});
    assertThat(rc).isEqualTo(2);
    assertThat(err.toString().strip())
        .isEqualTo(
            "cubed bench-user: --inputs: no A.zarr in"
                + " /no/such/dir; scripts/perf/userpath_dask.py write writes the inputs");
  }
}
