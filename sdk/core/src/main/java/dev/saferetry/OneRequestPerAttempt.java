package dev.saferetry;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Authenticator;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Response;

/**
 * Keeps OkHttp from sending a request the SDK did not decide on.
 *
 * <p>OkHttp re-sends on its own: after a connection failure ({@code retryOnConnectionFailure}), to
 * follow a redirect, for a 408, for a 503 with {@code Retry-After: 0}, for a 421 on a coalesced
 * HTTP/2 connection, and with an authenticator's answer to a 401 or 407; a caller's application
 * interceptor may call {@code proceed} twice. Each of those would reach the server with the same
 * request id, uncounted by the retry policy, the breaker and the attempt history. So the SDK's
 * client switches off what can be switched off (silent retry, redirects, the authenticator), lets
 * the proxy authenticator answer only a tunnel's {@code CONNECT} challenge (sent before the request
 * itself), and guards the rest: the last network interceptor lets one request per attempt through
 * and refuses any further one before a byte of it is written. The attempt's answer is then the one
 * the server gave to the request that was sent (its status and headers; its body is gone).
 */
final class OneRequestPerAttempt {
  /**
   * What the guard learns about one attempt while OkHttp runs it, carried as the attempt's private
   * OkHttp request tag: {@code connected} once a connection carries the request, {@code requests}
   * the requests OkHttp tried within the attempt, {@code head} the server's answer to the first,
   * {@code refused} that a second one was refused.
   */
  static final class Tag {
    final AtomicBoolean connected = new AtomicBoolean();
    final AtomicInteger requests = new AtomicInteger();
    volatile Response head;
    volatile boolean refused;

    // The first failure of the request that was sent, before any interceptor's second try.
    volatile IOException sentFailure;
  }

  /** Thrown at a request OkHttp tried to send after the attempt's first. */
  static final class Refused extends IOException {
    private static final long serialVersionUID = 1L;

    Refused() {
      super("a second request within one attempt was refused: the SDK decides every retry");
    }
  }

  private OneRequestPerAttempt() {}

  /** Returns the SDK's client derived from the caller's (or the default) one. */
  static OkHttpClient sdkOwned(OkHttpClient base) {
    Authenticator proxyAuth = base.proxyAuthenticator();
    return base.newBuilder()
        .retryOnConnectionFailure(false)
        .followRedirects(false)
        .followSslRedirects(false)
        .authenticator(Authenticator.NONE)
        .proxyAuthenticator(
            (route, response) ->
                "CONNECT".equals(response.request().method())
                    ? proxyAuth.authenticate(route, response)
                    : null)
        .addNetworkInterceptor(OneRequestPerAttempt::guard)
        .build();
  }

  private static Response guard(Interceptor.Chain chain) throws IOException {
    // The call's original request carries the tag, whatever request a follow-up was built as.
    Tag tag = chain.call().request().tag(Tag.class);
    if (tag == null) {
      return chain.proceed(chain.request());
    }
    if (tag.requests.incrementAndGet() > 1) {
      tag.refused = true;
      throw new Refused();
    }
    tag.connected.set(true);
    Response response;
    try {
      response = chain.proceed(chain.request());
    } catch (IOException e) {
      // An interceptor may catch this and try again: the attempt is classified by this failure,
      // the one of the request that was actually sent, not by the refusal of the second try.
      tag.sentFailure = e;
      throw e;
    }
    tag.head = response;
    return response;
  }
}
