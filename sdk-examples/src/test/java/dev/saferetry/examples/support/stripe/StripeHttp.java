package dev.saferetry.examples.support.stripe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import okhttp3.Headers;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/** A plain OkHttp client for the Stripe-shaped server: no retries, raw form bodies. */
final class StripeHttp implements AutoCloseable {
  static final MediaType FORM = MediaType.get("application/x-www-form-urlencoded");
  private static final ObjectMapper JSON = new ObjectMapper();

  /** An answer: status, headers, raw body and the body as JSON. */
  record Answer(int status, Headers headers, String body) {
    JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    String header(String name) {
      return headers.get(name);
    }
  }

  final StripeShapedServer server = StripeShapedServer.start();
  private final OkHttpClient http =
      new OkHttpClient.Builder()
          .retryOnConnectionFailure(false)
          .callTimeout(Duration.ofSeconds(20))
          .build();

  Request.Builder request(String pathAndQuery, String... headers) {
    Request.Builder b =
        new Request.Builder()
            .url(server.baseUrl() + pathAndQuery)
            .header("Authorization", "Bearer sk_test_harness");
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return b;
  }

  Answer post(String path, String form, String... headers) throws IOException {
    return send(request(path, headers).post(RequestBody.create(form, FORM)).build());
  }

  Answer get(String pathAndQuery, String... headers) throws IOException {
    return send(request(pathAndQuery, headers).get().build());
  }

  Answer delete(String path, String... headers) throws IOException {
    return send(request(path, headers).delete().build());
  }

  Answer send(Request request) throws IOException {
    try (Response r = http.newCall(request).execute()) {
      return new Answer(r.code(), r.headers(), r.body().string());
    }
  }

  @Override
  public void close() {
    server.close();
    http.dispatcher().executorService().shutdown();
    http.connectionPool().evictAll();
  }
}
