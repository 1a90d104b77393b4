package dev.saferetry.idempotency;

import dev.saferetry.testing.KeyStoreContract;

/** The SPI contract on the in-memory store, which keeps nothing across a restart. */
class InMemoryKeyStoreContractTest extends KeyStoreContract {
  @Override
  protected KeyStore open() {
    return new InMemoryKeyStore();
  }

  @Override
  protected KeyStore reopen(KeyStore current) {
    current.close();
    return null;
  }
}
