package dev.saferetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.testing.PackageGraph;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * No source file of the core is in a cycle with another, except where a public signature or a
 * sealed type makes one, each named here with why, and one part of the file store's log: a new
 * cycle between files (one class calling back into the class that created it, a value reaching for
 * its builder) fails this test.
 */
class FileCycleTest {
  private static final List<Set<String>> BY_SIGNATURE =
      List.of(
          // The builder builds the client; the client hands out builder() and newBuilder().
          // A reconciler looks an intent up through a client; the client runs reconcilers.
          Set.of(
              "dev.saferetry.Reconciler",
              "dev.saferetry.SafeRetryClient",
              "dev.saferetry.SafeRetryClientBuilder"),
          // An interface whose static factory returns its package-private implementation.
          Set.of("dev.saferetry.codec.BodyCodec", "dev.saferetry.codec.OwnCodec"),
          // A sealed hierarchy names its subclasses, which extend it.
          Set.of(
              "dev.saferetry.error.ApiException",
              "dev.saferetry.error.CallFailedException",
              "dev.saferetry.error.IdempotencyKeyReusedException",
              "dev.saferetry.error.OutcomeUnknownException",
              "dev.saferetry.error.ResponseBodyException",
              "dev.saferetry.error.SafeRetryException"),
          Set.of("dev.saferetry.event.CompositeListener", "dev.saferetry.event.SafeRetryListener"),
          Set.of(
              "dev.saferetry.idempotency.InMemoryKeyStore", "dev.saferetry.idempotency.KeyStore"),
          Set.of("dev.saferetry.pagination.PageStyle", "dev.saferetry.pagination.Styles"),
          // A value names the Jackson reader that makes it (its @JsonDeserialize), which makes it.
          Set.of("dev.saferetry.model.Expandable", "dev.saferetry.model.ExpandableDeserializer"),
          // Not a signature: the log's preallocation reads the log's state under its lock. It is
          // the one cycle of machinery left, pinned so that no other joins it.
          Set.of(
              "dev.saferetry.internal.filestore.log.GroupCommitLog",
              "dev.saferetry.internal.filestore.log.LogSpace"));

  private final PackageGraph files = PackageGraph.ofFiles(Path.of("target", "classes"));

  FileCycleTest() throws IOException {}

  @Test
  void noFileIsInACycleBeyondTheOnesPublicSignaturesMake() {
    assertThat(files.cycles()).containsExactlyInAnyOrderElementsOf(BY_SIGNATURE);
  }

  @Test
  void theScanSeesFilesNotPackages() {
    assertThat(files.packages()).contains("dev.saferetry.RealCall", "dev.saferetry.ClientCore");
    assertThat(files.uses("dev.saferetry.RealCall")).contains("dev.saferetry.ClientParts");
  }
}
