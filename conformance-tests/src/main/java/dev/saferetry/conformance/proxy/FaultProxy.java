package dev.saferetry.conformance.proxy;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import okhttp3.Headers;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * A fault-injecting HTTP/1.1 proxy on loopback in front of one upstream server. A plan sees each
 * request and returns the {@link Fault} to apply: pass it through, lose the answer after the server
 * answered, reset the connection before or after forwarding, hold the answer back, or answer
 * itself. The client side is a plain socket (so the proxy can close it without a byte or reset it);
 * the upstream side is an {@link OkHttpClient} call, whose answer is read whole and relayed with a
 * {@code Content-Length} and {@code Connection: close}.
 *
 * <pre>{@code
 * try (FaultProxy proxy = FaultProxy.start(upstream, http, r -> Fault.dropResponse())) {
 *   // requests to proxy.baseUrl() reach the upstream; their answers never come back
 * }
 * }</pre>
 *
 * <p>Thread-safe; {@link #close()} ends every connection and releases held answers.
 */
public final class FaultProxy implements AutoCloseable {
  private static final Set<String> HOP_BY_HOP =
      Set.of(
          "host",
          "connection",
          "content-length",
          "transfer-encoding",
          "keep-alive",
          "expect",
          "upgrade",
          "proxy-connection");

  private final String upstream;
  private final OkHttpClient http;
  private final Function<ProxiedRequest, Fault> plan;
  private final ServerSocket listener;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final List<LostAnswer> lost = new CopyOnWriteArrayList<>();
  private final CountDownLatch closing = new CountDownLatch(1);
  private final ExecutorService pool =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "fault-proxy");
            t.setDaemon(true);
            return t;
          });

  private FaultProxy(
      String upstream, OkHttpClient http, Function<ProxiedRequest, Fault> plan, ServerSocket l) {
    this.upstream = upstream.replaceAll("/+$", "");
    this.http = http.newBuilder().followRedirects(false).retryOnConnectionFailure(false).build();
    this.plan = plan;
    this.listener = l;
  }

  /**
   * Starts a proxy on an ephemeral loopback port.
   *
   * @param upstream the server's base URL, e.g. {@code http://127.0.0.1:8080}
   * @param http the client for the upstream leg (its redirects and silent retries are turned off)
   * @param plan decides each request's fault; called on the connection's thread
   * @return the running proxy; close it to stop it
   * @throws IOException if no port can be bound
   */
  public static FaultProxy start(
      String upstream, OkHttpClient http, Function<ProxiedRequest, Fault> plan) throws IOException {
    FaultProxy proxy =
        new FaultProxy(
            upstream, http, plan, new ServerSocket(0, 256, InetAddress.getLoopbackAddress()));
    proxy.pool.execute(proxy::acceptLoop);
    return proxy;
  }

  /**
   * {@return the base URL clients use instead of the upstream's, e.g. {@code
   * http://127.0.0.1:54321}}
   */
  public String baseUrl() {
    return "http://127.0.0.1:" + listener.getLocalPort();
  }

  /**
   * {@return the upstream answers lost by {@link Fault#dropResponse()} so far, in order, as a
   * snapshot}
   */
  public List<LostAnswer> lostAnswers() {
    return List.copyOf(lost);
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
        ProxiedRequest request = RequestReader.read(in);
        if (request == null) {
          return;
        }
        open = handle(plan.apply(request), request, client);
      }
    } catch (IOException | RuntimeException e) {
      // The client went away, or was reset on purpose: the connection is over.
    } finally {
      sockets.remove(client);
    }
  }

  /** Applies one fault; returns whether the client connection stays open. */
  private boolean handle(Fault fault, ProxiedRequest request, Socket client) throws IOException {
    switch (fault.kind()) {
      case RESET_BEFORE_SEND -> {
        reset(client);
        return false;
      }
      case ANSWER -> {
        Headers.Builder headers = new Headers.Builder().add("Content-Type", "application/json");
        fault.headers().forEach(headers::set);
        byte[] body = fault.body().getBytes(StandardCharsets.UTF_8);
        write(client, fault.status(), "Injected", headers.build(), body, false);
        return true;
      }
      default -> {
        return forward(fault, request, client);
      }
    }
  }

  private boolean forward(Fault fault, ProxiedRequest request, Socket client) throws IOException {
    long start = System.nanoTime();
    try (Response answer = http.newCall(upstreamRequest(request)).execute()) {
      byte[] body = answer.body().bytes();
      switch (fault.kind()) {
        case DROP_RESPONSE -> {
          lost.add(
              new LostAnswer(
                  answer.code(),
                  answer.headers(),
                  new String(body, StandardCharsets.UTF_8),
                  null,
                  start,
                  System.nanoTime()));
          return false; // closing the client socket without a byte: the answer is lost
        }
        case RESET_AFTER_SEND -> {
          reset(client);
          return false;
        }
        case DELAY -> awaitClosing(fault.hold());
        default -> {}
      }
      write(client, answer.code(), answer.message(), answer.headers(), body, true);
      return false;
    } catch (IOException e) {
      if (fault.kind() == Fault.Kind.DROP_RESPONSE) {
        lost.add(new LostAnswer(0, Headers.of(), "", e, start, System.nanoTime()));
      }
      return false; // the upstream failed: the client sees its connection close
    }
  }

  private Request upstreamRequest(ProxiedRequest r) {
    Headers.Builder headers = new Headers.Builder();
    for (Map.Entry<String, String> h : r.headers()) {
      if (!HOP_BY_HOP.contains(h.getKey().toLowerCase(Locale.ROOT))) {
        headers.addUnsafeNonAscii(h.getKey(), h.getValue());
      }
    }
    String type = r.header("Content-Type");
    boolean noBody = r.method().equals("GET") || r.method().equals("HEAD");
    return new Request.Builder()
        .url(BaseUrl.resolve(upstream, r.target()))
        .headers(headers.build())
        .method(
            r.method(),
            noBody
                ? null
                : RequestBody.create(r.body(), type == null ? null : MediaType.parse(type)))
        .build();
  }

  private static void write(
      Socket client, int status, String reason, Headers headers, byte[] bytes, boolean close)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length + 512);
    StringBuilder head = new StringBuilder("HTTP/1.1 ").append(status).append(' ');
    head.append(reason.isEmpty() ? "Answer" : reason).append("\r\n");
    for (int i = 0; i < headers.size(); i++) {
      if (!HOP_BY_HOP.contains(headers.name(i).toLowerCase(Locale.ROOT))) {
        head.append(headers.name(i)).append(": ").append(headers.value(i)).append("\r\n");
      }
    }
    head.append("Content-Length: ").append(bytes.length).append("\r\n");
    head.append(close ? "Connection: close\r\n\r\n" : "\r\n");
    out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    out.write(bytes);
    OutputStream socket = client.getOutputStream();
    out.writeTo(socket);
    socket.flush();
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

  /** Stops accepting, closes every connection and releases answers held back. */
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
