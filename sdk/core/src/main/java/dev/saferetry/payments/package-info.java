/** A typed payments API (charges, refunds) built on the generic SafeRetry client. */
package dev.saferetry.payments;
