package dev.saferetry.generator;

/**
 * The document cannot be read or turned into a client: a parse error, a reference to a schema it
 * does not define, an included operation it does not have. The message names what and where.
 */
public sealed class GeneratorException extends RuntimeException permits UnmatchedIncludeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what went wrong, and where in the document
   */
  public GeneratorException(String message) {
    super(message);
  }

  /**
   * Creates the exception with its cause.
   *
   * @param message what went wrong
   * @param cause the cause
   */
  public GeneratorException(String message, Throwable cause) {
    super(message, cause);
  }
}
