/**
 * The store's view of the log in memory: for every live intent, where its latest record is, in an
 * open-addressing table of 64-bit hashes and file offsets (16 bytes an intent); the intents this
 * process began and that are still pending, in full; and the time floor. An intent asked for is
 * read back from the log and compared in full, since equal hashes are only candidates. Keeping
 * offsets, not records, holds a completed intent in a few dozen bytes of heap, so a million of them
 * cost tens of megabytes, not hundreds. Built by one sequential scan of the log on open. Not API.
 */
package dev.saferetry.internal.filestore.index;
