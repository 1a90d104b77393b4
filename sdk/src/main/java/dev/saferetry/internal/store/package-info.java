/**
 * The file format and machinery behind {@link dev.saferetry.idempotency.FileKeyStore}: an
 * append-only log of length- and CRC32C-framed records, replayed into an in-memory index on open,
 * made durable by group commit, compacted by rewrite-sync-rename, and guarded by a lock file.
 *
 * <p>Not API: everything here may change in any release. Layout of {@code intents.log}:
 *
 * <pre>
 * header   "SRKS" (4 bytes) | format version (u32, currently 1)
 * frame*   payload length (u32) | CRC32C of length and payload (u32) | payload
 * payload  type (u8: 1 begin, 2 complete, 3 abandon) | fields (strings as u32 length + UTF-8)
 * </pre>
 *
 * <p>All integers are big-endian. A frame that fails its checks at the end of the file, with no
 * valid frame after it, is a torn write and is cut off; any other failure is corruption and is
 * reported, never repaired.
 */
package dev.saferetry.internal.store;
