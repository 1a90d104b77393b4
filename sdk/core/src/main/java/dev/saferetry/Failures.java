package dev.saferetry;

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
import javax.net.ssl.SSLHandshakeException;

/** Maps OkHttp's I/O exceptions to {@link TransportFailure} kinds. */
final class Failures {
  private Failures() {}

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
