/**
 * The file format and machinery behind {@link dev.saferetry.idempotency.FileKeyStore}: an
 * append-only log of length- and CRC32C-framed records, preallocated ahead of its records; read
 * once on open into an index of hashes and file offsets (completed intents are read back on
 * demand); made durable by leader/follower group commit; vouched for by a high-water mark;
 * compacted in the background by copy, catch-up, seal, sync and rename; guarded by locks on the
 * lock file and on the log itself.
 *
 * <p>Not API: everything here may change in any release. Layout of {@code intents.log}:
 *
 * <pre>
 * header   "SRKS" (4 bytes) | format version (u32, currently 3) | generation (u64, random)
 * frame*   payload length (u32) | CRC32C of length and payload (u32) | payload
 * zeros    preallocated space not yet written, up to the end the mark vouches for
 * </pre>
 *
 * <p>Payloads of version 3 (numbers are unsigned LEB128 varints unless sized; text is a varint
 * length and exact UTF-8):
 *
 * <pre>
 * scope     4 | scope number | tenant | operation          numbers dense, defined before use
 * begin     1 | scope number | intent id | key | fingerprint | created | expiry
 * complete  2 | the same as a begin | state ('S' or 'F') | status (zigzag) | 0, or 1 and resource id
 * abandon   3 | scope number | intent id
 * seal      5 | generation of the log this file replaced (u64) | floor: written last by a compaction
 * floor     the latest creation time the store had recorded, as a created time (absent if the log
 *           never held a record): the store never judges expiry before it, even when the clock is
 *           stepped back
 * key          1 and 16 bytes (a lowercase UUID), or 0 and text
 * fingerprint  1, a count and bytes (lowercase hex), or 0 and text
 * created      epoch second (zigzag) | nanosecond
 * expiry       seconds after the creation second | nanosecond
 * </pre>
 *
 * <p>A completion holds the whole record, so a compacted log keeps one record per completed intent.
 * Replaying a log: a begin makes its intent pending, a completion makes it completed (even if a
 * compaction dropped it meanwhile), an abandon removes it.
 *
 * <p>Layout of {@code intents.mark} (36 bytes): "SRKM" | version (u32, 2) | log generation (u64) |
 * synced length of the log (u64) | end of the preallocated space (u64, 0 if none) | CRC32C of the
 * first 32 bytes (u32). It is overwritten in place after each group sync, without a sync of its
 * own, so it is a lower bound of what is durable; a larger preallocated end is synced before the
 * log grows into it; it is synced on close.
 *
 * <p>A compaction writes {@code intents.log.compact}: header, every scope, the latest record of
 * every live intent, what was appended meanwhile, then the seal; syncs it; renames it over the log.
 * On open, a sealed compaction file that replaces the log in place (or that the mark names) is
 * installed; any other is removed. A log whose generation is not the mark's is accepted only if its
 * seal names the mark's generation.
 *
 * <p>These are the formats 1.0 ships: log version 3 and mark version 2. Development builds before
 * them wrote other versions, which no release shipped; the numbers are not reused, and a log or
 * mark of any other version is refused naming the file and the version, changing nothing.
 *
 * <p>All sized integers are big-endian. Only an incomplete frame at the end of the log (or, in
 * preallocated space, before zeros that start on a 512-byte boundary), after the mark, is a torn
 * write: it is saved to a side file and cut off. Any other failure is damage and is reported, never
 * repaired.
 */
package dev.saferetry.internal.store;
