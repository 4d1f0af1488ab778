package dev.cubed.s3;

import dev.cubed.Cubed;
import dev.cubed.Spec;
import dev.cubed.nd.DType;
import dev.cubed.zarr.Stores;
import java.util.List;

/**
 * The test S3 server as a program, for trying s3:// paths and distributed executors by hand
 * (scripts/spark-local-cluster.sh starts it): {@code S3TestServerMain [PORT] [BUCKET...]} serves
 * the buckets (default "data" and "work") on 127.0.0.1:PORT (default 9000) in memory, writes an
 * example array {@code s3://data/example.zarr} (float64, 200 x 250 x 250, chunks 1 x 250 x 250, 100
 * MB) when bucket "data" is served, prints the environment a client needs and runs until killed.
 * Keys: {@link S3TestServer#ACCESS_KEY} / {@link S3TestServer#SECRET_KEY}.
 */
public final class S3TestServerMain {
  private S3TestServerMain() {}

  /** Runs the server until the process is killed. */
  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 9000;
    List<String> buckets =
        args.length > 1 ? List.of(args).subList(1, args.length) : List.of("data", "work");
    S3TestServer server = S3TestServer.start(port).useAsDefault();
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
        "  export CUBED_S3_ENDPOINT="
            + server.endpoint()
            + " AWS_ACCESS_KEY_ID="
            + S3TestServer.ACCESS_KEY
            + " AWS_SECRET_ACCESS_KEY="
            + S3TestServer.SECRET_KEY
            + " AWS_REGION=us-east-1");
    System.out.flush();
    Thread.currentThread().join();
  }
}
