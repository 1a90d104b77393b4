package dev.saferetry.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.idempotency.KeyPlacement;
import java.time.Duration;
import okhttp3.Authenticator;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client builder's checks of its settings — run by {@code build()}, so that nothing a call
 * could only discover after recording an intent is left to the call — and the parts it creates when
 * the caller brings none. Messages name the setting and never echo a secret. Stateless.
 */
public final class ClientSettings {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry");

  /** The longest API key accepted, in characters. */
  static final int MAX_API_KEY = 4096;

  private ClientSettings() {}

  /** Parses a base URL; the message never repeats it (it may hold credentials). */
  public static HttpUrl baseUrl(String url) {
    HttpUrl parsed = HttpUrl.parse(url);
    if (parsed == null) {
      throw new IllegalArgumentException("baseUrl is not an absolute http or https URL");
    }
    return parsed;
  }

  /** Checks everything {@code build()} validates beyond plain ranges. */
  public static void check(
      HttpUrl baseUrl, String apiKey, String name, KeyPlacement placement, String attemptHeader) {
    if (!baseUrl.username().isEmpty() || !baseUrl.password().isEmpty()) {
      throw new IllegalArgumentException(
          "baseUrl must not contain user info: it is never sent; use apiKey or an interceptor");
    }
    if (apiKey != null) {
      if (apiKey.isEmpty() || apiKey.length() > MAX_API_KEY) {
        throw new IllegalArgumentException("apiKey must be 1.." + MAX_API_KEY + " characters");
      }
      for (int i = 0; i < apiKey.length(); i++) {
        char c = apiKey.charAt(i);
        if (c < 0x21 || c > 0x7E) {
          throw new IllegalArgumentException(
              "apiKey must be visible ASCII without spaces; the character at index "
                  + i
                  + " is not");
        }
      }
    }
    if (name.isBlank() || name.chars().anyMatch(c -> c < 0x20 || c > 0x7E)) {
      throw new IllegalArgumentException("name must be non-blank printable ASCII");
    }
    if (!placement.inBody()) {
      headerName("keyPlacement header name", placement.name());
    }
    if (attemptHeader != null) {
      headerName("attemptHeader", attemptHeader);
      if (attemptHeader.equalsIgnoreCase("X-Request-Id")
          || (!placement.inBody() && attemptHeader.equalsIgnoreCase(placement.name()))) {
        throw new IllegalArgumentException(
            "attemptHeader must not be the request id or the idempotency key header");
      }
    }
  }

  /**
   * Checks a header name as HTTP/1.1 and OkHttp require it: 1 or more visible ASCII characters, no
   * {@code :}.
   */
  public static void headerName(String what, String name) {
    if (name.isEmpty()) {
      throw new IllegalArgumentException(what + " must not be empty");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c < 0x21 || c > 0x7E || c == ':') {
        throw new IllegalArgumentException(
            what + " has a character outside visible ASCII (or ':') at index " + i);
      }
    }
  }

  /**
   * Checks a header value: tab and printable ASCII only, so that it can be sent as it is (no CR or
   * LF to split the header, no text OkHttp would refuse). The message never contains the value.
   */
  public static void headerValue(String name, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c != '\t' && (c < 0x20 || c > 0x7E)) {
        throw new IllegalArgumentException(
            "value of header "
                + name
                + " has a character other than tab or printable ASCII at index "
                + i
                + " (CR, LF and non-ASCII text cannot be sent)");
      }
    }
  }

  /** Warns once per client that the caller's authenticator is not used (see {@link FollowUps}). */
  public static void noteAuthenticator(OkHttpClient callers) {
    if (callers != null && callers.authenticator() != Authenticator.NONE) {
      LOG.warn(
          "the OkHttpClient's authenticator is not used: a 401 ends the call as ApiException;"
              + " put credentials on every request (apiKey or an interceptor)");
    }
  }

  /** Returns a copy of the caller's mapper (or a new one) that never fails on unknown fields. */
  public static ObjectMapper lenientMapper(ObjectMapper callers) {
    return Json.lenientCopy(callers);
  }

  /**
   * Returns how many {@code executeAsync} calls the SDK's own executor runs at once by default: 32
   * platform threads before JDK 21, 1,024 virtual threads on JDK 21 and newer.
   */
  public static int defaultAsyncConcurrency() {
    return AsyncIo.defaultConcurrency();
  }

  /**
   * The client the SDK creates when the caller brings none: 10 s connect, 30 s read and write.
   * OkHttp's fast fallback (racing connects to several addresses) is off: it runs each racing
   * connect on a platform thread of OkHttp's own, so thousands of calls connecting at once would
   * start as many platform threads; without it a call connects on its own thread (a virtual thread
   * for {@code executeAsync} on JDK 21 and newer), trying the addresses in order.
   */
  static OkHttpClient defaultHttpClient() {
    return new OkHttpClient.Builder()
        .connectTimeout(Duration.ofSeconds(10))
        .readTimeout(Duration.ofSeconds(30))
        .writeTimeout(Duration.ofSeconds(30))
        .fastFallback(false)
        .build();
  }
}
