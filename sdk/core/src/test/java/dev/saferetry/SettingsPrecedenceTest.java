package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.codec.BodyCodec;
import dev.saferetry.error.CallFailedException;
import dev.saferetry.error.Reason;
import java.util.List;
import java.util.Map;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * One order for every setting: preset, then client, then operation, then call; each later layer
 * replaces what an earlier one set (identity headers add up instead). Each test sets the same
 * settings at one more layer and reads on the wire which values were sent: a header, and the body
 * codec (which a call cannot change: the operation's or the client's stays).
 */
class SettingsPrecedenceTest extends ClientFixture {
  private static final String HEADER = "Api-Version";
  private static final String FORM = "application/x-www-form-urlencoded";
  private static final String JSON = "application/json";
  private static final ProviderPreset PRESET =
      SafeRetryClient.builder()
          .header(HEADER, "preset")
          .codec(BodyCodec.form())
          .identityHeaders("Acme-Account")
          .toPreset("acme");
  private static final Operation<Object, Object> CREATE =
      Operation.post("/v1/things", Object.class, Object.class);

  private RecordedRequest sent(
      SafeRetryClientBuilder b, Operation<Object, Object> op, RequestOptions o) throws Exception {
    server.enqueue(charge());
    try (SafeRetryClient c = b.build()) {
      call(c, op, Map.of("amount", 1), o);
    }
    return server.takeRequest();
  }

  @Test
  void thePresetsValueIsSentWhenNothingLaterSetsIt() throws Exception {
    RecordedRequest r = sent(builder().preset(PRESET), CREATE, RequestOptions.none());
    assertThat(r.getHeaders().values(HEADER)).containsExactly("preset");
    assertThat(r.getHeaders().get("Content-Type")).startsWith(FORM);
  }

  @Test
  void theClientsValueReplacesThePresets() throws Exception {
    RecordedRequest r =
        sent(
            builder().preset(PRESET).header(HEADER, "client").codec(BodyCodec.json()),
            CREATE,
            RequestOptions.none());
    assertThat(r.getHeaders().values(HEADER)).containsExactly("client");
    assertThat(r.getHeaders().get("Content-Type")).startsWith(JSON);
  }

  @Test
  void aPresetAppliedAfterAClientSettingReplacesIt() throws Exception {
    RecordedRequest r =
        sent(
            builder().header(HEADER, "client").codec(BodyCodec.json()).preset(PRESET),
            CREATE,
            RequestOptions.none());
    assertThat(r.getHeaders().values(HEADER)).containsExactly("preset");
    assertThat(r.getHeaders().get("Content-Type")).startsWith(FORM);
  }

  @Test
  void theOperationsValueReplacesTheClients() throws Exception {
    RecordedRequest r =
        sent(
            builder().preset(PRESET).header(HEADER, "client").codec(BodyCodec.json()),
            CREATE.withHeader(HEADER, "operation").withCodec(BodyCodec.form()),
            RequestOptions.none());
    assertThat(r.getHeaders().values(HEADER)).containsExactly("operation");
    assertThat(r.getHeaders().get("Content-Type")).startsWith(FORM);
  }

  @Test
  void theCallsValueReplacesTheOperations() throws Exception {
    RecordedRequest r =
        sent(
            builder().preset(PRESET).header(HEADER, "client").codec(BodyCodec.form()),
            CREATE.withHeader(HEADER, "operation").withCodec(BodyCodec.json()),
            RequestOptions.none().withHeader(HEADER, "call"));
    assertThat(r.getHeaders().values(HEADER)).containsExactly("call");
    assertThat(r.getHeaders().get("Content-Type")).startsWith(JSON);
  }

  @Test
  void aCallKeepsTheClientsCodecWhenTheOperationNamesNone() throws Exception {
    RecordedRequest r =
        sent(
            builder().preset(PRESET).codec(BodyCodec.json()),
            CREATE,
            RequestOptions.none().withHeader(HEADER, "call"));
    assertThat(r.getHeaders().values(HEADER)).containsExactly("call");
    assertThat(r.getHeaders().get("Content-Type")).startsWith(JSON);
  }

  @Test
  void headerNamesOfDifferentLayersAreOneHeaderWhateverTheirCase() throws Exception {
    RecordedRequest r =
        sent(
            builder().preset(PRESET),
            CREATE.withHeader("api-version", "operation"),
            RequestOptions.none());
    assertThat(r.getHeaders().values(HEADER)).containsExactly("operation");
  }

  @Test
  void identityHeadersOfEveryLayerAddUp() {
    Operation<Object, Object> op = CREATE.withIdentityHeaders("Acme-Region");
    try (SafeRetryClient c = builder().preset(PRESET).identityHeaders("Acme-Context").build()) {
      server.enqueue(charge());
      call(c, op, Map.of("amount", 1), identity("a", "c", "r"));
      for (RequestOptions other :
          List.of(identity("A", "c", "r"), identity("a", "C", "r"), identity("a", "c", "R"))) {
        assertThatThrownBy(() -> call(c, op, Map.of("amount", 1), other))
            .isInstanceOf(CallFailedException.class)
            .satisfies(
                e ->
                    assertThat(((CallFailedException) e).reason())
                        .isEqualTo(Reason.INTENT_MISMATCH));
      }
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  private static RequestOptions identity(String account, String context, String region) {
    return RequestOptions.none()
        .withIntentId("order-1/create")
        .withHeader("Acme-Account", account)
        .withHeader("Acme-Context", context)
        .withHeader("Acme-Region", region);
  }
}
