package dev.saferetry.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.internal.ResponseReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Generic response types: captured, compared and decoded. */
class TypeRefTest {
  private static final ResponseReader READER =
      new ResponseReader(
          new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false));

  record Page<T>(String object, @JsonProperty("has_more") boolean hasMore, List<T> data) {}

  private static final String CHARGE =
      "{\"id\":\"ch_1\",\"object\":\"charge\",\"amount\":2000,\"amount_refunded\":0,"
          + "\"currency\":\"usd\",\"status\":\"succeeded\",\"created\":1700000000,"
          + "\"livemode\":false}";

  static byte[] bytes(String json) {
    return json.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aListOfRecordsDecodesAsRecords() throws IOException {
    List<Charge> charges =
        READER.read(bytes("[" + CHARGE + "," + CHARGE + "]"), TypeRef.listOf(Charge.class));
    assertThat(charges).hasSize(2);
    assertThat(charges.get(0)).isInstanceOf(Charge.class);
    assertThat(charges.get(0).amountRefunded()).isZero();
    assertThat(charges.get(1).id()).isEqualTo("ch_1");
  }

  @Test
  void aGenericPageDecodesItsItemsAsTheirType() throws IOException {
    String json = "{\"object\":\"list\",\"has_more\":true,\"data\":[" + CHARGE + "]}";
    Page<Charge> page = READER.read(bytes(json), new TypeRef<Page<Charge>>() {});
    assertThat(page.hasMore()).isTrue();
    Charge first = page.data().get(0); // a ClassCastException here if items were maps
    assertThat(first.currency()).isEqualTo("usd");
  }

  @Test
  void nestedGenericsDecodeAtEveryLevel() throws IOException {
    String json =
        "{\"eu\":[{\"object\":\"list\",\"has_more\":false,\"data\":[" + CHARGE + "]}],\"us\":[]}";
    Map<String, List<Page<Charge>>> byRegion =
        READER.read(bytes(json), new TypeRef<Map<String, List<Page<Charge>>>>() {});
    assertThat(byRegion.get("eu").get(0).data().get(0).amount()).isEqualTo(2000);
    assertThat(byRegion.get("us")).isEmpty();
  }

  @Test
  void factoriesEqualTheSameTypeWrittenAsASubclass() {
    assertThat(TypeRef.listOf(Charge.class)).isEqualTo(new TypeRef<List<Charge>>() {});
    assertThat(TypeRef.listOf(Charge.class).hashCode())
        .isEqualTo(new TypeRef<List<Charge>>() {}.hashCode());
    assertThat(TypeRef.mapOf(TypeRef.listOf(Charge.class)))
        .isEqualTo(new TypeRef<Map<String, List<Charge>>>() {});
    assertThat(TypeRef.of(Charge.class)).isEqualTo(new TypeRef<Charge>() {});
    assertThat(TypeRef.listOf(Charge.class)).isNotEqualTo(TypeRef.listOf(String.class));
    assertThat(TypeRef.listOf(Charge.class).rawType()).isEqualTo(List.class);
    assertThat(TypeRef.listOf(Charge.class).toString())
        .isEqualTo("TypeRef<java.util.List<dev.saferetry.examples.payments.Charge>>");
  }

  @Test
  void factoryTypesDecodeLikeSubclassTypes() throws IOException {
    Map<String, List<Charge>> m =
        READER.read(bytes("{\"a\":[" + CHARGE + "]}"), TypeRef.mapOf(TypeRef.listOf(Charge.class)));
    assertThat(m.get("a").get(0)).isInstanceOf(Charge.class);
  }

  static <T> TypeRef<List<T>> captureOfAVariable() {
    return new TypeRef<List<T>>() {};
  }

  @Test
  void aTypeVariableIsRefusedBecauseItIsLostAtRunTime() {
    assertThatThrownBy(TypeRefTest::captureOfAVariable)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("type variable T");
  }

  @Test
  @SuppressWarnings({"rawtypes", "unchecked"})
  void aRawSubclassIsRefused() {
    assertThatThrownBy(() -> new TypeRef() {})
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("type argument");
  }

  @Test
  void anEmptyBodyReadsAsNullAndABadOneFails() throws IOException {
    assertThat(READER.read(new byte[0], TypeRef.of(Charge.class))).isNull();
    assertThatThrownBy(() -> READER.read(bytes("[1,2"), TypeRef.listOf(Integer.class)))
        .isInstanceOf(IOException.class);
    assertThatThrownBy(() -> READER.read(bytes("{\"a\":1}"), TypeRef.listOf(Charge.class)))
        .isInstanceOf(IOException.class);
  }

  @Test
  void theJacksonTypeIsBuiltOnlyInsideTheReader() {
    assertThat(READER.javaType(new TypeRef<Page<Charge>>() {}).toCanonical())
        .isEqualTo("dev.saferetry.codec.TypeRefTest$Page<dev.saferetry.examples.payments.Charge>");
  }
}
