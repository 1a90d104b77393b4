package dev.saferetry.spring;

import dev.saferetry.jdbc.inbox.InboxResult;
import dev.saferetry.webhook.WebhookFailure;

/**
 * What became of one webhook delivery, and the HTTP status to answer the provider with.
 *
 * @param outcome applied, duplicate or stale; null when the delivery was refused or must be sent
 *     again
 * @param failure why the signature check refused it, or null
 * @param httpStatus 200 when it was applied or already was (the provider stops sending it), 400
 *     when its signature is refused, 503 when another delivery of it is being handled (the provider
 *     sends it again later)
 */
public record WebhookReceipt(InboxResult outcome, WebhookFailure failure, int httpStatus) {
  /** {@return whether the provider may consider the delivery done} */
  public boolean acknowledged() {
    return httpStatus == 200;
  }
}
