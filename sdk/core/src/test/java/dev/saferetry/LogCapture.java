package dev.saferetry;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/**
 * Captures what the test binding (slf4j-simple, which writes to {@code System.err} as it is at the
 * time of each line) logs while open. Tests run one at a time in their JVM, so swapping the stream
 * is safe.
 */
public final class LogCapture implements AutoCloseable {
  private final PrintStream original = System.err;
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

  LogCapture() {
    System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
  }

  /** Runs {@code action} and returns what was logged meanwhile. */
  public static <T> String of(Callable<T> action) throws Exception {
    try (LogCapture capture = new LogCapture()) {
      action.call();
      return capture.text();
    }
  }

  /** Returns everything logged so far. */
  synchronized String text() {
    System.err.flush();
    return bytes.toString(StandardCharsets.UTF_8);
  }

  /** Returns the logged lines that contain {@code part}. */
  java.util.List<String> linesWith(String part) {
    return text().lines().filter(l -> l.contains(part)).toList();
  }

  @Override
  public void close() {
    System.setErr(original);
    original.print(text());
  }
}
