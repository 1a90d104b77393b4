package dev.saferetry.examples.bench;

import dev.saferetry.idempotency.FileKeyStore;
import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * Reads how many fsyncs a {@link FileKeyStore} made. The count is not public API: it is read
 * reflectively from the store's internal log, and -1 is reported when that is not possible.
 */
final class FsyncCounter {
  private FsyncCounter() {}

  /** Returns the fsyncs of the caller's file store so far, or -1 (not a file store, unknown). */
  static long count(Caller caller) {
    if (!(caller instanceof SdkCaller sdk) || !(sdk.store() instanceof FileKeyStore store)) {
      return -1;
    }
    try {
      Field f = FileKeyStore.class.getDeclaredField("store");
      f.setAccessible(true);
      Object log = f.get(store);
      Method m = log.getClass().getMethod("syncCount");
      return ((Number) m.invoke(log)).longValue();
    } catch (ReflectiveOperationException | RuntimeException e) {
      return -1;
    }
  }
}
