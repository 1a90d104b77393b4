package dev.saferetry;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * An HTTP/1.1 server written on a bare {@link ServerSocket}: it counts what really arrives on the
 * socket, independently of OkHttp's own MockWebServer. Each request gets the next scripted answer
 * (raw bytes), or {@link #DROP}: the connection is closed after the request was read.
 */
final class RawHttpServer implements AutoCloseable {
  static final String DROP = "<drop>";

  /** One request as it arrived: request line and headers (names lower-cased). */
  record Received(String requestLine, Map<String, String> headers) {
    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  private final ServerSocket socket;
  private final Deque<String> script = new ArrayDeque<>();
  private final List<Received> received = new ArrayList<>();
  private final Thread acceptor;

  RawHttpServer(List<String> answers) throws IOException {
    script.addAll(answers);
    socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    acceptor = new Thread(this::acceptLoop, "raw-http-server");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** An answer with the given status line, headers and an empty body. */
  static String answer(String statusLine, String... headers) {
    StringBuilder sb = new StringBuilder("HTTP/1.1 ").append(statusLine).append("\r\n");
    for (String h : headers) {
      sb.append(h).append("\r\n");
    }
    return sb.append("Content-Length: 0\r\n\r\n").toString();
  }

  /** A 200 answer with a JSON body. */
  static String ok(String json) {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
        + body.length
        + "\r\n\r\n"
        + json;
  }

  String baseUrl() {
    return "http://127.0.0.1:" + socket.getLocalPort() + "/";
  }

  int port() {
    return socket.getLocalPort();
  }

  synchronized List<Received> received() {
    return List.copyOf(received);
  }

  private void acceptLoop() {
    while (!socket.isClosed()) {
      try {
        Socket s = socket.accept();
        Thread t = new Thread(() -> serve(s), "raw-http-connection");
        t.setDaemon(true);
        t.start();
      } catch (IOException closed) {
        return;
      }
    }
  }

  private void serve(Socket s) {
    try (s;
        InputStream in = s.getInputStream();
        OutputStream out = s.getOutputStream()) {
      while (true) {
        Received r = readRequest(in);
        if (r == null) {
          return;
        }
        String next;
        synchronized (this) {
          received.add(r);
          next = script.isEmpty() ? answer("500 Script Exhausted") : script.poll();
        }
        if (next.equals(DROP)) {
          return;
        }
        out.write(next.getBytes(StandardCharsets.UTF_8));
        out.flush();
      }
    } catch (IOException ignored) {
      // the client went away
    }
  }

  private static Received readRequest(InputStream in) throws IOException {
    String requestLine = readLine(in);
    if (requestLine == null || requestLine.isEmpty()) {
      return null;
    }
    Map<String, String> headers = new TreeMap<>();
    for (String line = readLine(in); line != null && !line.isEmpty(); line = readLine(in)) {
      int colon = line.indexOf(':');
      headers.put(
          line.substring(0, colon).trim().toLowerCase(Locale.ROOT),
          line.substring(colon + 1).trim());
    }
    int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
    if (in.readNBytes(length).length < length) {
      return null;
    }
    return new Received(requestLine, headers);
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != -1; b = in.read()) {
      if (b == '\n') {
        String s = line.toString(StandardCharsets.ISO_8859_1);
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
      }
      line.write(b);
    }
    return null;
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
