package dev.saferetry.generatorit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.SafeRetryClient;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The module's list of generated clients names each execution's facade, each loadable. */
class ClientListTest {
  @Test
  void everyGeneratedFacadeIsListedOnceAndTakesASafeRetryClient() throws Exception {
    List<URL> lists =
        Collections.list(
            getClass().getClassLoader().getResources("META-INF/saferetry/typed-clients.list"));
    assertThat(lists).hasSize(1);
    List<String> names = new ArrayList<>();
    try (InputStream in = lists.get(0).openStream()) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        names.add(line);
      }
    }
    assertThat(names)
        .containsExactly(
            "dev.saferetry.generatorit.acme.AcmeTransfersClient",
            "dev.saferetry.generatorit.adyen.AdyenCheckoutApiClient",
            "dev.saferetry.generatorit.square.SquareClient",
            "dev.saferetry.generatorit.stripe.StripeClient");
    for (String name : names) {
      assertThat(Class.forName(name).getConstructor(SafeRetryClient.class)).isNotNull();
    }
  }
}
