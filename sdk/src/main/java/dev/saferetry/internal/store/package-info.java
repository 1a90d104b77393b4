/**
 * The file format and machinery behind {@link dev.saferetry.idempotency.FileKeyStore}: an
 * append-only log of length- and CRC32C-framed records, replayed into an in-memory index on open,
 * made durable by group commit, vouched for by a high-water mark, compacted by rewrite-sync-rename,
 * and guarded by locks on the lock file and on the log itself.
 *
 * <p>Not API: everything here may change in any release. Layout of {@code intents.log}:
 *
 * <pre>
 * header   "SRKS" (4 bytes) | format version (u32, currently 2) | generation (u64, random)
 * frame*   payload length (u32) | CRC32C of length and payload (u32) | payload
 * payload  type (u8: 1 begin, 2 complete, 3 abandon) | fields (strings as u32 length + UTF-8)
 *          a completion's state is a code: 'S' succeeded, 'F' failed
 * </pre>
 *
 * <p>Layout of {@code intents.mark} (28 bytes): "SRKM" | version (u32, 1) | log generation (u64) |
 * synced length of the log (u64) | CRC32C of the first 24 bytes (u32). It is overwritten in place
 * after each group sync, without a sync of its own, so it is a lower bound of what is durable; it
 * is synced when the generation changes and on close.
 *
 * <p>Version 1 (read, then rewritten as version 2) had an 8-byte header without a generation and
 * stored states as enum ordinals (1 succeeded, 2 failed).
 *
 * <p>All integers are big-endian. Only an incomplete frame at the end of the log, after the mark,
 * is a torn write: it is saved to a side file and cut off. Any other failure is damage and is
 * reported, never repaired.
 */
package dev.saferetry.internal.store;
