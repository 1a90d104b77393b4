package dev.saferetry.testing.provider;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Points a named SafeRetry client of a Spring test's application context at a {@link FakeProvider}:
 * the provider is started with the context, its base URL becomes the property {@code
 * saferetry.clients.<client>.base-url} (above {@code application.yml} and every other property
 * source), it is a bean of the context (inject it with {@code @Autowired FakeProvider}), and it is
 * closed with the context.
 *
 * <pre>{@code
 * @SpringBootTest
 * @WithFakeProvider(client = "payments")
 * class CheckoutTest {
 *   @Autowired FakeProvider provider;
 *   @Autowired CheckoutService checkout;
 *
 *   @Test
 *   void aLostAnswerChargesOnce() {
 *     provider.arm(Fault.loseAnswer());
 *     checkout.placeOrder("order-1", 1999);
 *     assertEquals(1, provider.effects().size());
 *   }
 * }
 * }</pre>
 *
 * <p>Test classes with the same annotation (and otherwise the same configuration) share one cached
 * context, and so one provider: it is {@link FakeProvider#reset() reset} before each test method,
 * so that nothing of one test reaches the next. Strict by default, like {@link
 * FakeProviderExtension}: after each test it checks {@link FakeProvider#assertNoDuplicateEffects()}
 * and {@link FakeProvider#assertOneEffectPerKey()}, and fails the test when a request was carried
 * out twice.
 *
 * <p>It needs {@code spring-test} and {@code spring-context} (any build that runs Spring tests has
 * them); the rest of this artifact does not. The property name is the one SafeRetry's Spring Boot
 * starter reads; without the starter, read it yourself ({@code @Value}).
 *
 * <p>Found on the test class, its superclasses and, for {@code @Nested} classes, its enclosing
 * classes.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface WithFakeProvider {
  /**
   * The client's name: its key under {@code saferetry.clients}, e.g. {@code payments}. Letters,
   * digits, {@code -} and {@code _}.
   *
   * @return the client's name
   */
  String client();

  /**
   * The wire format the provider speaks. Default: {@link Dialect#JSON}.
   *
   * @return the dialect
   */
  Dialect dialect() default Dialect.JSON;

  /**
   * Whether a test fails when its requests made a duplicate effect. Default: true.
   *
   * @return whether to check for duplicates after each test
   */
  boolean strict() default true;
}
