/**
 * Support, not an example: {@link dev.saferetry.examples.support.stripe.StripeShapedServer}, an
 * in-process server that speaks Stripe's v1 wire format (form bodies with bracket nesting, the
 * Idempotency-Key rules, Stripe-Account and Stripe-Version, Request-Id, Stripe's error bodies) with
 * hooks to lose answers after commit and to hold a request, and counters of side effects. It stands
 * in for Stripe so that examples and tests run without network access.
 */
package dev.saferetry.examples.support.stripe;
