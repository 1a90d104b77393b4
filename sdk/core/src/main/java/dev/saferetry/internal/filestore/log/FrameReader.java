package dev.saferetry.internal.filestore.log;

/**
 * Reads back one record of the log: the payload of the valid frame at a file position. The index
 * reads intents back through it, from the whole log while it is opened ({@link LogReader}) and from
 * the log in use afterwards ({@link LogFrames}).
 */
public interface FrameReader {
  /**
   * The payload of the frame at {@code position}, valid until the next read.
   *
   * @throws dev.saferetry.idempotency.KeyStoreException if there is no valid frame there: the log
   *     was changed under the store
   */
  PayloadReader read(long position);
}
