package dev.saferetry.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.testing.PackageGraph;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * No source file of the artifact is in a cycle with another, except where a public signature makes
 * one, each named here with why: a new cycle between files (a class calling back into the class
 * that created it, a value reaching for its builder) fails this test.
 */
class FileCycleTest {
  private static final List<Set<String>> BY_SIGNATURE =
      List.of(
          // A builder builds its type; the type hands out builder() and newBuilder().
          Set.of(
              "dev.saferetry.jdbc.keystore.JdbcKeyStore",
              "dev.saferetry.jdbc.keystore.JdbcKeyStoreBuilder"),
          Set.of(
              "dev.saferetry.jdbc.outbox.OutboxRelay",
              "dev.saferetry.jdbc.outbox.OutboxRelayBuilder"),
          Set.of("dev.saferetry.jdbc.inbox.Inbox", "dev.saferetry.jdbc.inbox.InboxBuilder"));

  private final PackageGraph files = PackageGraph.ofFiles(Path.of("target", "classes"));

  FileCycleTest() throws IOException {}

  @Test
  void noFileIsInACycleBeyondTheOnesPublicSignaturesMake() {
    assertThat(files.cycles()).containsExactlyInAnyOrderElementsOf(BY_SIGNATURE);
  }

  @Test
  void theScanSeesFilesNotPackages() {
    assertThat(files.packages())
        .contains("dev.saferetry.jdbc.outbox.OutboxRelay", "dev.saferetry.jdbc.inbox.Inbox");
    assertThat(files.uses("dev.saferetry.jdbc.outbox.OutboxRelay"))
        .contains("dev.saferetry.jdbc.internal.outbox.RelayLeases");
  }
}
