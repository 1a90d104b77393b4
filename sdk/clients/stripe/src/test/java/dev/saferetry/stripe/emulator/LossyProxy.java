package dev.saferetry.stripe.emulator;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A loopback HTTP/1.1 proxy on plain JDK sockets (no OkHttp on the path under test), one request
 * per connection, in front of the emulator. Armed on one {@code METHOD /path}, it either forwards
 * the request and drops the emulator's answer once (the client sees the connection close with no
 * response: a lost answer after the effect), or holds the request until {@link #releaseHeld()}
 * forwards it (the effect happens while the caller is gone). Every request's method, path and
 * {@code Idempotency-Key} is recorded.
 */
final class LossyProxy implements AutoCloseable {
  /** What one request looked like on the wire. */
  record Seen(String method, String path, String key) {}

  private enum Mode {
    PASS,
    DROP_ANSWER_ONCE,
    HOLD
  }

  private final ServerSocket server;
  private final int upstreamPort;
  private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
  private volatile Mode mode = Mode.PASS;
  private volatile String target = "";
  private volatile CountDownLatch held = new CountDownLatch(1);
  private volatile CountDownLatch released = new CountDownLatch(1);
  private volatile CountDownLatch forwarded = new CountDownLatch(1);

  LossyProxy(int upstreamPort) throws IOException {
    this.upstreamPort = upstreamPort;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread accept = new Thread(this::acceptLoop, "lossy-proxy");
    accept.setDaemon(true);
    accept.start();
  }

  String baseUrl() {
    return "http://127.0.0.1:" + server.getLocalPort();
  }

  List<Seen> seen() {
    synchronized (seen) {
      return List.copyOf(seen);
    }
  }

  /** The next {@code METHOD /path} request reaches the emulator; its answer is dropped. */
  void dropAnswerOnce(String methodAndPath) {
    target = methodAndPath;
    mode = Mode.DROP_ANSWER_ONCE;
  }

  /** The next {@code METHOD /path} request is held (not forwarded) until {@link #releaseHeld()}. */
  void hold(String methodAndPath) {
    held = new CountDownLatch(1);
    released = new CountDownLatch(1);
    forwarded = new CountDownLatch(1);
    target = methodAndPath;
    mode = Mode.HOLD;
  }

  /** Waits until a request was held; false after the timeout. */
  boolean awaitHeld(long seconds) throws InterruptedException {
    return held.await(seconds, TimeUnit.SECONDS);
  }

  /** Forwards the held request to the emulator (its answer goes nowhere) and waits for it. */
  boolean releaseHeld(long seconds) throws InterruptedException {
    released.countDown();
    return forwarded.await(seconds, TimeUnit.SECONDS);
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Thread t = new Thread(() -> serve(client), "lossy-proxy-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException closed) {
        return;
      }
    }
  }

  private void serve(Socket client) {
    try (client) {
      InputStream in = client.getInputStream();
      String head = readHead(in);
      if (head == null) {
        return;
      }
      String[] lines = head.split("\r\n");
      String[] requestLine = lines[0].split(" ");
      String method = requestLine[0];
      String path = requestLine[1].split("\\?", 2)[0];
      int length = 0;
      String key = null;
      StringBuilder rewritten = new StringBuilder(lines[0]).append("\r\n");
      for (int i = 1; i < lines.length; i++) {
        String name = lines[i].substring(0, Math.max(0, lines[i].indexOf(':')));
        String value = lines[i].substring(lines[i].indexOf(':') + 1).trim();
        switch (name.toLowerCase(Locale.ROOT)) {
          case "content-length" -> length = Integer.parseInt(value);
          case "idempotency-key" -> key = value;
          default -> {}
        }
        if (!name.equalsIgnoreCase("connection")) {
          rewritten.append(lines[i]).append("\r\n");
        }
      }
      rewritten.append("Connection: close\r\n\r\n");
      byte[] body = in.readNBytes(length);
      seen.add(new Seen(method, path, key));

      boolean targeted = (method + " " + path).equals(target);
      Mode now = targeted ? mode : Mode.PASS;
      if (now == Mode.HOLD) {
        mode = Mode.PASS;
        held.countDown();
        released.await();
        forward(rewritten.toString(), body); // the effect happens; nobody reads its answer
        forwarded.countDown();
        return;
      }
      byte[] answer = forward(rewritten.toString(), body);
      if (now == Mode.DROP_ANSWER_ONCE) {
        mode = Mode.PASS;
        return; // close without a byte of the answer
      }
      OutputStream out = client.getOutputStream();
      out.write(answer);
      out.flush();
    } catch (IOException | InterruptedException | RuntimeException e) {
      // the connection ends; the client decides what that means
    }
  }

  private byte[] forward(String head, byte[] body) throws IOException {
    try (Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort)) {
      OutputStream out = upstream.getOutputStream();
      out.write(head.getBytes(StandardCharsets.ISO_8859_1));
      out.write(body);
      out.flush();
      return upstream.getInputStream().readAllBytes(); // Connection: close: the answer ends at EOF
    }
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    int b;
    while ((b = in.read()) != -1) {
      head.write(b);
      matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
      if (matched == 4) {
        String text = head.toString(StandardCharsets.ISO_8859_1);
        return text.substring(0, text.length() - 4);
      }
    }
    return null;
  }

  @Override
  public void close() throws IOException {
    released.countDown();
    server.close();
  }
}
