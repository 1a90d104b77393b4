package dev.saferetry.filestore;

import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.idempotency.KeyStoreException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * Child process: opens a store, says so, and works on it as told on standard input, one command a
 * line, until told to close (or killed):
 *
 * <ul>
 *   <li>{@code begin ID} — begins intent ID and prints {@code BEGUN ID KEY} once it is durable, or
 *       {@code REFUSED ID MESSAGE} if the store refused it;
 *   <li>{@code complete ID} — completes it (not synced) and prints {@code COMPLETED ID};
 *   <li>{@code purge} — compacts the log and prints {@code PURGED}, or {@code REFUSED purge
 *       MESSAGE};
 *   <li>{@code close} — closes the store and prints {@code CLOSED}.
 * </ul>
 *
 * <p>Single-threaded.
 */
public final class LockHolderMain {
  static final IntentScope CHARGES = new IntentScope("default", "POST /v1/charges");
  static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

  private LockHolderMain() {}

  public static void main(String[] args) throws Exception {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    try (FileKeyStore store = FileKeyStore.open(Path.of(args[0]))) {
      say("OPENED " + store.pending().size());
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String[] command = line.split(" ", 2);
        if (command[0].equals("close")) {
          break;
        }
        switch (command[0]) {
          case "begin" -> {
            try {
              begin(store, command[1]);
            } catch (KeyStoreException e) {
              say("REFUSED " + command[1] + " " + e.getMessage());
            }
          }
          case "complete" -> {
            IntentRecord r = store.find(CHARGES, command[1]).orElseThrow();
            store.complete(r.complete(IntentState.SUCCEEDED, 201, "ch_" + command[1]));
            say("COMPLETED " + command[1]);
          }
          case "purge" -> {
            try {
              say("PURGED " + store.purgeExpired(T0));
            } catch (KeyStoreException e) {
              say("REFUSED purge " + e.getMessage());
            }
          }
          default -> throw new IllegalArgumentException("unknown command " + line);
        }
      }
    }
    say("CLOSED");
  }

  /** Begins intent {@code id} and prints {@code BEGUN id key} once it is durable. */
  static void begin(KeyStore store, String id) {
    IntentRecord r =
        IntentRecord.pending(CHARGES, id, IdempotencyKey.random(), "fp", T0, Duration.ofDays(1));
    say("BEGUN " + id + " " + store.begin(r).record().key());
  }

  static void say(String line) {
    System.out.println(line);
    System.out.flush();
  }
}
