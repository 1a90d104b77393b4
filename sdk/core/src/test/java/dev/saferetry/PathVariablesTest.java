package dev.saferetry;

import static dev.saferetry.testing.Answers.drain;
import static dev.saferetry.testing.Answers.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.examples.payments.Refund;
import dev.saferetry.examples.payments.RefundCreateParams;
import dev.saferetry.idempotency.KeyStore;
import mockwebserver3.QueueDispatcher;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A path variable names one segment of one resource: it can never climb out of its segment or out
 * of the base URL's path, whatever the caller (or the caller's user) puts into it.
 */
class PathVariablesTest extends ClientFixture {
  private static final Operation<RefundCreateParams, Refund> REFUND =
      Operation.post("/v1/customers/{cust}/refunds", RefundCreateParams.class, Refund.class);
  private static final RefundCreateParams PARAMS = new RefundCreateParams("ch_1", 100);
  private static final String REFUND_JSON =
      "{\"id\":\"re_1\",\"charge\":\"ch_1\",\"amount\":100,\"status\":\"succeeded\"}";

  @BeforeEach
  void answerUnexpectedRequestsAtOnce() {
    // A request that should never have been sent gets a 404 instead of waiting for an answer.
    ((QueueDispatcher) server.getDispatcher()).setFailFast(true);
  }

  private SafeRetryClient underApiV2(KeyStore store) {
    return builder().baseUrl(server.url("/api/v2/").toString()).keyStore(store).build();
  }

  @ParameterizedTest
  @ValueSource(strings = {"..", ".", "", "\uD800"})
  void aValueThatWouldChangeThePathIsRefusedBeforeAnyIo(String value) {
    KeyStore store = KeyStore.inMemory();
    try (SafeRetryClient c = underApiV2(store)) {
      assertThatThrownBy(
              () ->
                  c.execute(
                      REFUND,
                      PARAMS,
                      RequestOptions.none().withPathParam("cust", value).withIntentId("refund-1")))
          .isExactlyInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("{cust}");
    }
    assertThat(server.getRequestCount()).isZero();
    assertThat(store.pending()).isEmpty();
  }

  @Test
  void twoDotDotVariablesCannotEscapeTheBasePath() {
    Operation<RefundCreateParams, Refund> twoVars =
        Operation.post("/v1/{a}/{b}/refunds", RefundCreateParams.class, Refund.class);
    KeyStore store = KeyStore.inMemory();
    try (SafeRetryClient c = underApiV2(store)) {
      assertThatThrownBy(
              () ->
                  c.execute(
                      twoVars,
                      PARAMS,
                      RequestOptions.none().withPathParam("a", "..").withPathParam("b", "..")))
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(server.getRequestCount()).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"%2e%2e", "%2E.", "a/../..", "..\\..", "x?y#z", ".. ", "..;x"})
  void encodedOrCompositeValuesStayInsideTheirSegment(String value) throws Exception {
    server.enqueue(json(200, REFUND_JSON));
    try (SafeRetryClient c = underApiV2(KeyStore.inMemory())) {
      c.execute(REFUND, PARAMS, RequestOptions.none().withPathParam("cust", value));
    }
    okhttp3.HttpUrl sent = drain(server).get(0).getUrl();
    // Exactly one segment between "customers" and "refunds", holding the value as given.
    assertThat(sent.pathSegments())
        .containsExactly("api", "v2", "v1", "customers", value, "refunds");
    assertThat(sent.encodedPathSegments().get(4)).isNotIn(".", "..", "%2e%2e", "%2E%2E");
  }

  @Test
  void templatesWithDotSegmentsOrPartialVariablesAreRefused() {
    for (String bad :
        new String[] {
          "/v1/../admin",
          "/v1/./charges",
          "/v1/charges/{id}.json",
          "/v1/{a}{b}",
          "/v1/c?x=1",
          "/v1/a b"
        }) {
      assertThatThrownBy(() -> Operation.post(bad, Object.class, Object.class))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(bad);
    }
  }

  @Test
  void aPercentEscapeWrittenInTheTemplateIsSentAsWrittenNotEncodedTwice() throws Exception {
    server.enqueue(json(200, REFUND_JSON));
    Operation<RefundCreateParams, Refund> spaced =
        Operation.post("/v1/my%20shop/{cust}/refunds", RefundCreateParams.class, Refund.class);
    try (SafeRetryClient c = underApiV2(KeyStore.inMemory())) {
      c.execute(spaced, PARAMS, RequestOptions.none().withPathParam("cust", "a b"));
    }
    okhttp3.HttpUrl sent = drain(server).get(0).getUrl();
    assertThat(sent.encodedPath()).isEqualTo("/api/v2/v1/my%20shop/a%20b/refunds");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/v1/%2e%2e/admin", "/v1/%2E%2E/admin", "/v1/.%2e/x", "/v1/%2e/x"})
  void anEncodedDotSegmentInTheTemplateIsRefusedNamingTheTemplate(String template) {
    assertThatThrownBy(() -> Operation.post(template, RefundCreateParams.class, Refund.class))
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(template)
        .hasMessageNotContaining("variable");
  }

  @ParameterizedTest
  @ValueSource(strings = {"..", "."})
  void aDotSegmentVariableIsRefusedNamingTheVariable(String value) {
    try (SafeRetryClient c = underApiV2(KeyStore.inMemory())) {
      assertThatThrownBy(
              () -> c.execute(REFUND, PARAMS, RequestOptions.none().withPathParam("cust", value)))
          .isExactlyInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("path variable {cust}");
    }
    assertThat(server.getRequestCount()).isZero();
  }
}
