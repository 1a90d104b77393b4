/**
 * The request model's building blocks: body codecs (JSON, and form encoding with Stripe's bracket
 * conventions), query parameters, path templates whose variables stay single segments, and {@link
 * dev.saferetry.codec.TypeRef} for generic response types. Every rule encodes to exact, repeatable
 * bytes, so a retry re-sends what the first attempt sent.
 */
package dev.saferetry.codec;
