package dev.saferetry.generator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Includes copied onto a document they were not written for fail, naming what matched nothing. */
class IncludesMatchTest {
  @Test
  void aTagOfAnotherProvidersDocumentFailsNamingTheDocumentsTags() {
    // A tag the excerpt of Adyen's checkout document does not have.
    assertThatThrownBy(
            () ->
                Generator.generate(
                    Specs.config("adyen-checkout.yaml", "com.example.adyen")
                        .includeTags(List.of("Refunds"))
                        .build()))
        .isInstanceOfSatisfying(
            UnmatchedIncludeException.class,
            e -> {
              assertThat(e.unmatchedTags()).containsExactly("Refunds");
              assertThat(e.unmatchedOperations()).isEmpty();
            })
        .hasMessage(
            "includeTags: 'Refunds' matches no tag of adyen-checkout.yaml;"
                + " its tags: Payments, Utility, Modifications");
  }

  @Test
  void oneUnmatchedEntryAmongMatchingOnesFailsForThatEntryOnly() {
    assertThatThrownBy(
            () ->
                Generator.generate(
                    Specs.config("adyen-checkout.yaml", "com.example.adyen")
                        .includeTags(List.of("Payments", "payments-v2", "Modifications"))
                        .build()))
        .isInstanceOfSatisfying(
            UnmatchedIncludeException.class,
            e -> assertThat(e.unmatchedTags()).containsExactly("payments-v2"))
        .hasMessageStartingWith("includeTags: 'payments-v2' matches no tag of adyen-checkout.yaml")
        .hasMessageContaining("its tags: Payments,")
        .hasMessageNotContaining("'Payments'")
        .hasMessageNotContaining("'Modifications'");
  }

  @Test
  void unmatchedOperationsAreNamedWithTheNearestOperationIdsAFew() {
    assertThatThrownBy(
            () ->
                Generator.generate(
                    Specs.config("stripe-charges.yaml", "com.example.stripe")
                        .includeOperations(List.of("PostCharges", "CreatePayment", "PostRefunds"))
                        .build()))
        .isInstanceOfSatisfying(
            UnmatchedIncludeException.class,
            e ->
                assertThat(e.unmatchedOperations()).containsExactly("CreatePayment", "PostRefunds"))
        .hasMessageContaining(
            "includeOperations: 'CreatePayment' matches no operation of stripe-charges.yaml;"
                + " its operation ids: ")
        .hasMessageContaining(
            "includeOperations: 'PostRefunds' matches no operation of stripe-charges.yaml;"
                + " its operation ids: PostCharges, ")
        .hasMessageContaining(", \u2026")
        .hasMessageNotContaining("'PostCharges'");
  }

  @Test
  void anOperationAddressedByMethodAndPathMatches() {
    assertThat(
            Generator.generate(
                    Specs.config("stripe-charges.yaml", "com.example.stripe")
                        .includeOperations(List.of("POST /v1/charges"))
                        .build())
                .sources())
        .isNotEmpty();
  }

  @Test
  void aDocumentWithoutTagsSaysSo() {
    assertThatThrownBy(
            () ->
                Generator.generate(
                    Specs.config("stripe-charges.yaml", "com.example.stripe")
                        .includeTags(List.of("Charges"))
                        .build()))
        .isInstanceOf(UnmatchedIncludeException.class)
        .hasMessage("includeTags: 'Charges' matches no tag of stripe-charges.yaml; it has no tags");
  }

  @Test
  void anIncludedOperationOutsideTheIncludedTagsIsNotDroppedQuietly() {
    assertThatThrownBy(
            () ->
                Generator.generate(
                    Specs.config("adyen-checkout.yaml", "com.example.adyen")
                        .includeTags(List.of("Payments"))
                        .includeOperations(List.of("post-payments", "post-validateShopperId"))
                        .build()))
        .isInstanceOf(GeneratorException.class)
        .hasMessage("includeOperations [post-validateShopperId] have none of the tags [Payments]");
  }
}
