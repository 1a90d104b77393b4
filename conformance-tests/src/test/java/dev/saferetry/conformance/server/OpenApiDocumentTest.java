package dev.saferetry.conformance.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The server's own OpenAPI document at {@code /openapi.json} says exactly what the server does. */
class OpenApiDocumentTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> METHODS = List.of("GET", "POST", "PUT", "PATCH", "DELETE");
  private final OkHttpClient http =
      new OkHttpClient.Builder()
          .retryOnConnectionFailure(false)
          .readTimeout(Duration.ofSeconds(10))
          .build();
  private ReferenceServer server;

  @AfterEach
  void close() {
    if (server != null) {
      server.close();
    }
  }

  private JsonNode served(ReferenceServer.Builder builder) throws IOException {
    server = builder.build().start();
    Request get = new Request.Builder().url(server.baseUrl() + "/openapi.json").build();
    try (Response response = http.newCall(get).execute()) {
      assertThat(response.code()).isEqualTo(200);
      assertThat(response.header("Content-Type")).startsWith("application/json");
      return JSON.readTree(response.body().string());
    }
  }

  private static Set<String> documented(JsonNode doc) {
    Set<String> operations = new TreeSet<>();
    doc.get("paths")
        .properties()
        .forEach(
            path ->
                path.getValue()
                    .fieldNames()
                    .forEachRemaining(
                        m -> operations.add(m.toUpperCase(Locale.ROOT) + " " + path.getKey())));
    return operations;
  }

  /** The operation's parameters with each {@code $ref} resolved. */
  private static List<JsonNode> parameters(JsonNode doc, JsonNode operation) {
    List<JsonNode> resolved = new ArrayList<>();
    for (JsonNode parameter : operation.path("parameters")) {
      String ref = parameter.path("$ref").asText("");
      resolved.add(ref.isEmpty() ? parameter : doc.at(ref.substring(1).replace("~1", "/")));
    }
    return resolved;
  }

  @Test
  void everyRouteOfTheServerIsInTheDocumentAndEveryDocumentedOperationIsARoute()
      throws IOException {
    JsonNode doc = served(ReferenceServer.builder());
    Set<String> routes = new TreeSet<>();
    for (Route route : Route.values()) {
      routes.add(route.method() + " " + route.template());
    }
    assertThat(documented(doc)).isEqualTo(routes);
  }

  @Test
  void theServerAnswersEveryDocumentedOperationAndNoOtherMethodOnItsPaths() throws IOException {
    JsonNode doc = served(ReferenceServer.builder());
    Set<String> documented = documented(doc);
    for (String path : iterable(doc.get("paths").fieldNames())) {
      String concrete = path.replace("{id}", "ch_unknown");
      for (String method : METHODS) {
        String code = errorCode(method, concrete);
        if (documented.contains(method + " " + path)) {
          assertThat(code).as(method + " " + path).isNotEqualTo("not_found");
        } else {
          assertThat(code).as(method + " " + path).isEqualTo("not_found");
        }
      }
    }
  }

  private String errorCode(String method, String path) throws IOException {
    RequestBody body =
        method.equals("GET") ? null : RequestBody.create("{}", MediaType.get("application/json"));
    Request request =
        new Request.Builder()
            .url(server.baseUrl() + path)
            .header("Authorization", "Bearer tenant_doc")
            .method(method, method.equals("GET") ? null : body)
            .build();
    try (Response response = http.newCall(request).execute()) {
      String text = response.body().string();
      return JSON.readTree(text).path("error").path("code").asText("");
    }
  }

  @Test
  void everyWriteDeclaresTheIdempotencyKeyHeaderWithItsLimitAndNoReadDoes() throws IOException {
    JsonNode doc = served(ReferenceServer.builder());
    for (Route route : Route.values()) {
      JsonNode operation =
          doc.get("paths").get(route.template()).get(route.method().toLowerCase(Locale.ROOT));
      List<JsonNode> headers =
          parameters(doc, operation).stream()
              .filter(p -> p.path("in").asText().equals("header"))
              .toList();
      if (route.write()) {
        assertThat(headers).as(route.name()).hasSize(1);
        assertThat(headers.get(0).path("name").asText()).isEqualTo("Idempotency-Key");
        assertThat(headers.get(0).at("/schema/maxLength").asInt()).isEqualTo(255);
      } else {
        assertThat(headers).as(route.name()).isEmpty();
      }
    }
  }

  @Test
  void theDocumentNamesTheHeaderTheServerWasConfiguredWith() throws IOException {
    JsonNode doc = served(ReferenceServer.builder().keyHeader("X-Request-Key"));
    assertThat(doc.at("/components/parameters/IdempotencyKey/name").asText())
        .isEqualTo("X-Request-Key");
  }

  @Test
  void aServerReadingTheKeyFromTheBodyDocumentsTheFieldAndNoHeader() throws IOException {
    JsonNode doc = served(ReferenceServer.builder().keyBodyField("idempotency_key"));
    for (Route route : Route.values()) {
      JsonNode operation =
          doc.get("paths").get(route.template()).get(route.method().toLowerCase(Locale.ROOT));
      assertThat(parameters(doc, operation)).noneMatch(p -> p.path("in").asText().equals("header"));
    }
    assertThat(
            doc.at("/components/schemas/ChargeCreateParams/properties/idempotency_key/type")
                .asText())
        .isEqualTo("string");
    assertThat(
            doc.at("/components/schemas/RefundCreateParams/properties/idempotency_key").isObject())
        .isTrue();
  }

  private static <T> Iterable<T> iterable(java.util.Iterator<T> iterator) {
    return () -> iterator;
  }
}
