/**
 * Not API. The leaves of the client's machinery that the call engine (package-private in {@code
 * dev.saferetry}) and the API packages share: redaction of secrets, header and server-id text, the
 * request fingerprint and the response reader; below it, the codecs' encoders and the stores.
 * Nothing here uses {@code dev.saferetry} or a package that uses it. Anything here may change in
 * any release.
 */
package dev.saferetry.internal;
