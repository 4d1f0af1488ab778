package dev.cubed.zarr.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A hostile HTTP/1.1 server on 127.0.0.1 for tests: each path is answered by a {@link Handler} that
 * may send its headers and then trickle its body, stall, or stream bytes without end (generated,
 * never buffered). Unknown paths answer 404. Every connection runs on its own daemon thread and
 * ends when the client goes away; {@link #close()} stops accepting.
 */
final class HostileHttpServer implements AutoCloseable {
  /** Writes the whole answer (status line, headers, body) for one request. */
  interface Handler {
    void serve(OutputStream out) throws IOException, InterruptedException;
  }

  private final ServerSocket socket;
  private final Map<String, Handler> routes = new ConcurrentHashMap<>();
  private final AtomicLong bytesSent = new AtomicLong();

  HostileHttpServer() throws IOException {
    socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread t = new Thread(this::acceptLoop, "hostile-http-accept");
    t.setDaemon(true);
    t.start();
  }

  /** The base URL, {@code http://127.0.0.1:PORT/}. */
  String url() {
    return "http://127.0.0.1:" + socket.getLocalPort() + "/";
  }

  /** Answers {@code path} (without the leading '/') with {@code h}. */
  HostileHttpServer route(String path, Handler h) {
    routes.put("/" + path, h);
    return this;
  }

  /** Body bytes written so far, over all connections. */
  long bytesSent() {
    return bytesSent.get();
  }

  private void acceptLoop() {
    while (!socket.isClosed()) {
      try {
        Socket s = socket.accept();
        Thread t = new Thread(() -> serve(s), "hostile-http-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket s) {
    try (s) {
      String path = requestPath(s.getInputStream());
      Handler h = routes.get(path);
      OutputStream out = s.getOutputStream();
      if (h == null) {
        out.write(head(404, 0).getBytes(StandardCharsets.US_ASCII));
      } else {
        h.serve(out);
      }
      out.flush();
    } catch (IOException | InterruptedException e) {
      // the client went away: that is how endless answers end
    }
  }

  /** The path of the request line; reads the request's head to its blank line. */
  private static String requestPath(InputStream in) throws IOException {
    StringBuilder sb = new StringBuilder();
    int c;
    while ((c = in.read()) >= 0) {
      sb.append((char) c);
      if (sb.length() >= 4 && sb.substring(sb.length() - 4).equals("\r\n\r\n")) {
        break;
      }
    }
    String[] first = sb.toString().split("\r\n", 2)[0].split(" ");
    return first.length > 1 ? first[1] : "/";
  }

  /** A status line and headers; {@code length} < 0 sends no Content-Length. */
  static String head(int status, long length) {
    return "HTTP/1.1 "
        + status
        + (status == 200 ? " OK" : " Not Found")
        + "\r\n"
        + (length >= 0 ? "Content-Length: " + length + "\r\n" : "")
        + "Connection: close\r\n\r\n";
  }

  /** A whole answer of {@code body}. */
  static Handler bytes(byte[] body) {
    return out -> {
      out.write(head(200, body.length).getBytes(StandardCharsets.US_ASCII));
      out.write(body);
    };
  }

  /** Headers declaring {@code length} bytes, then one byte every {@code everyMs} ms. */
  Handler trickle(long length, long everyMs) {
    return out -> {
      out.write(head(200, length).getBytes(StandardCharsets.US_ASCII));
      out.flush();
      for (long i = 0; i < length; i++) {
        Thread.sleep(everyMs);
        out.write('x');
        out.flush();
        bytesSent.incrementAndGet();
      }
    };
  }

  /** Headers declaring {@code length} bytes, then nothing, until the client gives up. */
  static Handler stall(long length) {
    return out -> {
      out.write(head(200, length).getBytes(StandardCharsets.US_ASCII));
      out.flush();
      Thread.sleep(Long.MAX_VALUE);
    };
  }

  /**
   * Headers (declaring {@code length} bytes, or no length if negative), then bytes without end,
   * generated 64 KiB at a time.
   */
  Handler endless(long length) {
    return out -> {
      out.write(head(200, length).getBytes(StandardCharsets.US_ASCII));
      byte[] block = new byte[64 << 10];
      java.util.Arrays.fill(block, (byte) ' ');
      while (true) {
        out.write(block);
        bytesSent.addAndGet(block.length);
      }
    };
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
