package dev.saferetry;

import java.util.Objects;

/**
 * What a {@link Reconciler} found at the provider about an intent.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param finding what the provider's answer proves
 * @param resourceId the provider's resource the intent created, when {@link Finding#SUCCEEDED} or
 *     {@link Finding#FAILED}; otherwise {@code null}
 * @param note what to tell a person (never a body or a secret), or {@code null}
 */
public record Reconciliation(Finding finding, String resourceId, String note) {

  /** What a reconciliation proves. */
  public enum Finding {
    /** The provider acted on the intent: its resource exists and succeeded. */
    SUCCEEDED,
    /** The provider acted on the intent and its resource failed (for example a declined charge). */
    FAILED,
    /**
     * The provider has no resource for the intent: once nothing can still send it with its old key,
     * it may be abandoned and recorded again with a new key.
     */
    NOTHING_EXISTS,
    /** The lookup proves nothing (it failed, or the provider's data may lag): ask again later. */
    UNRESOLVED
  }

  /**
   * Validates the finding.
   *
   * @param finding what the provider's answer proves
   * @param resourceId the provider's resource the intent created, or {@code null}
   * @param note what to tell a person, or {@code null}
   * @throws IllegalArgumentException if a resource id is missing or given where it does not belong
   */
  public Reconciliation {
    Objects.requireNonNull(finding, "finding");
    boolean found = finding == Finding.SUCCEEDED || finding == Finding.FAILED;
    if (found && (resourceId == null || resourceId.isBlank())) {
      throw new IllegalArgumentException(finding + " needs the resource id");
    }
    if (!found && resourceId != null) {
      throw new IllegalArgumentException(finding + " has no resource id");
    }
  }

  /**
   * The intent's resource exists and succeeded.
   *
   * @param resourceId the provider's id of it
   * @return the finding
   */
  public static Reconciliation succeeded(String resourceId) {
    return new Reconciliation(Finding.SUCCEEDED, resourceId, null);
  }

  /**
   * The intent's resource exists and failed.
   *
   * @param resourceId the provider's id of it
   * @param note why it failed (a status, an error code), or {@code null}
   * @return the finding
   */
  public static Reconciliation failed(String resourceId, String note) {
    return new Reconciliation(Finding.FAILED, resourceId, note);
  }

  /**
   * The provider has nothing for the intent.
   *
   * @return the finding
   */
  public static Reconciliation nothingExists() {
    return new Reconciliation(Finding.NOTHING_EXISTS, null, null);
  }

  /**
   * The lookup proves nothing.
   *
   * @param why why (for a person and logs; never a body or a secret)
   * @return the finding
   */
  public static Reconciliation unresolved(String why) {
    return new Reconciliation(Finding.UNRESOLVED, null, why);
  }

  /**
   * Returns whether the provider acted on the intent (its resource exists).
   *
   * @return whether the finding is {@link Finding#SUCCEEDED} or {@link Finding#FAILED}
   */
  public boolean found() {
    return finding == Finding.SUCCEEDED || finding == Finding.FAILED;
  }
}
