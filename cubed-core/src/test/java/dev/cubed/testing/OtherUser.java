package dev.cubed.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A throwaway second local user for tests of what another user of the machine can do to a compute
 * (needs root, {@code useradd}, {@code userdel} and {@code runuser}; the test is skipped with the
 * reason otherwise). {@link #close()} removes the user.
 */
public final class OtherUser implements AutoCloseable {
  private final String name;
  private final int uid;

  private OtherUser(String name, int uid) {
    this.name = name;
    this.uid = uid;
  }

  /** Creates the user, or skips the test (not root, or no useradd/runuser). */
  public static OtherUser create() throws Exception {
    Assumptions.assumeTrue(
        "root".equals(System.getProperty("user.name")),
        "a second local user can only be created as root (useradd)");
    Assumptions.assumeTrue(
        Files.isExecutable(Path.of("/usr/sbin/useradd"))
            && Files.isExecutable(Path.of("/usr/sbin/runuser")),
        "useradd or runuser missing");
    byte[] r = new byte[4];
    new SecureRandom().nextBytes(r);
    String name = "cbdt" + HexFormat.of().formatHex(r);
    run(List.of("/usr/sbin/useradd", "-M", "-N", "-s", "/bin/sh", name));
    String uid = run(List.of("id", "-u", name)).trim();
    return new OtherUser(name, Integer.parseInt(uid));
  }

  /** The user's name. */
  public String name() {
    return name;
  }

  /** The user's uid. */
  public int uid() {
    return uid;
  }

  /** Runs {@code sh -c script} as this user; returns its output, fails the test on exit != 0. */
  public String sh(String script) throws Exception {
    return run(List.of("/usr/sbin/runuser", "-u", name, "--", "/bin/sh", "-c", script));
  }

  /** Starts {@code cmd} as this user (the caller stops it). */
  public Process start(List<String> cmd) throws IOException {
    List<String> full = new ArrayList<>(List.of("/usr/sbin/runuser", "-u", name, "--"));
    full.addAll(cmd);
    return new ProcessBuilder(full).redirectErrorStream(true).start();
  }

  private static String run(List<String> cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(p.exitValue()).as(String.join(" ", cmd) + ": " + out).isZero();
    return out;
  }

  /** Removes the user (its processes must have ended). */
  @Override
  public void close() throws Exception {
    Process p = new ProcessBuilder("/usr/sbin/userdel", name).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    p.waitFor(2, TimeUnit.MINUTES);
  }
}
