package dev.saferetry.soak;

import java.util.LinkedHashMap;
import java.util.Map;

/** Parses the {@code --name value} arguments of the soak and its workers. Thread-safe. */
public final class Options {
  private Options() {}

  /**
   * Returns the options in order.
   *
   * @throws IllegalArgumentException for an argument that is not {@code --name value}
   */
  public static Map<String, String> parse(String[] args) {
    Map<String, String> opts = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("expected --option value, got " + args[i]);
      }
      opts.put(args[i].substring(2), args[++i]);
    }
    return opts;
  }
}
