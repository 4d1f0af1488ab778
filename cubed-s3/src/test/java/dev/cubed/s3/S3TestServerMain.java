package dev.cubed.s3;

import dev.cubed.Cubed;
import dev.cubed.Spec;
import dev.cubed.nd.DType;
import dev.cubed.zarr.store.Stores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The test S3 server as a program, for trying s3:// paths and distributed executors by hand
 * (scripts/spark-local-cluster.sh starts it): {@code S3TestServerMain [PORT] [BUCKET...]} serves
 * the buckets (default "data" and "work") on 127.0.0.1:PORT (default 9000) in memory, writes an
 * example array {@code s3://data/example.zarr} (float64, 200 x 250 x 250, chunks 1 x 250 x 250, 100
 * MB) when bucket "data" is served, prints the environment a client needs and runs until killed.
 * Keys: with {@code --credentials FILE} first, the {@code AWS_ACCESS_KEY_ID} and {@code
 * AWS_SECRET_ACCESS_KEY} of that file ({@code export NAME=VALUE} lines, as the script writes them;
 * the secret is never printed), else the fixed {@link S3TestServer#ACCESS_KEY} / {@link
 * S3TestServer#SECRET_KEY} of the tests.
 */
public final class S3TestServerMain {
  private S3TestServerMain() {}

  /** Runs the server until the process is killed. */
  public static void main(String[] args) throws Exception {
    String access = S3TestServer.ACCESS_KEY;
    String secret = S3TestServer.SECRET_KEY;
    String from = null;
    if (args.length >= 2 && args[0].equals("--credentials")) {
      from = args[1];
      Map<String, String> env = credentials(Path.of(from));
      access = env.get("AWS_ACCESS_KEY_ID");
      secret = env.get("AWS_SECRET_ACCESS_KEY");
      if (access == null || secret == null) {
        throw new IllegalArgumentException(
            from + " sets no AWS_ACCESS_KEY_ID or no AWS_SECRET_ACCESS_KEY");
      }
      args = Arrays.copyOfRange(args, 2, args.length);
    }
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 9000;
    List<String> buckets =
        args.length > 1 ? List.of(args).subList(1, args.length) : List.of("data", "work");
    S3TestServer server = S3TestServer.start(port, access, secret).useAsDefault();
    for (String b : buckets) {
      server.createBucket(b);
    }
    if (buckets.contains("data")) {
      double g = 0.6180339887498949;
      double s = 0.41421356237309515;
      Spec spec =
          Spec.builder().workDir(System.getProperty("java.io.tmpdir") + "/cubed-s3-main").build();
      Cubed.toZarr(
          Cubed.fromFunction(
              new long[] {200, 250, 250},
              new long[] {1, 250, 250},
              DType.FLOAT64,
              (blk, i, flat, in, bc) ->
                  blk.setDouble(
                      i,
                      0.5
                          + 0.5
                              * Math.sin(
                                  g * (double) (flat / 62500)
                                      + s * (double) (flat % 62500 / 250)
                                      + (double) (flat % 250))),
              spec),
          Stores.open("s3://data/example.zarr"),
          "",
          true);
    }
    System.out.println(
        "S3 test server on "
            + server.endpoint()
            + ", buckets "
            + buckets
            + (buckets.contains("data") ? "; example array s3://data/example.zarr" : ""));
    System.out.println("Client environment:");
    System.out.println(
        from != null
            ? "  . " + from + "; export CUBED_S3_ENDPOINT=" + server.endpoint()
            : "  export CUBED_S3_ENDPOINT="
                + server.endpoint()
                + " AWS_ACCESS_KEY_ID="
                + access
                + " AWS_SECRET_ACCESS_KEY="
                + secret
                + " AWS_REGION=us-east-1");
    System.out.flush();
    Thread.currentThread().join();
  }

  /** The {@code export NAME=VALUE} (or {@code NAME=VALUE}) lines of a credentials file. */
  static Map<String, String> credentials(Path file) throws IOException {
    Map<String, String> out = new HashMap<>();
    for (String line : Files.readAllLines(file)) {
      String l = line.strip();
      if (l.startsWith("export ")) {
        l = l.substring("export ".length()).strip();
      }
      int eq = l.indexOf('=');
      if (eq > 0 && !l.startsWith("#")) {
        out.put(l.substring(0, eq), l.substring(eq + 1));
      }
    }
    return out;
  }
}
