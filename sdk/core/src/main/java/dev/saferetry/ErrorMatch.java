package dev.saferetry;

import dev.saferetry.internal.codec.ErrorBodies;
import java.util.Objects;

/**
 * How a provider says one particular thing in an error answer: an HTTP status and, optionally, a
 * text at a place in the JSON body. Stripe's "key reused with another payload" is {@code
 * ErrorMatch.of(400, "/error", "/type", "idempotency_error")}; Square's is {@code ErrorMatch.of(0,
 * "/errors/*", "/code", "IDEMPOTENCY_KEY_REUSED")}.
 *
 * <p>{@code select} is a JSON pointer to the objects to look at, where a segment {@code *} means
 * every element of an array; {@code field} is a pointer relative to each selected object.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param status the HTTP status, or 0 for any status (where the provider does not document one)
 * @param select the objects to look at; {@code ""} for the whole body
 * @param field the field of each object holding the text; {@code ""} for the object itself
 * @param equals the text, or null to match on the status alone
 */
public record ErrorMatch(int status, String select, String field, String equals) {

  /**
   * Validates the match.
   *
   * @param status the HTTP status, or 0 for any status (where the provider does not document one)
   * @param select the objects to look at; {@code ""} for the whole body
   * @param field the field of each object holding the text; {@code ""} for the object itself
   * @param equals the text, or null to match on the status alone
   */
  public ErrorMatch {
    if (status != 0 && (status < 100 || status > 599)) {
      throw new IllegalArgumentException("status must be 0 (any) or 100..599, was " + status);
    }
    Objects.requireNonNull(select, "select");
    Objects.requireNonNull(field, "field");
    ErrorBodies.checkPointer(select, true, "select");
    ErrorBodies.checkPointer(field, false, "field");
    if (equals == null && status == 0) {
      throw new IllegalArgumentException("a match needs a status, a text or both");
    }
    if (equals != null && equals.isEmpty()) {
      throw new IllegalArgumentException("equals must not be empty; use null for status alone");
    }
  }

  /**
   * {@return a match of a status and the text at {@code select}/{@code field}}
   *
   * @param status the status
   * @param select a JSON pointer to the objects to look in
   * @param field the field
   * @param equals the equals
   */
  public static ErrorMatch of(int status, String select, String field, String equals) {
    return new ErrorMatch(status, select, field, Objects.requireNonNull(equals, "equals"));
  }

  /**
   * {@return a match of the status alone}
   *
   * @param status the status
   */
  public static ErrorMatch status(int status) {
    return new ErrorMatch(status, "", "", null);
  }

  /**
   * {@return whether an answer with this status and body is what this match describes}
   *
   * @param answerStatus the answer status
   * @param body the body
   */
  public boolean matches(int answerStatus, String body) {
    if (status != 0 && status != answerStatus) {
      return false;
    }
    return equals == null || ErrorBodies.find(body, select, field, equals, field).isPresent();
  }
}
