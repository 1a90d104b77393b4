/**
 * Verifies webhook signatures on the raw request bytes before anything parses them: Stripe, GitHub
 * and Standard Webhooks, with rotated secrets and a timestamp tolerance. Only the JDK.
 */
module dev.saferetry.webhook {
  exports dev.saferetry.webhook;
}
