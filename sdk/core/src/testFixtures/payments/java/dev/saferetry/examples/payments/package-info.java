/**
 * A typed client built on the SDK: charges and refunds as {@code Operation}s and records, each
 * create one intent with one key. Not part of the SDK: copy it and shape it to your provider.
 */
package dev.saferetry.examples.payments;
