/**
 * The intent log as bytes on disk: frames, the file header, appends made durable by group commit,
 * preallocation, the high-water mark that vouches for what was synced, and telling a torn write
 * from damage. This package knows that a frame is valid, not what its payload says ({@code
 * dev.saferetry.internal.filestore.record} does), so durability and damage detection are written
 * and tested once, whatever the records hold. Not API.
 *
 * <p>Layout of {@code intents.log} (all sized integers big-endian):
 *
 * <pre>
 * header   "SRKS" (4 bytes) | format version (u32, 3) | generation (u64, random, never 0)
 * frame*   payload length (u32) | CRC32C of length and payload (u32) | payload
 * zeros    preallocated space not yet written, up to the end the mark vouches for
 * </pre>
 *
 * <p>Layout of {@code intents.mark} (36 bytes): "SRKM" | version (u32, 2) | log generation (u64) |
 * synced length of the log (u64) | end of the preallocated space (u64, 0 if none) | CRC32C of the
 * first 32 bytes (u32). It is overwritten in place after each group sync, without a sync of its
 * own, so it is a lower bound of what is durable; a larger preallocated end is synced before the
 * log grows into it; it is synced on close. A log shorter than the mark, of another generation
 * (unless its seal names the mark's), or missing while the mark says records were synced, is
 * refused.
 *
 * <p>Only an incomplete frame at the end of the log (or, in preallocated space, before zeros that
 * start on a 512-byte boundary), after the mark, is a torn write: it is saved to a side file and
 * cut off. Any other failure is damage and is reported, never repaired.
 */
package dev.saferetry.internal.filestore.log;
