package dev.saferetry;

import java.util.Objects;

/**
 * What a {@link Reconciler} found at the provider about an intent: exactly one of {@link
 * #succeeded(String) succeeded} or {@link #failed(String, String) failed} (the provider acted, its
 * resource exists), {@link #nothingExists() nothing exists} or {@link #unresolved(String)
 * unresolved} (the lookup proves nothing).
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class Reconciliation {
  private enum Finding {
    SUCCEEDED,
    FAILED,
    NOTHING_EXISTS,
    UNRESOLVED
  }

  private final Finding finding;
  private final String resourceId;
  private final String note;

  private Reconciliation(Finding finding, String resourceId, String note) {
    boolean found = finding == Finding.SUCCEEDED || finding == Finding.FAILED;
    if (found && (resourceId == null || resourceId.isBlank())) {
      throw new IllegalArgumentException(finding + " needs the resource id");
    }
    this.finding = finding;
    this.resourceId = resourceId;
    this.note = note;
  }

  /**
   * The intent's resource exists and succeeded: the provider acted on the intent.
   *
   * @param resourceId the provider's id of it
   * @return the finding
   * @throws IllegalArgumentException if the resource id is missing or blank
   */
  public static Reconciliation succeeded(String resourceId) {
    return new Reconciliation(Finding.SUCCEEDED, resourceId, null);
  }

  /**
   * The intent's resource exists and failed (for example a declined charge): the provider acted on
   * the intent.
   *
   * @param resourceId the provider's id of it
   * @param note why it failed (a status, an error code), or {@code null}
   * @return the finding
   * @throws IllegalArgumentException if the resource id is missing or blank
   */
  public static Reconciliation failed(String resourceId, String note) {
    return new Reconciliation(Finding.FAILED, resourceId, note);
  }

  /**
   * The provider has no resource for the intent: once nothing can still send it with its old key,
   * it may be abandoned and recorded again with a new key.
   *
   * @return the finding
   */
  public static Reconciliation nothingExists() {
    return new Reconciliation(Finding.NOTHING_EXISTS, null, null);
  }

  /**
   * The lookup proves nothing (it failed, or the provider's data may lag): ask again later.
   *
   * @param why why (for a person and logs; never a body or a secret)
   * @return the finding
   */
  public static Reconciliation unresolved(String why) {
    return new Reconciliation(Finding.UNRESOLVED, null, why);
  }

  /** {@return whether the intent's resource exists and succeeded} */
  public boolean isSucceeded() {
    return finding == Finding.SUCCEEDED;
  }

  /** {@return whether the intent's resource exists and failed} */
  public boolean isFailed() {
    return finding == Finding.FAILED;
  }

  /** {@return whether the provider provably has no resource for the intent} */
  public boolean isNothingExists() {
    return finding == Finding.NOTHING_EXISTS;
  }

  /** {@return whether the lookup proves nothing} */
  public boolean isUnresolved() {
    return finding == Finding.UNRESOLVED;
  }

  /** {@return whether the provider acted on the intent: it succeeded or failed} */
  public boolean found() {
    return finding == Finding.SUCCEEDED || finding == Finding.FAILED;
  }

  /**
   * {@return the provider's resource the intent created when it {@linkplain #found() was found};
   * otherwise {@code null}}
   */
  public String resourceId() {
    return resourceId;
  }

  /** {@return what to tell a person (never a body or a secret), or {@code null}} */
  public String note() {
    return note;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Reconciliation r
        && finding == r.finding
        && Objects.equals(resourceId, r.resourceId)
        && Objects.equals(note, r.note);
  }

  @Override
  public int hashCode() {
    return Objects.hash(finding, resourceId, note);
  }

  @Override
  public String toString() {
    return "Reconciliation[finding="
        + finding
        + ", resourceId="
        + resourceId
        + ", note="
        + note
        + "]";
  }
}
