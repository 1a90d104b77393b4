/**
 * What the payload of each frame of the log says, in the one place that knows the field layout:
 * {@code RecordCodec} writes and decodes records, {@code RecordScan} reads what indexing and
 * compaction need without building strings, {@code Scopes} numbers each (tenant, operation) once.
 * Not API.
 *
 * <p>Payloads (numbers are unsigned LEB128 varints unless sized; text is a varint length and exact
 * UTF-8):
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
 * compaction dropped it meanwhile), an abandon removes it. Scope numbers never change, so a
 * compaction copies records byte for byte.
 */
package dev.saferetry.internal.filestore.record;
