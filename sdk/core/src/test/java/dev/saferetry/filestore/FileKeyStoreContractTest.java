package dev.saferetry.filestore;

import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.testing.KeyStoreContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The SPI contract on the file store, reopened from the same directory. */
class FileKeyStoreContractTest extends KeyStoreContract {
  @TempDir Path dir;

  @Override
  protected KeyStore open() {
    return FileKeyStore.open(dir);
  }

  @Override
  protected KeyStore reopen(KeyStore current) {
    current.close();
    return FileKeyStore.open(dir);
  }
}
