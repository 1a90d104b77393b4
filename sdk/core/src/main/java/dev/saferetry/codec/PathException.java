package dev.saferetry.codec;

/**
 * A path template or a path variable that cannot be sent as given: a variable that would not stay
 * one segment or would be a dot segment ({@code .}, {@code ..}), a missing variable, or a template
 * with a dot segment, a query or a character not allowed in a path. Thrown before anything is
 * recorded or sent. The message names the variable, never its value.
 */
public final class PathException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** The variable's name, or null for the template itself. */
  private final String variable;

  PathException(String variable, String message) {
    super(message);
    this.variable = variable;
  }

  /**
   * Returns the name of the variable at fault, or {@code null} when the template itself is.
   *
   * @return the variable's name, or null
   */
  public String variable() {
    return variable;
  }
}
