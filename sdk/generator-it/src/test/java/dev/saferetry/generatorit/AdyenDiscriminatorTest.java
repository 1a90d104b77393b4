package dev.saferetry.generatorit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.generatorit.adyen.ShopperIdPaymentMethod;
import dev.saferetry.generatorit.adyen.UpiPaymentMethod;
import dev.saferetry.generatorit.adyen.ValidateShopperIdRequest;
import org.junit.jupiter.api.Test;

/**
 * Adyen's ShopperIdPaymentMethod is a base schema whose discriminator maps {@code type} values to
 * the schemas that extend it: a sealed interface, its mapped variants, and Unknown for the rest.
 */
class AdyenDiscriminatorTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Test
  void theDiscriminatorsMappingPicksTheVariant() throws Exception {
    ValidateShopperIdRequest r =
        MAPPER.readValue(
            "{\"merchantAccount\":\"AcmeCOM\",\"paymentMethod\":{\"type\":\"upi_collect\","
                + "\"virtualPaymentAddress\":\"shopper@upi\"}}",
            ValidateShopperIdRequest.class);
    assertThat(r.paymentMethod()).isInstanceOf(UpiPaymentMethod.class);
    assertThat(((UpiPaymentMethod) r.paymentMethod()).virtualPaymentAddress())
        .isEqualTo("shopper@upi");
  }

  @Test
  void aValueTheMappingDoesNotKnowIsKeptWhole() throws Exception {
    String json = "{\"type\":\"pix_key\",\"key\":\"+5511999999999\"}";
    ShopperIdPaymentMethod m = MAPPER.readValue(json, ShopperIdPaymentMethod.class);
    assertThat(m).isInstanceOf(ShopperIdPaymentMethod.Unknown.class);
    assertThat(MAPPER.readTree(MAPPER.writeValueAsString(m))).isEqualTo(MAPPER.readTree(json));
  }

  @Test
  void aVariantIsWrittenWithItsDiscriminatorValue() throws Exception {
    UpiPaymentMethod upi =
        UpiPaymentMethod.builder().type("upi_collect").virtualPaymentAddress("a@upi").build();
    assertThat(MAPPER.readTree(MAPPER.writeValueAsString(upi)))
        .isEqualTo(
            MAPPER.readTree("{\"type\":\"upi_collect\",\"virtualPaymentAddress\":\"a@upi\"}"));
  }
}
