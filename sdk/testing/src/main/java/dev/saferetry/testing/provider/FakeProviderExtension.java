package dev.saferetry.testing.provider;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A JUnit 5 extension that gives each test a fresh {@link FakeProvider}: started before the test
 * (and its {@code @BeforeEach} methods), set into every instance field of type {@code FakeProvider}
 * and passed to every such parameter of the test, {@code @BeforeEach} and {@code AfterEach}
 * methods, and closed after it.
 *
 * <pre>{@code
 * @ExtendWith(FakeProviderExtension.class)
 * class CheckoutTest {
 *   FakeProvider provider;
 *
 *   @Test
 *   void aLostAnswerChargesOnce() {
 *     provider.arm(Fault.loseAnswer());
 *     checkout(provider.baseUrl());
 *     assertEquals(1, provider.effects().size());
 *   }
 * }
 * }</pre>
 *
 * <p>Strict by default: after each test it checks {@link FakeProvider#assertNoDuplicateEffects()}
 * and {@link FakeProvider#assertOneEffectPerKey()}, and fails the test when a request was carried
 * out twice. {@link #lenient()} turns that off. To configure the providers, register it in a field:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final FakeProviderExtension STRIPE =
 *     FakeProviderExtension.of(FakeProvider.builder().dialect(Dialect.STRIPE));
 * }</pre>
 *
 * <p>Immutable and thread-safe: tests running in parallel each get their own provider.
 */
public final class FakeProviderExtension
    implements BeforeEachCallback, AfterEachCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(FakeProviderExtension.class);
  private static final String PROVIDER = "provider";

  private final FakeProvider.Builder settings;
  private final boolean strict;

  /** The default: providers of the reference JSON API ({@link FakeProvider#start()}), strict. */
  public FakeProviderExtension() {
    this(null, true);
  }

  private FakeProviderExtension(FakeProvider.Builder settings, boolean strict) {
    this.settings = settings;
    this.strict = strict;
  }

  /**
   * {@return an extension whose providers {@code settings} starts, strict}
   *
   * @param settings the providers' settings; the extension only starts providers with them, and a
   *     change to the builder afterwards applies to the providers started afterwards
   */
  public static FakeProviderExtension of(FakeProvider.Builder settings) {
    return new FakeProviderExtension(Objects.requireNonNull(settings, "settings"), true);
  }

  /** {@return this extension without the duplicate-effect checks after each test} */
  public FakeProviderExtension lenient() {
    return new FakeProviderExtension(settings, false);
  }

  /** {@return whether a test fails when its requests made a duplicate effect} */
  public boolean isStrict() {
    return strict;
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    FakeProvider provider = settings == null ? FakeProvider.start() : settings.start();
    context.getStore(NAMESPACE).put(PROVIDER, provider);
    for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
      for (Field field : providerFields(instance.getClass())) {
        try {
          field.setAccessible(true);
          field.set(instance, provider);
        } catch (IllegalAccessException | RuntimeException e) {
          throw new ExtensionConfigurationException(
              "cannot set the FakeProvider field " + field.getName() + ": " + e.getMessage(), e);
        }
      }
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    FakeProvider provider = context.getStore(NAMESPACE).remove(PROVIDER, FakeProvider.class);
    if (provider == null) {
      return;
    }
    try {
      if (strict) {
        provider.assertNoDuplicateEffects();
        provider.assertOneEffectPerKey();
      }
    } finally {
      provider.close();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == FakeProvider.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    FakeProvider provider =
        parameter.getDeclaringExecutable() instanceof Constructor<?>
            ? null
            : context.getStore(NAMESPACE).get(PROVIDER, FakeProvider.class);
    if (provider == null) {
      throw new ParameterResolutionException(
          "a FakeProvider is started for each test: ask for it in a test, @BeforeEach or"
              + " @AfterEach method, or in an instance field, not in "
              + parameter.getDeclaringExecutable());
    }
    return provider;
  }

  /** The instance fields of type FakeProvider, of the class and its superclasses. */
  private static List<Field> providerFields(Class<?> type) {
    List<Field> fields = new ArrayList<>();
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        if (f.getType() != FakeProvider.class) {
          continue;
        }
        if (Modifier.isStatic(f.getModifiers()) || Modifier.isFinal(f.getModifiers())) {
          throw new ExtensionConfigurationException(
              "a FakeProvider is started for each test: make the field "
                  + c.getSimpleName()
                  + "."
                  + f.getName()
                  + " an instance field that is not final");
        }
        fields.add(f);
      }
    }
    return fields;
  }

  @Override
  public String toString() {
    return "FakeProviderExtension{" + (strict ? "strict" : "lenient") + "}";
  }
}
