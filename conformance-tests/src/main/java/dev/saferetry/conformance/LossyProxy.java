package dev.saferetry.conformance;

import dev.saferetry.conformance.proxy.Fault;
import dev.saferetry.conformance.proxy.FaultProxy;
import dev.saferetry.conformance.proxy.LostAnswer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import okhttp3.OkHttpClient;

/**
 * The lost-response case's proxy: a {@link FaultProxy} that forwards each request to the target,
 * waits for the target's complete response and closes the client's connection without answering, a
 * response lost in the network after the server committed. It hands the lost responses to the case
 * as {@link Answer}s.
 *
 * <p>Thread-safe.
 */
final class LossyProxy implements AutoCloseable {
  private final FaultProxy proxy;

  LossyProxy(String upstream, OkHttpClient http) {
    try {
      proxy = FaultProxy.start(upstream, http, request -> Fault.dropResponse());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The proxy's base URL. */
  String baseUrl() {
    return proxy.baseUrl();
  }

  /** The upstream responses the client never received, in order. */
  List<Answer> swallowed() {
    return proxy.lostAnswers().stream().map(LossyProxy::answer).toList();
  }

  private static Answer answer(LostAnswer a) {
    if (a.failure() != null) {
      Answer failed = Answer.failed(a.failure(), a.startNanos());
      return new Answer(
          0, "", null, failed.headers(), failed.error(), a.startNanos(), a.endNanos());
    }
    return new Answer(
        a.status(),
        a.body(),
        Answer.parse(a.body()),
        a.headers(),
        null,
        a.startNanos(),
        a.endNanos());
  }

  @Override
  public void close() {
    proxy.close();
  }
}
