package dev.saferetry.examples.bench;

import dev.saferetry.idempotency.FileKeyStore;

/** Reads how many fsyncs a {@link FileKeyStore} made, from its public statistics. */
final class FsyncCounter {
  private FsyncCounter() {}

  /** Returns the fsyncs of the caller's file store so far, or -1 if it has no file store. */
  static long count(Caller caller) {
    if (!(caller instanceof SdkCaller sdk) || !(sdk.store() instanceof FileKeyStore store)) {
      return -1;
    }
    return store.stats().syncs();
  }
}
