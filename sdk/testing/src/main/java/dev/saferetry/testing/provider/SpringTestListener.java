package dev.saferetry.testing.provider;

import org.springframework.core.Ordered;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestContextAnnotationUtils;
import org.springframework.test.context.TestExecutionListener;

/**
 * Gives each test method of a {@link WithFakeProvider} class a provider as new, although the cached
 * context (and its provider) outlives the test, and checks for duplicate effects after it when
 * strict. Registered in {@code META-INF/spring.factories}; does nothing for other test classes.
 *
 * <p>Ordered after the listeners that inject the test instance and mark contexts dirty (3000), and
 * before the one that opens the test's transaction (4000): Spring calls the "after" methods in
 * reverse, so the check runs after the transaction's rollback and before a dirty context is closed.
 */
final class SpringTestListener implements TestExecutionListener, Ordered {
  @Override
  public int getOrder() {
    return 3500;
  }

  @Override
  public void beforeTestMethod(TestContext test) {
    WithFakeProvider with = annotation(test);
    if (with != null) {
      provider(test, with).reset();
    }
  }

  @Override
  public void afterTestMethod(TestContext test) {
    WithFakeProvider with = annotation(test);
    if (with == null || !with.strict() || !test.hasApplicationContext()) {
      return;
    }
    FakeProvider provider = provider(test, with);
    provider.assertNoDuplicateEffects();
    provider.assertOneEffectPerKey();
  }

  private static WithFakeProvider annotation(TestContext test) {
    return TestContextAnnotationUtils.findMergedAnnotation(
        test.getTestClass(), WithFakeProvider.class);
  }

  private static FakeProvider provider(TestContext test, WithFakeProvider with) {
    return test.getApplicationContext()
        .getBean(SpringHook.beanName(with.client()), FakeProvider.class);
  }
}
