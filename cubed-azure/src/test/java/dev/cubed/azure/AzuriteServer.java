package dev.cubed.azure;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * Azurite's blob service (npm package {@code azurite}, {@value #VERSION}) on 127.0.0.1 at a free
 * port, in memory, for the Azure tests: installed into the project's {@code .cache/azurite} on
 * first use ({@code .ci/run} does it in CI), started once per test class. Tests are skipped, with
 * the reason, only when node or npm is missing.
 */
public final class AzuriteServer implements AutoCloseable {
  public static final String VERSION = "3.37.0";

  /** Azurite's well-known development account and key (public, in Azurite's documentation). */
  public static final String ACCOUNT = "devstoreaccount1";

  public static final String KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
  private static final Pattern LISTENS =
      Pattern.compile("listens on (http://127\\.0\\.0\\.1:\\d+)");

  private final Process process;
  private final String endpoint;

  private AzuriteServer(Process process, String endpoint) {
    this.process = process;
    this.endpoint = endpoint;
  }

  /** The project's root directory (the one holding .ci). */
  static Path projectRoot() {
    Path p = Paths.get("").toAbsolutePath();
    while (p != null && !Files.isDirectory(p.resolve(".ci"))) {
      p = p.getParent();
    }
    return p == null ? Paths.get("").toAbsolutePath() : p;
  }

  private static boolean runs(String... cmd) {
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(2, TimeUnit.MINUTES) && p.exitValue() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  /** The azurite-blob launcher, installed if absent; skips the calling test without node/npm. */
  static Path launcher() throws IOException, InterruptedException {
    Assumptions.assumeTrue(
        runs("node", "--version") && runs("npm", "--version"),
        "node and npm are needed to run Azurite (the Azure tests); install Node.js, or skip the"
            + " tests with -DexcludedGroups=slow,azure");
    Path dir = projectRoot().resolve(".cache").resolve("azurite");
    Path bin = dir.resolve("node_modules").resolve(".bin").resolve("azurite-blob");
    if (!Files.isExecutable(bin)) {
      Files.createDirectories(dir);
      Process p =
          new ProcessBuilder(
                  "npm",
                  "install",
                  "--prefix",
                  dir.toString(),
                  "--no-audit",
                  "--no-fund",
                  "azurite@" + VERSION)
              .redirectErrorStream(true)
              .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0 || !Files.isExecutable(bin)) {
        throw new IOException(
            "npm install azurite@" + VERSION + " into " + dir + " failed:\n" + out);
      }
    }
    return bin;
  }

  /** Starts Azurite's blob service and waits (up to 3 minutes) until it listens. */
  public static AzuriteServer start() throws Exception {
    Path bin = launcher();
    Path work = Files.createTempDirectory("azurite");
    Process p =
        new ProcessBuilder(
                List.of(
                    bin.toString(),
                    "--blobHost",
                    "127.0.0.1",
                    "--blobPort",
                    "0",
                    "--inMemoryPersistence",
                    "--skipApiVersionCheck",
                    "--loose"))
            .directory(work.toFile())
            .redirectErrorStream(true)
            .start();
    CompletableFuture<String> url = new CompletableFuture<>();
    StringBuilder seen = new StringBuilder();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                  if (!url.isDone()) {
                    seen.append(line).append('\n');
                    Matcher m = LISTENS.matcher(line);
                    if (m.find()) {
                      url.complete(m.group(1));
                    }
                  }
                }
              } catch (IOException e) {
                // the process ended
              }
              url.completeExceptionally(
                  new IOException("Azurite exited before listening:\n" + seen));
            },
            "azurite-output");
    reader.setDaemon(true);
    reader.start();
    try {
      return new AzuriteServer(p, url.get(3, TimeUnit.MINUTES));
    } catch (Exception e) {
      p.destroyForcibly();
      throw e;
    }
  }

  /** {@code http://127.0.0.1:PORT/devstoreaccount1} */
  public String endpoint() {
    return endpoint + "/" + ACCOUNT;
  }

  /** The connection string for this server (as a user would put in the environment). */
  public String connectionString() {
    return "DefaultEndpointsProtocol=http;AccountName="
        + ACCOUNT
        + ";AccountKey="
        + KEY
        + ";BlobEndpoint="
        + endpoint()
        + ";";
  }

  /** Makes {@link AzureSettings} use this server (through the system property). */
  public AzuriteServer useAsDefault() {
    System.setProperty(AzureSettings.CONNECTION_STRING_PROPERTY, connectionString());
    return this;
  }

  @Override
  public void close() throws InterruptedException {
    System.clearProperty(AzureSettings.CONNECTION_STRING_PROPERTY);
    process.destroyForcibly(); // in memory: nothing to save (a graceful stop takes seconds)
    process.waitFor(1, TimeUnit.MINUTES);
  }
}
