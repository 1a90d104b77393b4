package dev.saferetry.internal.filestore;

import java.util.function.Consumer;

/**
 * Options of a {@link LogStore}.
 *
 * @param groupCommitWindowNanos how long a sync leader waits for more records to join
 * @param preallocate whether to preallocate the log ahead of its records
 * @param autoCompactBytes the size from which a mostly superseded log is compacted in the
 *     background; {@link Long#MAX_VALUE} never
 * @param compactionSteps told each step a compaction reaches ("copied", "caught-up", "sealed",
 *     "installed"), in the compacting thread: for tests that stop a compaction there
 *     <p>Instances are immutable and thread-safe if the listener is.
 */
public record StoreOptions(
    long groupCommitWindowNanos,
    boolean preallocate,
    long autoCompactBytes,
    Consumer<String> compactionSteps) {

  /** Below this size a log is not compacted in the background: it costs little to read. */
  public static final long AUTO_COMPACT_BYTES = 1024 * 1024;

  /** Options without a listener of compaction steps. */
  public StoreOptions(long groupCommitWindowNanos, boolean preallocate, long autoCompactBytes) {
    this(groupCommitWindowNanos, preallocate, autoCompactBytes, step -> {});
  }

  /** The options of {@link dev.saferetry.filestore.FileKeyStore} with a given window. */
  public static StoreOptions withWindow(long groupCommitWindowNanos) {
    return new StoreOptions(groupCommitWindowNanos, true, AUTO_COMPACT_BYTES);
  }
}
