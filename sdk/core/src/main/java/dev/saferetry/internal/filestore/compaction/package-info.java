/**
 * Rewriting the log with only the latest record of every live intent, while calls go on: copy into
 * {@code intents.log.compact} (every scope, then the latest records), catch up with what was
 * appended meanwhile in rounds, then, under the store's lock for one sync, seal, sync, rename over
 * the log and switch the index to the new places it noted. And what opening does with a compaction
 * file a crash left behind: a sealed file that replaces the log in place (or that the mark names)
 * is installed, any other removed. This is the only code that writes a second file and renames it
 * over the log, so those steps and their crash points live together. Not API.
 */
package dev.saferetry.internal.filestore.compaction;
