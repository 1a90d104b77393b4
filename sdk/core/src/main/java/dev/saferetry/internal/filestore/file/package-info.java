/**
 * How the file store touches the file system, the same way for every file it has: regular files
 * opened without following links and created owner-only; exclusive locks taken without waiting,
 * then checked against the path (a lock on a file replaced meanwhile protects nothing); directory
 * syncs after a create or rename. And who may touch a store at all: on file systems with POSIX
 * permissions, the directory and its files must belong to the user running the store and be
 * writable by nobody else, or they are refused with the command that fixes them.
 *
 * <p>Every other part of the store creates or opens files, so these rules sit at the bottom, in one
 * place, depending on nothing else of the store. Not API.
 */
package dev.saferetry.internal.filestore.file;
