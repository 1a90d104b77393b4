package dev.saferetry.testing.provider;

/** Ends an endpoint early with its refusal (a bad parameter, an unknown object). */
final class Refused extends Exception {
  private static final long serialVersionUID = 1L;

  final transient Answer answer;

  Refused(Answer answer) {
    super(null, null, false, false);
    this.answer = answer;
  }
}
