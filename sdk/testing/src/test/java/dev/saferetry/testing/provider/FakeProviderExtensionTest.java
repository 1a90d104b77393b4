package dev.saferetry.testing.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * The extension, run on test classes of its own through JUnit's engine test kit. The classes below
 * are nested, so the build's own test run skips them; each is run here and its events asserted.
 */
class FakeProviderExtensionTest {
  static final List<FakeProvider> SEEN = new CopyOnWriteArrayList<>();
  private static final String ORDER =
      "{\"amount\":100,\"currency\":\"eur\",\"description\":\"o1\"}";

  private static Events run(Class<?> cases) {
    SEEN.clear();
    return EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(cases))
        .execute()
        .testEvents();
  }

  /** Charges one order twice, under two keys: the duplicate a retry with a new key makes. */
  static void chargeTwiceUnderTwoKeys(FakeProvider provider) {
    RawHttp raw = new RawHttp(provider.baseUrl(), Map.of());
    raw.json("POST", "/v1/charges", ORDER, "Idempotency-Key", "first");
    raw.json("POST", "/v1/charges", ORDER, "Idempotency-Key", "second");
  }

  @ExtendWith(FakeProviderExtension.class)
  static class FieldsAndParameters {
    FakeProvider provider;
    FakeProvider seenBeforeEach;

    @BeforeEach
    void before(FakeProvider p) {
      seenBeforeEach = p;
    }

    @Test
    void first(FakeProvider p) {
      assertThat(p).isSameAs(provider).isSameAs(seenBeforeEach);
      SEEN.add(p);
      new RawHttp(p.baseUrl(), Map.of()).json("POST", "/v1/charges", ORDER, "Idempotency-Key", "k");
    }

    @Test
    void second(FakeProvider p) {
      assertThat(p).isSameAs(provider);
      assertThat(p.received()).isEmpty();
      SEEN.add(p);
    }

    @Nested
    class Inner {
      FakeProvider own;

      @Test
      void theOuterAndInnerFieldsHoldTheSameProvider() {
        assertThat(own).isNotNull().isSameAs(provider);
        SEEN.add(own);
      }
    }
  }

  @Test
  void eachTestGetsAFreshProviderInItsFieldsAndParametersClosedAfterIt() {
    Events events = run(FieldsAndParameters.class);

    events.assertStatistics(s -> s.started(3).succeeded(3));
    assertThat(SEEN).hasSize(3).doesNotHaveDuplicates();
    for (FakeProvider p : SEEN) {
      assertThatThrownBy(() -> new RawHttp(p.baseUrl(), Map.of()).get("/v1/charges"))
          .as("closed after its test")
          .isInstanceOf(UncheckedIOException.class);
    }
  }

  @ExtendWith(FakeProviderExtension.class)
  static class DuplicateUnderStrict {
    @Test
    void chargesOneOrderTwice(FakeProvider provider) {
      chargeTwiceUnderTwoKeys(provider);
      assertThat(provider.effects()).hasSize(2); // the test's own assertions pass
    }

    @Test
    void chargesTwoOrdersOnce(FakeProvider provider) {
      RawHttp raw = new RawHttp(provider.baseUrl(), Map.of());
      raw.json("POST", "/v1/charges", ORDER, "Idempotency-Key", "a");
      raw.json("POST", "/v1/charges", ORDER, "Idempotency-Key", "a");
      raw.json("POST", "/v1/charges", ORDER.replace("o1", "o2"), "Idempotency-Key", "b");
    }
  }

  @Test
  void strictModeFailsATestWhoseRequestsMadeADuplicateEffect() {
    Events events = run(DuplicateUnderStrict.class);

    events.assertStatistics(s -> s.started(2).succeeded(1).failed(1));
    events
        .assertThatEvents()
        .haveExactly(
            1,
            event(
                test("chargesOneOrderTwice"),
                finishedWithFailure(
                    instanceOf(AssertionError.class),
                    message(
                        m ->
                            m.contains("2 effects of one request POST /v1/charges")
                                && m.contains("[first, second]")))));
  }

  static class DuplicateUnderLenient {
    @RegisterExtension
    static final FakeProviderExtension PROVIDERS = new FakeProviderExtension().lenient();

    @Test
    void chargesOneOrderTwice(FakeProvider provider) {
      chargeTwiceUnderTwoKeys(provider);
    }
  }

  @Test
  void aLenientExtensionLeavesDuplicatesToTheTest() {
    assertThat(DuplicateUnderLenient.PROVIDERS.isStrict()).isFalse();

    run(DuplicateUnderLenient.class).assertStatistics(s -> s.started(1).succeeded(1));
  }

  static class Configured {
    @RegisterExtension
    static final FakeProviderExtension STRIPE =
        FakeProviderExtension.of(
            FakeProvider.builder().dialect(Dialect.STRIPE).keyHeader("Idempotency-Key"));

    @Test
    void speaksStripe(FakeProvider provider) {
      assertThat(provider.dialect()).isEqualTo(Dialect.STRIPE);
      assertThat(new RawHttp(provider.baseUrl(), Map.of()).get("/v1/charges").status())
          .isEqualTo(401);
    }
  }

  @Test
  void aRegisteredExtensionStartsProvidersWithItsSettings() {
    run(Configured.class).assertStatistics(s -> s.started(1).succeeded(1));
  }

  @ExtendWith(FakeProviderExtension.class)
  static class StaticField {
    static FakeProvider shared;

    @Test
    void neverRuns() {}
  }

  @ExtendWith(FakeProviderExtension.class)
  static class ConstructorParameter {
    ConstructorParameter(FakeProvider provider) {}

    @Test
    void neverRuns() {}
  }

  @Test
  void aStaticFieldOrAConstructorParameterIsRefusedWithHowToFixIt() {
    run(StaticField.class)
        .assertThatEvents()
        .haveExactly(
            1,
            event(
                test("neverRuns"),
                finishedWithFailure(
                    instanceOf(ExtensionConfigurationException.class),
                    message(
                        m -> m.contains("make the field StaticField.shared an instance field")))));
    run(ConstructorParameter.class)
        .assertThatEvents()
        .haveExactly(
            1,
            event(
                test("neverRuns"),
                finishedWithFailure(
                    instanceOf(ParameterResolutionException.class),
                    message(m -> m.contains("a FakeProvider is started for each test")))));
  }
}
