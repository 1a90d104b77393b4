package dev.saferetry.testing.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import okhttp3.Headers;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/** Plain HTTP to a fake provider, without retries: what the provider itself answers. */
final class RawHttp {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final MediaType FORM = MediaType.get("application/x-www-form-urlencoded");
  private static final MediaType JSON_TYPE = MediaType.get("application/json");

  /** One answer: status, headers and the body as JSON. */
  record Reply(int status, Headers headers, JsonNode body) {
    String header(String name) {
      return headers.get(name);
    }
  }

  private final OkHttpClient http =
      new OkHttpClient.Builder().retryOnConnectionFailure(false).build();
  private final String baseUrl;
  private final Map<String, String> headers;

  RawHttp(String baseUrl, Map<String, String> headers) {
    this.baseUrl = baseUrl;
    this.headers = headers;
  }

  /** A Stripe client: the API key as a bearer token. */
  static RawHttp stripe(FakeProvider provider) {
    return new RawHttp(provider.baseUrl(), Map.of("Authorization", "Bearer sk_test_fake"));
  }

  Reply form(String method, String path, String form, String... headerPairs) {
    return send(method, path, form == null ? null : RequestBody.create(form, FORM), headerPairs);
  }

  Reply json(String method, String path, String json, String... headerPairs) {
    return send(
        method, path, json == null ? null : RequestBody.create(json, JSON_TYPE), headerPairs);
  }

  Reply get(String pathAndQuery, String... headerPairs) {
    return send("GET", pathAndQuery, null, headerPairs);
  }

  private Reply send(String method, String path, RequestBody body, String... headerPairs) {
    Request.Builder b = new Request.Builder().url(baseUrl + path).method(method, body);
    headers.forEach(b::header);
    for (int i = 0; i < headerPairs.length; i += 2) {
      b.header(headerPairs[i], headerPairs[i + 1]);
    }
    try (Response r = http.newCall(b.build()).execute()) {
      String text = r.body().string();
      return new Reply(r.code(), r.headers(), text.isEmpty() ? null : JSON.readTree(text));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
