package dev.saferetry.idempotency;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** Reads, damages and observes the store's log file from the outside, as a crash or disk would. */
final class StoreFileBytes {
  static final String LOG = "intents.log";

  private StoreFileBytes() {}

  static byte[] read(Path dir) throws IOException {
    return Files.readAllBytes(dir.resolve(LOG));
  }

  static void write(Path dir, byte[] bytes) throws IOException {
    Files.write(dir.resolve(LOG), bytes);
  }

  static long size(Path dir) throws IOException {
    return Files.size(dir.resolve(LOG));
  }

  static void flipByte(Path dir, long offset) throws IOException {
    byte[] bytes = read(dir);
    bytes[(int) offset] ^= (byte) 0x5A;
    write(dir, bytes);
  }

  /** Runs {@code action} and returns what it logged (slf4j-simple writes to stderr or stdout). */
  static <T> String logOutputOf(Callable<T> action) throws Exception {
    PrintStream err = System.err;
    PrintStream out = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8);
    System.setErr(capture);
    System.setOut(capture);
    try {
      action.call();
    } finally {
      System.setErr(err);
      System.setOut(out);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }
}
