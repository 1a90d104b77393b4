package dev.saferetry.spring;

import java.lang.reflect.Method;
import javax.sql.DataSource;

/**
 * SafeRetry's Flyway migrations, with a history table of their own.
 *
 * <p>Flyway is called reflectively: flyway-core publishes no module name, and requiring it by its
 * jar's file name would tie this module to that name. The calls are Flyway's stable fluent API:
 * {@code Flyway.configure(loader).dataSource(ds).locations(..).table(..).baselineOnMigrate(true)
 * .baselineVersion("0")[.schemas(..)].load().migrate()}.
 */
final class FlywayMigrations {
  private FlywayMigrations() {}

  static void migrate(DataSource dataSource, String vendor, String schema) {
    ClassLoader loader = FlywayMigrations.class.getClassLoader();
    try {
      Class<?> flyway = Class.forName("org.flywaydb.core.Flyway", true, loader);
      Object config = flyway.getMethod("configure", ClassLoader.class).invoke(null, loader);
      config = call(config, "dataSource", DataSource.class, dataSource);
      config =
          call(
              config,
              "locations",
              String[].class,
              new String[] {"classpath:db/saferetry-migration/" + vendor});
      config = call(config, "table", String.class, SchemaInitializer.FLYWAY_HISTORY);
      config = call(config, "baselineOnMigrate", boolean.class, true);
      config = call(config, "baselineVersion", String.class, "0");
      if (schema != null && !schema.isBlank()) {
        config = call(config, "schemas", String[].class, new String[] {schema});
      }
      Object loaded = config.getClass().getMethod("load").invoke(config);
      loaded.getClass().getMethod("migrate").invoke(loaded);
    } catch (java.lang.reflect.InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException("SafeRetry's Flyway migrations failed: " + cause, cause);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(
          "saferetry.jdbc.schema-init=flyway needs Flyway 10 or newer on the class path", e);
    }
  }

  private static Object call(Object target, String name, Class<?> type, Object arg)
      throws ReflectiveOperationException {
    Method m = target.getClass().getMethod(name, type);
    return m.invoke(target, arg);
  }
}
