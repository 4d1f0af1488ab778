package dev.cubed.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The TCP sockets a process listens on, read from Linux's /proc: the inodes of its socket file
 * descriptors ({@code /proc/PID/fd}) matched against the LISTEN entries of {@code /proc/net/tcp}
 * and {@code tcp6}.
 */
final class ListeningSockets {
  private ListeningSockets() {}

  /** A listening socket: its local address (e.g. 127.0.0.1, 0.0.0.0, ::) and port. */
  record Listen(String address, int port) {
    @Override
    public String toString() {
      return address + ":" + port;
    }
  }

  /** Whether this machine has the /proc files read here. */
  static boolean available() {
    return Files.isReadable(Path.of("/proc/net/tcp"))
        && Files.isDirectory(Path.of("/proc/self/fd"));
  }

  /** The sockets {@code pid} listens on. */
  static List<Listen> of(long pid) throws IOException {
    Set<String> inodes = new HashSet<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      for (Path fd : (Iterable<Path>) fds::iterator) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(target.substring(8, target.length() - 1));
          }
        } catch (IOException e) {
          // closed meanwhile
        }
      }
    }
    Map<String, Listen> listening = new HashMap<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      Path t = Path.of(table);
      if (!Files.isReadable(t)) {
        continue;
      }
      List<String> lines = Files.readAllLines(t);
      for (String line : lines.subList(1, lines.size())) {
        String[] f = line.trim().split("\\s+");
        if (f.length > 9 && f[3].equals("0A")) { // 0A: LISTEN
          String[] local = f[1].split(":");
          listening.put(f[9], new Listen(address(local[0]), Integer.parseInt(local[1], 16)));
        }
      }
    }
    List<Listen> r = new ArrayList<>();
    for (String inode : inodes) {
      if (listening.containsKey(inode)) {
        r.add(listening.get(inode));
      }
    }
    return r;
  }

  /** /proc's hex address (little-endian 32-bit words) as text: 127.0.0.1, 0.0.0.0, ::1, ::. */
  private static String address(String hex) {
    if (hex.length() == 8) {
      return Integer.parseInt(hex.substring(6, 8), 16)
          + "."
          + Integer.parseInt(hex.substring(4, 6), 16)
          + "."
          + Integer.parseInt(hex.substring(2, 4), 16)
          + "."
          + Integer.parseInt(hex.substring(0, 2), 16);
    }
    if (hex.equals("00000000000000000000000000000000")) {
      return "::";
    }
    if (hex.equals("00000000000000000000000001000000")) {
      return "::1";
    }
    if (hex.startsWith("0000000000000000FFFF0000")) { // ::ffff:a.b.c.d
      return address(hex.substring(24));
    }
    return hex;
  }
}
