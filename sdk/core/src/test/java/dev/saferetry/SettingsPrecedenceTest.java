package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.codec.BodyCodec;
import dev.saferetry.provider.ProviderPreset;
import java.util.Map;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * One order for every setting: preset, then client, then operation, then call; each later layer
 * replaces what an earlier one set. Each test sets the same setting at one more layer and reads on
 * the wire which value was sent.
 */
class SettingsPrecedenceTest extends ClientFixture {
  private static final String HEADER = "Api-Version";
  private static final ProviderPreset PRESET =
      ProviderPreset.of("acme", b -> b.defaultHeader(HEADER, "preset").bodyCodec(BodyCodec.form()));
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
    assertThat(r.getHeaders().get(HEADER)).isEqualTo("preset");
    assertThat(r.getHeaders().get("Content-Type")).startsWith("application/x-www-form-urlencoded");
  }

  @Test
  void theClientsValueReplacesThePresets() throws Exception {
    RecordedRequest r =
        sent(
            builder().preset(PRESET).defaultHeader(HEADER, "client").bodyCodec(BodyCodec.json()),
            CREATE,
            RequestOptions.none());
    assertThat(r.getHeaders().get(HEADER)).isEqualTo("client");
    assertThat(r.getHeaders().get("Content-Type")).startsWith("application/json");
  }

  @Test
  void theOperationsValueReplacesTheClients() throws Exception {
    RecordedRequest r =
        sent(
            builder().preset(PRESET).defaultHeader(HEADER, "client").bodyCodec(BodyCodec.json()),
            CREATE.withHeader(HEADER, "operation").withCodec(BodyCodec.form()),
            RequestOptions.none());
    assertThat(r.getHeaders().get(HEADER)).isEqualTo("operation");
    assertThat(r.getHeaders().get("Content-Type")).startsWith("application/x-www-form-urlencoded");
  }

  @Test
  void theCallsValueReplacesTheOperations() throws Exception {
    RecordedRequest r =
        sent(
            builder().preset(PRESET).defaultHeader(HEADER, "client"),
            CREATE.withHeader(HEADER, "operation"),
            RequestOptions.none().withHeader(HEADER, "call"));
    assertThat(r.getHeaders().values(HEADER)).containsExactly("call");
  }
}
