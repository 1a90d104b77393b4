package dev.saferetry.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.SafeRetryClient;
import dev.saferetry.filestore.FileKeyStore;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Clients without a DataSource: memory or file key stores; and the whole starter switched off. */
class StandaloneClientsTest {
  private final ApplicationContextRunner noDatabase =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  SafeRetryJdbcAutoConfiguration.class,
                  SafeRetryAutoConfiguration.class,
                  SafeRetryActuatorAutoConfiguration.class))
          .withPropertyValues("saferetry.clients.payments.base-url=http://127.0.0.1:9/");

  @Test
  void withoutADataSourceTheKeyStoreIsInMemoryAndThereIsNoOutbox() {
    noDatabase.run(
        context -> {
          assertThat(context).hasNotFailed().doesNotHaveBean(SafeRetryOutbox.class);
          assertThat(context.getBean("payments", SafeRetryClient.class).keyStore())
              .isNotInstanceOf(FileKeyStore.class);
        });
  }

  @Test
  void aFileKeyStoreIsOpenedInItsDirectoryAndClosedWithTheContext(@TempDir Path dir) {
    noDatabase
        .withPropertyValues(
            "saferetry.clients.payments.key-store.type=file",
            "saferetry.clients.payments.key-store.directory=" + dir)
        .run(
            context ->
                assertThat(context.getBean("payments", SafeRetryClient.class).keyStore())
                    .isInstanceOf(FileKeyStore.class));
    // closed with the context: the directory can be opened again at once
    FileKeyStore.open(dir).close();
  }

  @Test
  void anUnknownPresetFailsStartUpNamingTheProperty() {
    noDatabase
        .withPropertyValues("saferetry.clients.payments.preset=stripey")
        .run(
            context ->
                assertThat(context.getStartupFailure())
                    .hasStackTraceContaining("saferetry.clients.payments.preset")
                    .hasStackTraceContaining("stripe"));
  }

  @Test
  void aClientWithoutABaseUrlFailsStartUpNamingTheProperty() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(SafeRetryAutoConfiguration.class))
        .withPropertyValues("saferetry.clients.payments.preset=stripe")
        .run(
            context ->
                assertThat(context.getStartupFailure())
                    .hasStackTraceContaining("saferetry.clients.payments.base-url is required"));
  }

  @Test
  void saferetryEnabledFalseSwitchesEverythingOff() {
    noDatabase
        .withPropertyValues("saferetry.enabled=false")
        .run(
            context ->
                assertThat(context)
                    .hasNotFailed()
                    .doesNotHaveBean(SafeRetryClient.class)
                    .doesNotHaveBean(SafeRetryProperties.class));
  }
}
