package dev.saferetry.testing.provider;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * The Spring TestContext side of {@link WithFakeProvider}, registered in {@code
 * META-INF/spring.factories}: the factory reads the annotation and returns a customizer that starts
 * the provider when Spring builds the test's context. The customizer is a record, so that test
 * classes with the same annotation share a cached context, as Spring requires of customizers.
 */
final class SpringHook implements ContextCustomizerFactory {
  private static final Pattern CLIENT = Pattern.compile("[A-Za-z0-9_-]+");

  @Override
  public ContextCustomizer createContextCustomizer(
      Class<?> testClass, List<ContextConfigurationAttributes> configAttributes) {
    WithFakeProvider with =
        TestContextAnnotationUtils.findMergedAnnotation(testClass, WithFakeProvider.class);
    if (with == null) {
      return null;
    }
    if (!CLIENT.matcher(with.client()).matches()) {
      throw new IllegalArgumentException(
          "@WithFakeProvider(client) must be a client's name (letters, digits, - and _) on "
              + testClass.getName()
              + ": '"
              + with.client()
              + "'");
    }
    return new Customizer(with.client(), with.dialect());
  }

  /** The bean name of the provider of {@code client}. */
  static String beanName(String client) {
    return "saferetryFakeProvider." + client;
  }

  /** Starts the provider, points the client at it and ties its life to the context's. */
  record Customizer(String client, Dialect dialect) implements ContextCustomizer {
    @Override
    public void customizeContext(
        ConfigurableApplicationContext context, MergedContextConfiguration config) {
      FakeProvider provider = FakeProvider.builder().dialect(dialect).start();
      String property = "saferetry.clients." + client + ".base-url";
      context
          .getEnvironment()
          .getPropertySources()
          .addFirst(new MapPropertySource(beanName(client), Map.of(property, provider.baseUrl())));
      ConfigurableListableBeanFactory beans = context.getBeanFactory();
      beans.registerSingleton(beanName(client), provider);
      if (beans instanceof DefaultSingletonBeanRegistry registry) {
        // Registered before every bean of the application, so destroyed after all of them: a
        // relay stopping with the context still reaches the provider.
        registry.registerDisposableBean(beanName(client), provider::close);
      } else {
        context.addApplicationListener(
            (ApplicationListener<ContextClosedEvent>) closed -> provider.close());
      }
    }
  }
}
