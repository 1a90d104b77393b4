/**
 * Not API. The codecs' Jackson-backed implementations, percent-encoding, response reading and the
 * request fingerprint. Anything here may change in any release.
 */
package dev.saferetry.internal.codec;
