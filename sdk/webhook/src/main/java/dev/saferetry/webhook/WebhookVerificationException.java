package dev.saferetry.webhook;

import java.util.Objects;
import java.util.Optional;

/**
 * A webhook delivery was rejected. {@link #failure()} says which check failed and {@link #header()}
 * which header it concerned; the message is safe to log: it never contains a secret, a signature, a
 * header value or the payload. Answer such a delivery with a 4xx status and do not process it.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class WebhookVerificationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why the delivery was refused. */
  private final WebhookFailure failure;

  /** The header at fault, or null. */
  private final String header;

  WebhookVerificationException(WebhookFailure failure, String header, String detail) {
    super(
        "webhook rejected: "
            + failure
            + (header == null ? "" : " (" + header + ")")
            + (detail == null ? "" : ": " + detail));
    this.failure = Objects.requireNonNull(failure, "failure");
    this.header = header;
  }

  /** {@return the check that failed} */
  public WebhookFailure failure() {
    return failure;
  }

  /** {@return the name of the header the failure concerns, if it concerns one} */
  public Optional<String> header() {
    return Optional.ofNullable(header);
  }
}
