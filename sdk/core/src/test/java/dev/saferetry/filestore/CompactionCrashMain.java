package dev.saferetry.filestore;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.internal.filestore.LogStore;
import dev.saferetry.internal.filestore.StoreOptions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Semaphore;

/**
 * Child process: opens a store whose compactions stop for good at one step (printing {@code PAUSED
 * step}), to be killed there, and works on it as told on standard input:
 *
 * <ul>
 *   <li>{@code begin ID} — begins intent ID and prints {@code BEGUN ID KEY} once it is durable;
 *   <li>{@code complete ID} — completes it and prints {@code COMPLETED ID};
 *   <li>{@code replay ID N} — completes it N more times (records a compaction drops) and prints
 *       {@code REPLAYED};
 *   <li>{@code purge} — starts a purge (a compaction) in another thread.
 * </ul>
 *
 * <p>Arguments: the directory, the step to stop at, and the size from which the store compacts in
 * the background. Single-threaded, but for the purge.
 */
public final class CompactionCrashMain {
  static final IntentScope CHARGES = LockHolderMain.CHARGES;
  static final Instant T0 = LockHolderMain.T0;

  private CompactionCrashMain() {}

  public static void main(String[] args) throws Exception {
    String stopAt = args[1];
    Semaphore never = new Semaphore(0);
    StoreOptions options =
        new StoreOptions(
            0,
            true,
            Long.parseLong(args[2]),
            step -> {
              if (step.equals(stopAt)) {
                LockHolderMain.say("PAUSED " + step);
                never.acquireUninterruptibly(); // until the process is killed
              }
            });
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    LogStore store = LogStore.open(Path.of(args[0]), options);
    LockHolderMain.say("OPENED");
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] command = line.split(" ");
      switch (command[0]) {
        case "begin" -> LockHolderMain.begin(store, command[1]);
        case "complete" -> {
          complete(store, command[1]);
          LockHolderMain.say("COMPLETED " + command[1]);
        }
        case "replay" -> {
          for (int i = 0; i < Integer.parseInt(command[2]); i++) {
            complete(store, command[1]);
          }
          LockHolderMain.say("REPLAYED");
        }
        case "purge" -> new Thread(() -> store.purgeExpired(T0)).start();
        default -> throw new IllegalArgumentException("unknown command " + line);
      }
    }
  }

  private static void complete(LogStore store, String id) {
    IntentRecord r = store.find(CHARGES, id).orElseThrow();
    store.complete(
        r.state() == IntentState.PENDING ? r.complete(IntentState.SUCCEEDED, 201, "ch_" + id) : r);
  }
}
