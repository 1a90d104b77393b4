package dev.saferetry.spring;

import dev.saferetry.SafeRetryClient;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Registers a {@link SafeRetryClient} bean for each key under {@code saferetry.clients}, named
 * after it, and a typed client bean ({@code <name>TypedClient}) where {@code typed-client} names a
 * facade listed in {@value #TYPED_CLIENTS}. The beans are built by {@link SafeRetryClientFactory}
 * when first needed, so they see every other bean (DataSource, registries, listeners).
 */
final class ClientBeanRegistrar implements BeanDefinitionRegistryPostProcessor {
  /** Where generated typed client facades are listed, one class name a line. */
  static final String TYPED_CLIENTS = "META-INF/saferetry/typed-clients.list";

  static final String FACTORY = "saferetryClientFactory";

  private final Environment environment;

  ClientBeanRegistrar(Environment environment) {
    this.environment = environment;
  }

  @Override
  public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
    Map<String, ClientProperties> clients =
        Binder.get(environment)
            .bind("saferetry.clients", Bindable.mapOf(String.class, ClientProperties.class))
            .orElse(Map.of());
    BeanFactory beans = (BeanFactory) registry;
    Set<String> listed = null;
    for (Map.Entry<String, ClientProperties> e : clients.entrySet()) {
      String name = e.getKey();
      RootBeanDefinition client =
          new RootBeanDefinition(
              SafeRetryClient.class,
              () -> beans.getBean(FACTORY, SafeRetryClientFactory.class).create(name));
      client.setDependsOn(FACTORY);
      client.setDestroyMethodName("close");
      registry.registerBeanDefinition(name, client);
      String typed = e.getValue().getTypedClient();
      if (typed != null) {
        if (listed == null) {
          listed = listedTypedClients(registry);
        }
        registerTyped(registry, beans, name, typed.strip(), listed);
      }
    }
  }

  private static void registerTyped(
      BeanDefinitionRegistry registry,
      BeanFactory beans,
      String name,
      String className,
      Set<String> listed) {
    if (!listed.contains(className)) {
      throw new IllegalStateException(
          "saferetry.clients."
              + name
              + ".typed-client: "
              + className
              + " is not listed in any "
              + TYPED_CLIENTS
              + " on the class path (generated typed clients list themselves there)");
    }
    ClassLoader loader = classLoader(registry);
    Class<?> type;
    try {
      type = Class.forName(className, false, loader);
    } catch (ClassNotFoundException ex) {
      throw new IllegalStateException(
          "saferetry.clients." + name + ".typed-client: class " + className + " not found", ex);
    }
    RootBeanDefinition typed = new RootBeanDefinition(type);
    typed.setInstanceSupplier(
        () -> TypedClients.create(type, beans.getBean(name, SafeRetryClient.class)));
    typed.setDependsOn(name);
    registry.registerBeanDefinition(name + "TypedClient", typed);
  }

  private static ClassLoader classLoader(BeanDefinitionRegistry registry) {
    if (registry instanceof ConfigurableListableBeanFactory f && f.getBeanClassLoader() != null) {
      return f.getBeanClassLoader();
    }
    return ClientBeanRegistrar.class.getClassLoader();
  }

  private static Set<String> listedTypedClients(BeanDefinitionRegistry registry) {
    Set<String> names = new LinkedHashSet<>();
    try {
      Enumeration<URL> lists = classLoader(registry).getResources(TYPED_CLIENTS);
      while (lists.hasMoreElements()) {
        try (InputStream in = lists.nextElement().openStream()) {
          for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
            String n = line.strip();
            if (!n.isEmpty() && !n.startsWith("#")) {
              names.add(n);
            }
          }
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + TYPED_CLIENTS, e);
    }
    return names;
  }

  @Override
  public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {}
}
