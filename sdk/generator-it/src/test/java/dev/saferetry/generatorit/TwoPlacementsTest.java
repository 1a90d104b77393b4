package dev.saferetry.generatorit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.filestore.FileKeyStore;
import dev.saferetry.generatorit.acme.AcmeTransfersClient;
import dev.saferetry.generatorit.acme.TransferRequest;
import dev.saferetry.generatorit.acme.TransfersReverseRequest;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.resilience.RetryPolicy;
import java.nio.file.Path;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.SocketEffect;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One document, three placements: a header no preset knows, a body field named by the plugin's
 * configuration, and a read without a key; and the key survives a restart of the client.
 */
class TwoPlacementsTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String TRANSFER =
      "{\"id\":\"tr_1\",\"amount\":500,\"rate\":\"1.0832\",\"status\":\"paid\"}";

  @TempDir Path dir;

  @Test
  void eachOperationCarriesItsKeyWhereTheDocumentSays() throws Exception {
    try (MockWebServer server = Wire.started();
        SafeRetryClient client = Wire.client(server, KeyStore.inMemory()).build()) {
      server.enqueue(Wire.json(201, TRANSFER));
      server.enqueue(Wire.json(200, TRANSFER));
      server.enqueue(Wire.json(200, TRANSFER));
      AcmeTransfersClient acme = new AcmeTransfersClient(client);
      acme.transfers()
          .create(
              TransferRequest.builder().amount(500L).currency("eur").build(),
              RequestOptions.none());
      acme.transfers()
          .reverse(
              "tr_1",
              TransfersReverseRequest.builder().clearReason().build(),
              RequestOptions.none());
      var got = acme.transfers().retrieve("tr_1", RequestOptions.none()).value();

      RecordedRequest create = server.takeRequest();
      assertThat(create.getHeaders().get("X-Request-Key")).isNotBlank();
      assertThat(MAPPER.readTree(create.getBody().utf8()).has("request_token")).isFalse();
      assertThat(MAPPER.readTree(create.getBody().utf8()).has("note")).isFalse();
      RecordedRequest reverse = server.takeRequest();
      assertThat(reverse.getHeaders().get("X-Request-Key")).isNull();
      assertThat(MAPPER.readTree(reverse.getBody().utf8()).get("request_token").asText())
          .isNotBlank();
      assertThat(MAPPER.readTree(reverse.getBody().utf8()).get("reason").isNull()).isTrue();
      RecordedRequest read = server.takeRequest();
      assertThat(read.getHeaders().get("X-Request-Key")).isNull();
      assertThat(got.rate()).isEqualByComparingTo("1.0832");
      assertThat(MAPPER.writeValueAsString(got)).contains("\"rate\":\"1.0832\"");
    }
  }

  @Test
  void aKeyOverTheBodyFieldsLimitIsRefusedBeforeAnythingIsSent() throws Exception {
    try (MockWebServer server = Wire.started();
        SafeRetryClient client = Wire.client(server, KeyStore.inMemory()).build()) {
      assertThatThrownBy(
              () ->
                  new AcmeTransfersClient(client)
                      .transfers()
                      .reverse(
                          "tr_1",
                          TransfersReverseRequest.builder().build(),
                          RequestOptions.none().withIdempotencyKey("k".repeat(33))))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("32");
      assertThat(server.getRequestCount()).isZero();
    }
  }

  @Test
  void theSameIntentCarriesTheSameKeyAfterTheClientRestarts() throws Exception {
    try (MockWebServer server = Wire.started()) {
      server.enqueue(
          new MockResponse.Builder()
              .code(201)
              .body("{\"id\":\"tr_")
              .setHeader("Content-Length", "200")
              .onResponseEnd(new SocketEffect.CloseSocket())
              .build());
      server.enqueue(Wire.json(201, TRANSFER));
      TransferRequest request = TransferRequest.builder().amount(500L).currency("eur").build();
      RequestOptions intent = RequestOptions.none().withIntentId("payout-42");
      try (FileKeyStore store = FileKeyStore.open(dir);
          SafeRetryClient first =
              Wire.client(server, store).retryPolicy(RetryPolicy.noRetries()).build()) {
        assertThatThrownBy(() -> new AcmeTransfersClient(first).transfers().create(request, intent))
            .isInstanceOf(OutcomeUnknownException.class);
      }
      try (FileKeyStore store = FileKeyStore.open(dir);
          SafeRetryClient second = Wire.client(server, store).build()) {
        new AcmeTransfersClient(second).transfers().create(request, intent);
      }
      String before = server.takeRequest().getHeaders().get("X-Request-Key");
      String after = server.takeRequest().getHeaders().get("X-Request-Key");
      assertThat(before).isNotBlank().isEqualTo(after);
    }
  }

  @Test
  void aSecretFieldIsMaskedInToStringAndAReadOnlyFieldIsNotSent() {
    TransferRequest r =
        TransferRequest.builder().amount(1L).currency("eur").pin("4711-secret").build();
    assertThat(r.toString()).contains("pin=***").doesNotContain("4711-secret");
    assertThat(r.pin()).isEqualTo("4711-secret");
    assertThat(
            java.util.Arrays.stream(TransferRequest.class.getRecordComponents())
                .map(c -> c.getName()))
        .contains("amount", "pin")
        .doesNotContain("id");
  }

  @Test
  void theAsyncMethodSendsTheSameRequestUnderItsKey() throws Exception {
    try (MockWebServer server = Wire.started();
        SafeRetryClient client = Wire.client(server, KeyStore.inMemory()).build()) {
      server.enqueue(Wire.json(201, TRANSFER));
      var result =
          new AcmeTransfersClient(client)
              .transfers()
              .createAsync(
                  TransferRequest.builder().amount(500L).currency("eur").clearNote().build(),
                  RequestOptions.none().withIntentId("payout-7"))
              .get(10, java.util.concurrent.TimeUnit.SECONDS);
      RecordedRequest sent = server.takeRequest();
      assertThat(sent.getHeaders().get("X-Request-Key")).isEqualTo(result.key().value());
      assertThat(MAPPER.readTree(sent.getBody().utf8()).get("note").isNull()).isTrue();
      assertThat(result.value().id()).isEqualTo("tr_1");
    }
  }
}
