package dev.saferetry.testing.provider;

/**
 * The wire format a {@link FakeProvider} speaks. Both keep one answer per idempotency key: the same
 * key with the same request replays the stored answer, marked {@code Idempotent-Replayed: true};
 * the same key with another request is refused; a request arriving while the first with its key is
 * still running gets 409; every answer carries a {@code Request-Id}.
 *
 * <p>Thread-safe (an enum).
 */
public enum Dialect {
  /**
   * The JSON payments API of SafeRetry's reference server, which the README's quick start calls:
   * JSON bodies; {@code POST /v1/charges} ({@code amount}, {@code currency}, optional {@code
   * description} and {@code customer}; 201 with the charge and a {@code Location}), {@code GET
   * /v1/charges/{id}}, {@code GET /v1/charges} (newest first, optional {@code description} filter
   * and {@code limit}), {@code POST /v1/refunds} ({@code charge}, optional {@code amount}; 201) and
   * {@code GET /v1/refunds/{id}}. Errors are {@code {"error": {"type", "code", "message"}}}; a key
   * reused with another request gets 422 {@code idempotency_key_reused}, a key still in progress
   * 409 {@code request_in_progress} with {@code Retry-After: 1}. Any credential (or none) is
   * accepted; each {@code Authorization} value has its own keys and objects.
   */
  JSON,

  /**
   * Stripe's v1 API, as far as a payment flow needs it: form-encoded bodies with bracket nesting
   * ({@code metadata[order_id]=1}, {@code expand[]=customer}); an API key is required ({@code
   * Authorization: Bearer sk_...} or Basic); {@code Stripe-Account} gives each connected account
   * its own objects; {@code Stripe-Version} is echoed. Customers (create, retrieve, update, delete,
   * list, search), charges (create, retrieve, capture, list, search), refunds (create, retrieve,
   * list) and payment intents (create, retrieve, confirm, capture, cancel, list, search); lists
   * take {@code limit}, {@code starting_after} and {@code ending_before}, searches {@code query},
   * {@code limit} and {@code page} (answering {@code next_page}); {@code expand[]} expands one
   * level. Unknown parameters are refused as Stripe refuses them. A key reused with another request
   * gets 400 {@code idempotency_error}; a key in progress 409 {@code idempotency_key_in_use} with
   * {@code Stripe-Should-Retry: true}. Test payment methods and sources whose name contains {@code
   * chargeDeclined} ({@code pm_card_chargeDeclined}, {@code tok_chargeDeclined}) are declined with
   * 402 {@code card_declined}; any other succeeds.
   */
  STRIPE
}
