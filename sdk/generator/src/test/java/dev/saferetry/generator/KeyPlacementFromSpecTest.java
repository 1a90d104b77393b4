package dev.saferetry.generator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where each generated operation places its key: what the document says, else the rules. */
class KeyPlacementFromSpecTest {
  private static String constant(GeneratedSources s, String file, String name) {
    String src = s.sources().get(file);
    int at = src.indexOf("Operation<");
    at = src.indexOf(" " + name + " = ", at);
    return src.substring(at, src.indexOf(';', at)).replaceAll("\\s+", " ");
  }

  @Test
  void aDeclaredHeaderParameterCarriesTheKeyWithTheLimitItsDescriptionStates() {
    GeneratedSources s = Generator.generate(Specs.config("adyen-checkout.yaml", "p").build());
    assertThat(constant(s, "p/PaymentsApi.java", "CREATE"))
        .contains(".carryingKey(true)")
        .contains(".withKeyPlacement(KeyPlacement.header(\"Idempotency-Key\"))")
        .contains(".withKeyMaxLength(64)");
  }

  @Test
  void aDeclaredBodyFieldCarriesTheKeyAndLeavesTheRequestRecord() {
    GeneratedSources s = Generator.generate(Specs.config("square-payments.yaml", "p").build());
    assertThat(constant(s, "p/PaymentsApi.java", "CREATE"))
        .contains(".withKeyPlacement(KeyPlacement.bodyField(\"idempotency_key\"))")
        .contains(".withKeyMaxLength(45)");
    assertThat(s.sources().get("p/CreatePaymentRequest.java"))
        .doesNotContain("@JsonProperty(\"idempotency_key\")")
        .doesNotContain("idempotencyKey");
  }

  @Test
  void readsCarryNoKey() {
    GeneratedSources s =
        Generator.generate(Specs.config("stripe-charges.yaml", "p").preset("stripe").build());
    assertThat(constant(s, "p/ChargesApi.java", "LIST")).contains(".carryingKey(false)");
    assertThat(constant(s, "p/ChargesApi.java", "RETRIEVE")).contains(".carryingKey(false)");
  }

  @Test
  void whereTheDocumentIsSilentThePresetDecides() {
    GeneratedSources stripe =
        Generator.generate(Specs.config("stripe-charges.yaml", "p").preset("stripe").build());
    assertThat(constant(stripe, "p/ChargesApi.java", "CAPTURE"))
        .contains(".withKeyPlacement(KeyPlacement.header(\"Idempotency-Key\"))")
        .contains(".withKeyMaxLength(255)");
    GeneratedSources none = Generator.generate(Specs.config("stripe-charges.yaml", "p").build());
    assertThat(constant(none, "p/ChargesApi.java", "CAPTURE")).contains(".carryingKey(false)");
  }

  @Test
  void whereTheDocumentAndPresetAreSilentTheConfigurationDecides() {
    GeneratedSources s =
        Generator.generate(
            Specs.config("stripe-charges.yaml", "p")
                .silentWrites(KeyOverride.parse("header:X-Key:40"))
                .build());
    assertThat(constant(s, "p/ChargesApi.java", "CREATE"))
        .contains(".withKeyPlacement(KeyPlacement.header(\"X-Key\"))")
        .contains(".withKeyMaxLength(40)");
  }

  @Test
  void aConfiguredPlacementReplacesWhatTheDocumentSays() {
    GeneratedSources s =
        Generator.generate(
            Specs.config("adyen-checkout.yaml", "p")
                .keyPlacements(
                    Map.of(
                        "post-payments", KeyOverride.none(),
                        "post-payments-details", KeyOverride.parse("body:reference_key")))
                .build());
    assertThat(constant(s, "p/PaymentsApi.java", "CREATE")).contains(".carryingKey(false)");
    assertThat(constant(s, "p/PaymentsApi.java", "DETAILS"))
        .contains(".withKeyPlacement(KeyPlacement.bodyField(\"reference_key\"))");
  }

  @Test
  void aDescriptionOrAnExtensionMarksAHeaderOrAFieldAsAKey() {
    GeneratedSources s = Generator.generate(Specs.config("two-placements.yaml", "p").build());
    assertThat(constant(s, "p/TransfersApi.java", "CREATE"))
        .contains(".withKeyPlacement(KeyPlacement.header(\"X-Request-Key\"))");
    assertThat(constant(s, "p/TransfersApi.java", "REVERSE"))
        .contains(".withKeyPlacement(KeyPlacement.bodyField(\"request_token\"))");
  }

  @Test
  void aBodyFieldWhoseDescriptionSaysSoCarriesTheKeyWithTheLimitItStates() {
    GeneratedSources s = Generator.generate(Specs.config("described-body-key.yaml", "p").build());
    assertThat(constant(s, "p/TransfersApi.java", "CREATE"))
        .contains(".withKeyPlacement(KeyPlacement.bodyField(\"reference_id\"))")
        .contains(".withKeyMaxLength(40)");
    assertThat(s.sources().get("p/TransfersCreateRequest.java"))
        .doesNotContain("referenceId")
        .contains("@JsonProperty(\"note\")");
  }

  @Test
  void configuredNamesMarkHeadersAndFieldsAsKeys() {
    GeneratedSources s =
        Generator.generate(
            Specs.config("two-placements.yaml", "p")
                .keyFieldNames(List.of("request_token"))
                .build());
    assertThat(constant(s, "p/TransfersApi.java", "CREATE"))
        .contains(".withKeyPlacement(KeyPlacement.header(\"X-Request-Key\"))")
        .contains(".withKeyMaxLength(40)");
    assertThat(constant(s, "p/TransfersApi.java", "REVERSE"))
        .contains(".withKeyPlacement(KeyPlacement.bodyField(\"request_token\"))")
        .contains(".withKeyMaxLength(32)");
  }

  @Test
  void aLimitStatedInProseIsRead() {
    assertThat(KeyRules.statedMax("A unique identifier with a maximum of 64 characters."))
        .isEqualTo(64);
    assertThat(KeyRules.statedMax("Up to 255 characters long.")).isEqualTo(255);
    assertThat(KeyRules.statedMax("A UUID.")).isZero();
    assertThat(KeyRules.statedMax(null)).isZero();
  }
}
