package dev.saferetry;

import dev.saferetry.internal.Redaction;
import dev.saferetry.resilience.TransportFailure;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.ProtocolException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLHandshakeException;
import okhttp3.HttpUrl;

/**
 * What an I/O failure of the HTTP client is: its {@link TransportFailure} kind ({@link #classify}),
 * and a copy of its exception safe to carry as a cause ({@link #redact}). OkHttp's messages, and
 * those of a caller's interceptor, may quote the URL (with its user info and query) or header
 * values; a cause is printed with every stack trace and logged by callers. So the SDK never hands
 * one on as it is: it carries a copy whose message — and each cause's — has every URL reduced to
 * what {@link Redaction#url} prints, every secret of the call masked, and only printable ASCII,
 * capped. The copy keeps the original's class name (in its message) and stack trace. Stateless.
 */
final class TransportFailures {
  private TransportFailures() {}

  private static final Pattern URL = Pattern.compile("(?i)\\b(?:https?|wss?)://[^\\s\"'<>]+");
  private static final int MAX_DEPTH = 8;

  /** An I/O failure whose message holds nothing but redacted text. */
  static final class Redacted extends IOException {
    private static final long serialVersionUID = 1L;

    Redacted(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** Returns a copy of {@code e} safe to print, or null for null. */
  static IOException redact(Throwable e, Redaction redaction) {
    return e == null ? null : copy(e, redaction, 0);
  }

  private static Redacted copy(Throwable e, Redaction redaction, int depth) {
    Throwable cause = e.getCause();
    Redacted causeCopy =
        cause == null || cause == e || depth >= MAX_DEPTH
            ? null
            : copy(cause, redaction, depth + 1);
    String message = e.getMessage() == null ? "" : ": " + text(e.getMessage(), redaction);
    Redacted copy = new Redacted(e.getClass().getName() + message, causeCopy);
    copy.setStackTrace(e.getStackTrace());
    return copy;
  }

  /** Returns text with URLs reduced to scheme, host, port and path, secrets masked, printable. */
  static String text(String raw, Redaction redaction) {
    Matcher m = URL.matcher(raw);
    StringBuilder out = new StringBuilder(raw.length());
    while (m.find()) {
      HttpUrl url = HttpUrl.parse(m.group());
      m.appendReplacement(
          out, Matcher.quoteReplacement(url == null ? "[url]" : Redaction.url(url)));
    }
    m.appendTail(out);
    return redaction.printableMasked(out.toString());
  }

  /**
   * The kind of a failure: before a connection carried the request ({@code connected} false)
   * nothing was sent; anything later may have reached the server.
   */
  static TransportFailure classify(IOException e, boolean connected) {
    String msg = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
    if (e instanceof ConnectException
        || e instanceof NoRouteToHostException
        || e instanceof UnknownHostException
        || e instanceof SSLHandshakeException) {
      return TransportFailure.CONNECT_FAILED;
    }
    if (e instanceof SocketTimeoutException) {
      if (!connected || msg.contains("connect")) {
        return TransportFailure.CONNECT_TIMEOUT;
      }
      return TransportFailure.READ_TIMEOUT;
    }
    if (e instanceof InterruptedIOException) {
      // OkHttp's call timeout surfaces as InterruptedIOException("timeout").
      return connected ? TransportFailure.CALL_TIMEOUT : TransportFailure.CONNECT_TIMEOUT;
    }
    if (!connected) {
      return TransportFailure.CONNECT_FAILED;
    }
    if (e instanceof EOFException
        || e instanceof ProtocolException
        || msg.contains("unexpected end of stream")
        || e.getCause() instanceof EOFException) {
      return TransportFailure.UNEXPECTED_EOF;
    }
    if (e instanceof SocketException
        || msg.contains("reset")
        || msg.contains("broken pipe")
        || msg.contains("closed")) {
      return TransportFailure.CONNECTION_RESET;
    }
    return TransportFailure.OTHER;
  }
}
