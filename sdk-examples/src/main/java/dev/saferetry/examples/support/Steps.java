package dev.saferetry.examples.support;

import dev.saferetry.CallResult;
import dev.saferetry.call.Attempt;
import dev.saferetry.error.SafeRetryException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The steps an example walks through, each printed as one line as it ends: what it did, the key,
 * the attempts and the server's request ids. Not thread-safe.
 */
public final class Steps {
  /**
   * One step.
   *
   * @param name the step's name
   * @param ok whether it succeeded
   * @param detail what it found
   * @param key the idempotency key, or null for a call without one
   * @param attempts the attempts
   */
  public record Step(String name, boolean ok, String detail, String key, List<Attempt> attempts) {
    /** {@return the step as one line} */
    public String line() {
      String ids =
          attempts.stream()
              .map(a -> a.serverRequestId() == null ? "-" : a.serverRequestId())
              .collect(Collectors.joining(","));
      return String.format(
          "%s %-15s %-44s key=%s attempts=%d request-ids=[%s]",
          ok ? "OK  " : "FAIL", name, detail, key == null ? "-" : key, attempts.size(), ids);
    }
  }

  private final PrintStream out;
  private final List<Step> steps = new ArrayList<>();

  /**
   * Records steps, printing each to {@code out}.
   *
   * @param out where the lines go
   */
  public Steps(PrintStream out) {
    this.out = out;
  }

  /**
   * Records a call that succeeded.
   *
   * @param name the step's name
   * @param result the call's result
   * @param detail what it found
   */
  public void ok(String name, CallResult<?> result, String detail) {
    add(
        new Step(
            name,
            true,
            detail,
            result.key() == null ? null : result.key().value(),
            result.attempts()));
  }

  /**
   * Records a step made of several calls, such as the pages of a list.
   *
   * @param name the step's name
   * @param ok whether it succeeded
   * @param detail what it found
   * @param attempts every call's attempts
   */
  public void ok(String name, boolean ok, String detail, List<Attempt> attempts) {
    add(new Step(name, ok, detail, null, attempts));
  }

  /**
   * Records the call that failed, ending the walk.
   *
   * @param e how it ended
   */
  public void failed(SafeRetryException e) {
    add(
        new Step(
            "step " + steps.size(),
            false,
            e.outcome() + " " + e.reason(),
            e.key() == null ? null : e.key().value(),
            e.attempts()));
  }

  private void add(Step step) {
    out.println(step.line());
    steps.add(step);
  }

  /** {@return the steps so far} */
  public List<Step> list() {
    return List.copyOf(steps);
  }

  /**
   * {@return whether {@code steps} are {@code expected} steps that all succeeded}
   *
   * @param steps the steps
   * @param expected how many a complete walk has
   */
  public static boolean allPassed(List<Step> steps, int expected) {
    return steps.size() == expected && steps.stream().allMatch(Step::ok);
  }
}
