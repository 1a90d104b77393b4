package dev.saferetry.internal.filestore.log;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Reads back what was appended to a log: a record the index points to, or a range of bytes a
 * compaction copies. Bytes not synced yet come from memory ({@link UnsyncedBytes}): after a failed
 * sync, the file may not hold them. Callers hold the store's lock while they read a record, which
 * keeps the file in place; one compaction at a time copies ranges. Not thread-safe.
 */
public final class LogFrames implements FrameReader {
  private final GroupCommitLog log;
  private final PayloadReader reader = new PayloadReader();
  private byte[] scratch = new byte[512];

  /** Reads back what was appended to {@code log}. */
  public LogFrames(GroupCommitLog log) {
    this.log = log;
  }

  /** The payload of the frame at {@code position}, which must be a valid frame. */
  @Override
  public PayloadReader read(long position) {
    long limit;
    log.lock().lock();
    try {
      UnsyncedBytes unsynced = log.unsyncedLocked();
      limit = unsynced.start();
      if (position >= limit) {
        scratch = unsynced.frame(position, scratch);
        return checked(position);
      }
    } finally {
      log.lock().unlock();
    }
    try {
      scratch = LogReader.readFrame(log.channel(), position, scratch, limit);
    } catch (IOException e) {
      throw LogReader.unreadable(log.file(), position, e);
    }
    return checked(position);
  }

  private PayloadReader checked(long position) {
    int length = LogFormat.validFrameLength(scratch, 0, scratch.length);
    if (length < 0) {
      throw LogFormat.corrupt(log.file(), position, "a record the index points to is not valid");
    }
    return reader.reset(scratch, LogFormat.FRAME_HEADER_SIZE, length);
  }

  /** The bytes of {@code [from, to)} of the log, for copying them into a compacted file. */
  public byte[] copy(long from, long to) throws IOException {
    byte[] bytes = new byte[(int) (to - from)];
    long fileEnd;
    log.lock().lock();
    try {
      UnsyncedBytes unsynced = log.unsyncedLocked();
      fileEnd = Math.min(to, Math.max(from, unsynced.start()));
      if (to > fileEnd) {
        unsynced.copy(fileEnd, to, bytes, (int) (fileEnd - from));
      }
    } finally {
      log.lock().unlock();
    }
    ByteBuffer head = ByteBuffer.wrap(bytes, 0, (int) (fileEnd - from));
    while (head.hasRemaining()) {
      if (log.channel().read(head, from + head.position()) < 0) {
        throw new IOException("key store file " + log.file() + " ended early");
      }
    }
    return bytes;
  }
}
