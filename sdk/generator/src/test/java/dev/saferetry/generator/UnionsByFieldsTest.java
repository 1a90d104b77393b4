package dev.saferetry.generator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;

/** Unions whose variants only their fields tell apart, read by the compiled generated code. */
class UnionsByFieldsTest {
  @Test
  void variantsWithFieldsOfTheirOwnAreToldApartAndOthersStayRawJson() throws Exception {
    GeneratedSources sources = Generator.generate(Specs.config("unions.yaml", "u").build());
    try (Compiled c = Compiled.compile(sources, Compiled.workDir("unions"))) {
      // Jackson finds the variants by name: through the loader of the compiled classes.
      ObjectMapper mapper = new ObjectMapper();
      mapper.setTypeFactory(mapper.getTypeFactory().withClassLoader(c.loader()));
      Class<?> holder = c.type("u.Holder");
      Method source = holder.getMethod("source");
      Method limit = holder.getMethod("limit");

      Object card = mapper.readValue("{\"source\":{\"number_last4\":\"4242\"}}", holder);
      assertThat(source.invoke(card).getClass().getName()).isEqualTo("u.Card");
      Object bank = mapper.readValue("{\"source\":{\"iban\":\"DE89\",\"bic\":\"X\"}}", holder);
      assertThat(source.invoke(bank).getClass().getName()).isEqualTo("u.BankTransfer");
      Object other = mapper.readValue("{\"source\":{\"wallet\":\"w_1\"}}", holder);
      assertThat(source.invoke(other).getClass().getName()).isEqualTo("u.Holder$Source$Unknown");
      assertThat(mapper.writeValueAsString(other)).isEqualTo("{\"source\":{\"wallet\":\"w_1\"}}");

      assertThat(limit.getReturnType()).isEqualTo(Object.class);
      Object amount = mapper.readValue("{\"limit\":{\"value\":5}}", holder);
      assertThat(limit.invoke(amount)).isInstanceOf(java.util.Map.class);
    }
  }
}
