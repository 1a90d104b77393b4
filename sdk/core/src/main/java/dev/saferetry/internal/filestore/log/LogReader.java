package dev.saferetry.internal.filestore.log;

import dev.saferetry.idempotency.KeyStoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Reads a log through a window of a few megabytes, for passes over the whole file (opening,
 * compacting) without holding the file in memory. Frames the index asks for while a pass runs are
 * served from the window when they are in it, else read on their own, so the window stays put.
 * Reads only below {@code limit}. Not thread-safe.
 */
public final class LogReader implements FrameReader {
  /** The window a pass over the whole log reads through. */
  public static final int WINDOW = 4 * 1024 * 1024;

  private final Path file;
  private final FileChannel channel;
  private final long limit;
  private final byte[] window;
  private long windowStart;
  private int windowLength;
  private final PayloadReader payload = new PayloadReader();
  private byte[] scratch = new byte[512];

  /**
   * A reader of {@code file} (open on {@code channel}) below {@code limit}, through a window of
   * {@code windowSize} bytes.
   */
  public LogReader(Path file, FileChannel channel, long limit, int windowSize) {
    this.file = file;
    this.channel = channel;
    this.limit = limit;
    this.window = new byte[windowSize];
  }

  long limit() {
    return limit;
  }

  /** The window: valid where {@link #load} said. */
  public byte[] window() {
    return window;
  }

  /** Whether {@code [offset, offset + length)} is in the window now. */
  public boolean contains(long offset, int length) {
    return offset >= windowStart && offset + length <= windowStart + windowLength;
  }

  /**
   * Makes {@code [offset, offset + length)} readable in {@link #window()} and returns where it
   * starts there, or -1 if the file ends before it does.
   */
  public int load(long offset, int length) throws IOException {
    if (offset + length > limit) {
      return -1;
    }
    if (offset < windowStart || offset + length > windowStart + windowLength) {
      windowStart = offset;
      windowLength = (int) Math.min(window.length, limit - offset);
      readFully(ByteBuffer.wrap(window, 0, windowLength), offset);
    }
    return (int) (offset - windowStart);
  }

  /** The payload of the valid frame at {@code offset}, moving the window there if needed. */
  public PayloadReader frameAt(long offset) {
    try {
      int at = load(offset, LogFormat.FRAME_HEADER_SIZE);
      int length = at < 0 ? -1 : ByteBuffer.wrap(window, at, 4).getInt();
      if (length > 0 && length <= LogFormat.MAX_PAYLOAD) {
        at = load(offset, LogFormat.FRAME_HEADER_SIZE + length);
      }
      return checked(window, at, offset);
    } catch (IOException e) {
      throw unreadable(file, offset, e);
    }
  }

  /** The payload of the valid frame at {@code position}, leaving the window where it is. */
  @Override
  public PayloadReader read(long position) {
    int at = wholeInWindow(position);
    if (at >= 0) {
      return checked(window, at, position);
    }
    try {
      scratch = readFrame(channel, position, scratch, limit);
      return checked(scratch, 0, position);
    } catch (IOException e) {
      throw unreadable(file, position, e);
    }
  }

  static KeyStoreException unreadable(Path file, long offset, IOException e) {
    return new KeyStoreException(
        "cannot read key store file " + file + " at offset " + offset + " (" + e + ")", e);
  }

  /**
   * The payload of a frame this pass already read and checked: from the window without checking it
   * again, or else as {@link #read}.
   */
  public PayloadReader readScanned(long position) {
    int at = wholeInWindow(position);
    if (at < 0) {
      return read(position);
    }
    int length = ByteBuffer.wrap(window, at, 4).getInt();
    return payload.reset(window, at + LogFormat.FRAME_HEADER_SIZE, length);
  }

  // Where the frame at position starts in the window if all of it is there, else -1.
  private int wholeInWindow(long position) {
    if (position < windowStart
        || position + LogFormat.FRAME_HEADER_SIZE > windowStart + windowLength) {
      return -1;
    }
    int at = (int) (position - windowStart);
    int length = ByteBuffer.wrap(window, at, 4).getInt();
    boolean whole = length > 0 && at + LogFormat.FRAME_HEADER_SIZE + (long) length <= windowLength;
    return whole ? at : -1;
  }

  private PayloadReader checked(byte[] data, int at, long offset) {
    int length = at < 0 ? -1 : LogFormat.validFrameLength(data, at, data.length);
    if (length < 0
        || (data == window && at + LogFormat.FRAME_HEADER_SIZE + length > windowLength)) {
      throw LogFormat.corrupt(file, offset, "a record the index points to is not valid");
    }
    return payload.reset(data, at + LogFormat.FRAME_HEADER_SIZE, length);
  }

  /**
   * Reads the frame at {@code offset} (below {@code limit}) into {@code into}, or a larger array it
   * returns; a frame that does not fit below the limit reads as length 0.
   */
  static byte[] readFrame(FileChannel channel, long offset, byte[] into, long limit)
      throws IOException {
    byte[] buffer = into;
    int first = (int) Math.min(buffer.length, limit - offset);
    readFully(channel, ByteBuffer.wrap(buffer, 0, Math.max(first, 0)), offset);
    int length = first < LogFormat.FRAME_HEADER_SIZE ? 0 : ByteBuffer.wrap(buffer).getInt();
    long total = LogFormat.FRAME_HEADER_SIZE + (long) length;
    if (length <= 0 || length > LogFormat.MAX_PAYLOAD || offset + total > limit) {
      buffer[0] = buffer[1] = buffer[2] = buffer[3] = 0;
      return buffer;
    }
    if (total > buffer.length) {
      byte[] larger = new byte[(int) total];
      System.arraycopy(buffer, 0, larger, 0, first);
      buffer = larger;
    }
    if (total > first) {
      readFully(channel, ByteBuffer.wrap(buffer, first, (int) total - first), offset + first);
    }
    return buffer;
  }

  private void readFully(ByteBuffer into, long offset) throws IOException {
    readFully(channel, into, offset);
  }

  private static void readFully(FileChannel channel, ByteBuffer into, long offset)
      throws IOException {
    long at = offset;
    while (into.hasRemaining()) {
      int n = channel.read(into, at);
      if (n < 0) {
        throw new KeyStoreException("key store file ended early at offset " + at);
      }
      at += n;
    }
  }
}
