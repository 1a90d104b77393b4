/**
 * SafeRetry for Spring Boot: clients from {@code saferetry.clients.<name>.*} as beans, the
 * transactional outbox ({@link dev.saferetry.spring.SafeRetryOutbox}) and inbox ({@link
 * dev.saferetry.spring.SafeRetryInbox}, {@link dev.saferetry.spring.SafeRetryWebhooks}) on the
 * application's DataSource inside its Spring transactions, relays as a lifecycle bean, meters,
 * observations, a health component and the {@code saferetryoutbox} operator endpoint. See
 * docs/spring-boot.md.
 */
package dev.saferetry.spring;
