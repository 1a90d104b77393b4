package dev.saferetry.generator;

import java.util.List;

/**
 * An {@code includeTags} or {@code includeOperations} entry matches nothing in the document,
 * typically a configuration written for another provider's document. The message names each such
 * entry and the document's nearest tags or operations.
 */
public final class UnmatchedIncludeException extends GeneratorException {
  private static final long serialVersionUID = 1L;

  private final List<String> unmatchedTags;
  private final List<String> unmatchedOperations;

  UnmatchedIncludeException(
      String message, List<String> unmatchedTags, List<String> unmatchedOperations) {
    super(message);
    this.unmatchedTags = List.copyOf(unmatchedTags);
    this.unmatchedOperations = List.copyOf(unmatchedOperations);
  }

  /** {@return the {@code includeTags} entries no operation of the document is tagged with} */
  public List<String> unmatchedTags() {
    return unmatchedTags;
  }

  /** {@return the {@code includeOperations} entries that are no operation of the document} */
  public List<String> unmatchedOperations() {
    return unmatchedOperations;
  }
}
