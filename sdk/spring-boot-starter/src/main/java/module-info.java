/**
 * SafeRetry's Spring Boot starter: auto-configuration that makes clients from application
 * properties and puts the JDBC key store, outbox and inbox on the application's DataSource, inside
 * its Spring transactions. Only {@code dev.saferetry.spring} is exported; Spring reads it
 * reflectively. The parts for Actuator, Micrometer, Flyway, Liquibase and resilience4j are
 * optional: each applies when the application has that library.
 */
// Spring, Micrometer, Flyway, Liquibase and resilience4j publish automatic module names only
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.saferetry.spring {
  requires transitive dev.saferetry;
  requires transitive dev.saferetry.jdbc;
  requires transitive dev.saferetry.webhook;
  requires transitive spring.boot;
  requires transitive spring.boot.autoconfigure;
  requires transitive spring.beans;
  requires transitive spring.context;
  requires transitive spring.core;
  requires transitive spring.jdbc;
  requires transitive spring.tx;
  requires java.sql;
  requires org.slf4j;
  requires static org.jspecify;
  requires static spring.boot.jdbc;
  requires static spring.boot.sql;
  requires static spring.boot.actuator;
  requires static spring.boot.actuator.autoconfigure;
  requires static spring.boot.health;
  requires static micrometer.core;
  requires static micrometer.commons;
  requires static micrometer.observation;
  requires static liquibase.core;
  requires static io.github.resilience4j.core;
  requires static io.github.resilience4j.retry;
  requires static io.github.resilience4j.circuitbreaker;

  exports dev.saferetry.spring;

  opens dev.saferetry.spring to
      spring.core,
      spring.beans,
      spring.context;
}
