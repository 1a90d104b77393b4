package dev.saferetry.conformance;

import dev.saferetry.conformance.proxy.Fault;
import dev.saferetry.conformance.proxy.FaultProxy;
import dev.saferetry.conformance.proxy.ProxiedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import okhttp3.OkHttpClient;

/**
 * A loopback proxy in front of a server that lets a test make it misbehave in one precise way: the
 * rule sees each request and either answers it with a canned response or lets it through. A {@link
 * FaultProxy} whose plan is the rule.
 */
final class InterceptingProxy implements AutoCloseable {
  /** What a rule sees. */
  record Seen(String method, String path, Map<String, List<String>> headers, String body) {
    String header(String name) {
      return headers.entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(e -> e.getValue().get(0))
          .findFirst()
          .orElse(null);
    }
  }

  /** A canned answer. */
  record Canned(int status, String body) {}

  /** Decides per request: a canned answer, or null to forward it. */
  interface Rule {
    Canned answer(Seen request);
  }

  private final OkHttpClient http = new OkHttpClient();
  private final FaultProxy proxy;

  private InterceptingProxy(String upstream, Rule rule) throws IOException {
    proxy =
        FaultProxy.start(
            upstream,
            http,
            request -> {
              Canned canned = rule.answer(seen(request));
              return canned == null
                  ? Fault.pass()
                  : Fault.answer(canned.status(), Map.of(), canned.body());
            });
  }

  private static Seen seen(ProxiedRequest r) {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    r.headers()
        .forEach(
            h ->
                headers
                    .computeIfAbsent(h.getKey(), k -> new java.util.ArrayList<>())
                    .add(h.getValue()));
    return new Seen(r.method(), r.target(), headers, new String(r.body(), StandardCharsets.UTF_8));
  }

  String baseUrl() {
    return proxy.baseUrl();
  }

  @Override
  public void close() {
    proxy.close();
    http.dispatcher().executorService().shutdown();
    http.connectionPool().evictAll();
  }

  static InterceptingProxy start(String upstream, Rule rule) {
    try {
      return new InterceptingProxy(upstream, rule);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
