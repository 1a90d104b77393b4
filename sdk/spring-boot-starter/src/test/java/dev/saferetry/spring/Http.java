package dev.saferetry.spring;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** Plain HTTP requests to the test application's web server. */
final class Http {
  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  private Http() {}

  static HttpResponse<String> get(int port, String path) {
    return send(HttpRequest.newBuilder(uri(port, path)).GET().build());
  }

  static HttpResponse<String> postJson(int port, String path, String json, String user, String pw) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri(port, path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json));
    if (user != null) {
      b.header(
          "Authorization",
          "Basic "
              + Base64.getEncoder()
                  .encodeToString((user + ":" + pw).getBytes(StandardCharsets.UTF_8)));
    }
    return send(b.build());
  }

  static HttpResponse<String> post(
      int port, String path, String contentType, byte[] body, String... headers) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri(port, path))
            .header("Content-Type", contentType)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return send(b.build());
  }

  private static URI uri(int port, String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private static HttpResponse<String> send(HttpRequest r) {
    try {
      return CLIENT.send(r, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
