package dev.saferetry.idempotency;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Child process: opens a store, says so, and keeps it open until told to close. Single-threaded.
 */
public final class LockHolderMain {
  private LockHolderMain() {}

  public static void main(String[] args) throws Exception {
    try (FileKeyStore store = FileKeyStore.open(Path.of(args[0]))) {
      System.out.println("OPENED " + store.pending().size());
      System.out.flush();
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    }
    System.out.println("CLOSED");
  }
}
