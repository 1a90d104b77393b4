/**
 * The engine behind {@link dev.saferetry.filestore.FileKeyStore}: an append-only log of framed
 * records in one directory, read once on open into an index of file offsets, made durable by group
 * commit, vouched for by a high-water mark and compacted in the background. Not API: everything
 * here may change in any release.
 *
 * <p>This package is the store as its callers see it: {@link
 * dev.saferetry.internal.filestore.LogStore} (every change appended under one lock, then waited for
 * outside it), opening a directory ({@code LogOpener}: lock, finish or remove a compaction a crash
 * left, check the log against its mark, cut a torn tail, index), the background and caller-run jobs
 * ({@code StoreJobs}, {@code Maintenance}), and who may use the directory ({@code DirectoryLock},
 * {@code OwnerRecord}). The parts it puts together live in sub-packages, one role each, every one
 * depending only on those after it:
 *
 * <pre>
 * store        the facade: open, begin, complete, find, pending, abandon, purge, close
 *   compaction   rewrite the log into a new file while calls go on; finish one a crash interrupted
 *   index        where each live intent's latest record is; build that from a scan of the log
 *   record       what a record's payload says: the field layout, the scope dictionary
 *   log          frames, the file header, appends with group commit, the mark, torn tails
 *   file         how every store file is created, opened, locked and synced, and who may touch it
 * </pre>
 *
 * <p>So the log knows frames but not what they say; the index knows records but not how they got to
 * disk; compaction is the only code that writes a second file and renames it over the log. Types
 * one sub-package uses from another are public (no package here is exported by the module
 * descriptor); everything else is package-private.
 *
 * <p>A store directory holds {@code intents.log} (the log), {@code intents.mark} (its high-water
 * mark), {@code saferetry.lock} (locked for the store's lifetime), {@code saferetry.owner} (the pid
 * and start time of the process using it) and, while a compaction runs, {@code
 * intents.log.compact}. These are the formats 1.0 ships: log version 3 and mark version 2.
 * Development builds before them wrote other versions, which no release shipped; the numbers are
 * not reused, and a log or mark of any other version is refused naming the file and the version,
 * changing nothing.
 */
package dev.saferetry.internal.filestore;
