package dev.saferetry.testing.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import dev.saferetry.CallResult;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.PaymentsClient;
import dev.saferetry.testing.FakeTime;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.junit.jupiter.SpringJUnitConfig;

/**
 * {@code @WithFakeProvider} in real Spring test contexts: test classes of its own, nested so the
 * build's own run skips them, run here through JUnit's engine test kit with Spring's extension.
 */
class WithFakeProviderTest {
  static final List<FakeProvider> SEEN = new CopyOnWriteArrayList<>();
  static final AtomicInteger STATUS_AT_SHUTDOWN = new AtomicInteger();
  private static final String ORDER = "{\"amount\":100,\"currency\":\"eur\",\"description\":\"o\"}";

  private static Events run(Class<?>... cases) {
    SEEN.clear();
    var kit = EngineTestKit.engine("junit-jupiter");
    for (Class<?> c : cases) {
      kit = kit.selectors(selectClass(c));
    }
    return kit.execute().testEvents();
  }

  /** An application's configuration: the client reads its base URL from the property. */
  @Configuration
  static class PaymentsConfig {
    @Bean(destroyMethod = "close")
    SafeRetryClient payments(@Value("${saferetry.clients.payments.base-url}") String baseUrl) {
      FakeTime time = new FakeTime();
      return SafeRetryClient.builder().baseUrl(baseUrl).clock(time).sleeper(time).build();
    }
  }

  @SpringJUnitConfig(PaymentsConfig.class)
  @WithFakeProvider(client = "payments")
  @TestPropertySource(properties = "saferetry.clients.payments.base-url=http://127.0.0.1:9")
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class ChargeThroughTheContext {
    @Autowired FakeProvider provider;
    @Autowired SafeRetryClient client;
    @Autowired Environment environment;

    @Test
    @Order(1)
    void aLostAnswerChargesOnce() {
      assertThat(environment.getProperty("saferetry.clients.payments.base-url"))
          .isEqualTo(provider.baseUrl());
      provider.arm(Fault.loseAnswer());
      CallResult<Charge> charge =
          new PaymentsClient(client).charges().create(ChargeCreateParams.of(1999, "eur"));
      assertThat(charge.attempts()).hasSize(2);
      assertThat(provider.received()).hasSize(2);
      assertThat(provider.effects()).hasSize(1);
      SEEN.add(provider);
    }

    @Test
    @Order(2)
    void theNextTestFindsTheProviderAsNew() {
      assertThat(provider.received()).isEmpty();
      assertThat(provider.effects()).isEmpty();
      SEEN.add(provider);
    }
  }

  @Test
  void theNamedClientIsPointedAtTheProviderWhichIsInjectedAndResetBetweenTests() {
    run(ChargeThroughTheContext.class).assertStatistics(s -> s.started(2).succeeded(2));
    assertThat(SEEN).hasSize(2);
    assertThat(SEEN.get(0)).isSameAs(SEEN.get(1));
  }

  @SpringJUnitConfig(PaymentsConfig.class)
  @WithFakeProvider(client = "payments")
  static class SameAnnotation {
    @Autowired FakeProvider provider;

    @Test
    void seen() {
      SEEN.add(provider);
    }
  }

  @SpringJUnitConfig(PaymentsConfig.class)
  @WithFakeProvider(client = "payments")
  static class SameAnnotationAgain extends SameAnnotation {}

  @Test
  void classesWithTheSameAnnotationShareOneContextAndProvider() {
    run(SameAnnotation.class, SameAnnotationAgain.class)
        .assertStatistics(s -> s.started(2).succeeded(2));
    assertThat(SEEN).hasSize(2);
    assertThat(SEEN.get(0)).isSameAs(SEEN.get(1));
  }

  @SpringJUnitConfig(PaymentsConfig.class)
  @WithFakeProvider(client = "payments")
  static class Duplicate {
    @Autowired FakeProvider provider;

    @Test
    void chargesOneOrderUnderTwoKeys() {
      chargeTwice(provider);
    }
  }

  @SpringJUnitConfig(PaymentsConfig.class)
  @WithFakeProvider(client = "payments", strict = false)
  static class LenientDuplicate extends Duplicate {}

  static void chargeTwice(FakeProvider provider) {
    RawHttp raw = new RawHttp(provider.baseUrl(), Map.of());
    raw.json("POST", "/v1/charges", ORDER, "Idempotency-Key", "first");
    raw.json("POST", "/v1/charges", ORDER, "Idempotency-Key", "second");
  }

  @Test
  void aStrictHookFailsATestThatChargedTwiceAndALenientOneDoesNot() {
    run(Duplicate.class)
        .assertThatEvents()
        .haveExactly(
            1,
            event(
                test("chargesOneOrderUnderTwoKeys"),
                finishedWithFailure(
                    instanceOf(AssertionError.class), message(m -> m.contains("first")))));
    run(LenientDuplicate.class).assertStatistics(s -> s.started(1).succeeded(1));
  }

  /** A bean that calls the provider while the context closes, as a stopping relay would. */
  static final class CallsOnClose implements AutoCloseable {
    private final String baseUrl;

    CallsOnClose(String baseUrl) {
      this.baseUrl = baseUrl;
    }

    @Override
    public void close() {
      RawHttp raw = new RawHttp(baseUrl, Map.of());
      STATUS_AT_SHUTDOWN.set(
          raw.json("POST", "/v1/charges", ORDER, "Idempotency-Key", "k").status());
    }
  }

  @Configuration
  static class ClosingConfig {
    @Bean
    CallsOnClose callsOnClose(@Value("${saferetry.clients.payments.base-url}") String baseUrl) {
      return new CallsOnClose(baseUrl);
    }
  }

  @WithFakeProvider(client = "payments")
  static class Annotated {}

  @Test
  void theProviderOutlivesTheApplicationsBeansAndClosesWithTheContext() {
    ContextCustomizer customizer =
        new SpringHook().createContextCustomizer(Annotated.class, List.of());
    AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
    customizer.customizeContext(context, null);
    context.register(ClosingConfig.class);
    context.refresh();
    FakeProvider provider = context.getBean(FakeProvider.class);
    STATUS_AT_SHUTDOWN.set(0);

    context.close();

    assertThat(STATUS_AT_SHUTDOWN).hasValue(201);
    assertThatThrownBy(() -> new RawHttp(provider.baseUrl(), Map.of()).get("/v1/charges"))
        .isInstanceOf(UncheckedIOException.class);
  }

  @WithFakeProvider(client = "payments.live")
  static class BadName {}

  @Test
  void aClientNameThatIsNotAPropertyKeyIsRefusedByName() {
    assertThatThrownBy(() -> new SpringHook().createContextCustomizer(BadName.class, List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'payments.live'")
        .hasMessageContaining(BadName.class.getName());
  }

  @Test
  void aTestClassWithoutTheAnnotationGetsNoProvider() {
    assertThat(new SpringHook().createContextCustomizer(WithFakeProviderTest.class, List.of()))
        .isNull();
  }

  @WithFakeProvider(client = "payments", dialect = Dialect.STRIPE)
  static class Stripe {}

  @Test
  void theProviderSpeaksTheAnnotatedDialect() {
    AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
    new SpringHook()
        .createContextCustomizer(Stripe.class, List.of())
        .customizeContext(context, null);
    context.refresh();
    try (context) {
      assertThat(context.getBean(FakeProvider.class).dialect()).isEqualTo(Dialect.STRIPE);
    }
  }
}
