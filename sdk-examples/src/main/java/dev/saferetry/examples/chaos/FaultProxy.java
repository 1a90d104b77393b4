package dev.saferetry.examples.chaos;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A fault-injecting HTTP/1.1 proxy on loopback, in front of one upstream server. For every {@code
 * POST} it picks a {@link FaultKind} with a seeded random: pass-through, drop the answer after the
 * upstream answered (the server committed), reset before or after forwarding, hold the answer back
 * past the client's read timeout, or answer 409/429/503 itself. Each forwarded request goes over
 * its own upstream connection with {@code Connection: close}, so the proxy never has to frame an
 * answer: it reads it to the end.
 *
 * <p>Thread-safe; {@link #close()} ends every connection.
 */
public final class FaultProxy implements AutoCloseable {
  private static final int MAX_HEAD = 64 * 1024;

  private final ServerSocket listener;
  private final InetSocketAddress upstream;
  private final Duration holdBack;
  private final Supplier<FaultKind> chooser;
  private final Map<FaultKind, AtomicLong> counts = new EnumMap<>(FaultKind.class);
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final ExecutorService pool =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "fault-proxy");
            t.setDaemon(true);
            return t;
          });
  private final CountDownLatch closing = new CountDownLatch(1);

  private FaultProxy(
      ServerSocket listener,
      InetSocketAddress upstream,
      Duration holdBack,
      Supplier<FaultKind> chooser) {
    this.listener = listener;
    this.upstream = upstream;
    this.holdBack = holdBack;
    this.chooser = chooser;
    for (FaultKind k : FaultKind.values()) {
      counts.put(k, new AtomicLong());
    }
  }

  /**
   * Starts a proxy on an ephemeral loopback port.
   *
   * @param upstream the server to forward to
   * @param faultRate the share of POSTs that get a fault, in [0, 1]; faults are equally likely
   * @param holdBack how long a delayed answer is held (longer than the client's read timeout)
   * @param seed the seed of the fault choice
   */
  public static FaultProxy start(
      InetSocketAddress upstream, double faultRate, Duration holdBack, long seed)
      throws IOException {
    if (!(faultRate >= 0 && faultRate <= 1)) {
      throw new IllegalArgumentException("faultRate must be in [0, 1]: " + faultRate);
    }
    Random random = new Random(seed);
    FaultKind[] kinds = FaultKind.values();
    return start(
        upstream,
        holdBack,
        () -> {
          synchronized (random) {
            return random.nextDouble() >= faultRate
                ? FaultKind.PASS
                : kinds[1 + random.nextInt(kinds.length - 1)];
          }
        });
  }

  /** Starts a proxy whose POSTs get the kinds {@code chooser} returns (tests force kinds). */
  static FaultProxy start(
      InetSocketAddress upstream, Duration holdBack, Supplier<FaultKind> chooser)
      throws IOException {
    ServerSocket listener = new ServerSocket(0, 256, InetAddress.getLoopbackAddress());
    FaultProxy proxy = new FaultProxy(listener, upstream, holdBack, chooser);
    proxy.pool.execute(proxy::acceptLoop);
    return proxy;
  }

  /** Returns the base URL clients use, e.g. {@code http://127.0.0.1:54321}. */
  public String baseUrl() {
    return "http://127.0.0.1:" + listener.getLocalPort();
  }

  /** Returns how many POSTs got each kind so far. */
  public Map<FaultKind, Long> counts() {
    Map<FaultKind, Long> copy = new EnumMap<>(FaultKind.class);
    counts.forEach((k, v) -> copy.put(k, v.get()));
    return copy;
  }

  private void acceptLoop() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        sockets.add(client);
        pool.execute(() -> serve(client));
      } catch (IOException | RuntimeException e) {
        if (listener.isClosed()) {
          return;
        }
      }
    }
  }

  private void serve(Socket client) {
    try (client) {
      client.setTcpNoDelay(true);
      InputStream in = new BufferedInputStream(client.getInputStream());
      boolean open = true;
      while (open) {
        HttpMessage request = HttpMessage.readRequest(in, MAX_HEAD);
        if (request == null) {
          return;
        }
        FaultKind kind = request.isPost() ? chooser.get() : FaultKind.PASS;
        counts.get(kind).incrementAndGet();
        open = handle(kind, request, client);
      }
    } catch (IOException | RuntimeException e) {
      // The client went away or was reset on purpose: the connection is over.
    } finally {
      sockets.remove(client);
    }
  }

  /** Handles one request; returns whether the client connection stays open. */
  private boolean handle(FaultKind kind, HttpMessage request, Socket client) throws IOException {
    switch (kind) {
      case RESET_BEFORE_SEND:
        reset(client);
        return false;
      case SYNTHETIC_409:
        answer(client, 409, "Conflict", "");
        return true;
      case SYNTHETIC_429:
        answer(client, 429, "Too Many Requests", "Retry-After-Ms: 20\r\n");
        return true;
      case SYNTHETIC_503:
        answer(client, 503, "Service Unavailable", "");
        return true;
      default:
        return forward(kind, request, client);
    }
  }

  private boolean forward(FaultKind kind, HttpMessage request, Socket client) throws IOException {
    try (Socket up = new Socket()) {
      sockets.add(up);
      up.connect(upstream, 2_000);
      up.setTcpNoDelay(true);
      up.setSoTimeout(60_000);
      OutputStream toServer = up.getOutputStream();
      toServer.write(request.withConnectionClose());
      toServer.flush();
      if (kind == FaultKind.RESET_AFTER_SEND) {
        reset(client);
        return false;
      }
      byte[] answer = HttpMessage.withConnectionClose(up.getInputStream().readAllBytes());
      if (kind == FaultKind.DROP_RESPONSE) {
        return false; // closing the client socket without a byte: the answer is lost
      }
      if (kind == FaultKind.DELAY_PAST_TIMEOUT) {
        awaitClosing(holdBack);
      }
      OutputStream toClient = client.getOutputStream();
      toClient.write(answer);
      toClient.flush();
      return false;
    } finally {
      sockets.removeIf(Socket::isClosed);
    }
  }

  private static void answer(Socket client, int status, String reason, String extraHeaders)
      throws IOException {
    byte[] body =
        ("{\"error\":{\"type\":\"api_error\",\"code\":\"chaos_"
                + status
                + "\",\"message\":\"injected by the chaos proxy\"}}")
            .getBytes(StandardCharsets.UTF_8);
    String head =
        "HTTP/1.1 "
            + status
            + " "
            + reason
            + "\r\nContent-Type: application/json\r\n"
            + extraHeaders
            + "Content-Length: "
            + body.length
            + "\r\n\r\n";
    OutputStream out = client.getOutputStream();
    out.write(head.getBytes(StandardCharsets.US_ASCII));
    out.write(body);
    out.flush();
  }

  private static void reset(Socket socket) throws IOException {
    socket.setSoLinger(true, 0); // close() now sends RST instead of FIN
    socket.close();
  }

  private void awaitClosing(Duration d) {
    try {
      closing.await(d.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    closing.countDown();
    try {
      listener.close();
    } catch (IOException ignored) {
      // Already closed.
    }
    for (Socket s : sockets) {
      try {
        s.close();
      } catch (IOException ignored) {
        // Already closed.
      }
    }
    pool.shutdownNow();
  }
}
