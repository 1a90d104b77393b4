/**
 * Not API. The rules a stored request obeys — where its target may lead, which headers it may
 * carry, how a body carries its key — shared by {@link dev.saferetry.idempotency.StoredRequest} and
 * the client that sends one. A leaf: it depends on no other package of the SDK, so the public
 * package that validates with it does not come back through here.
 */
package dev.saferetry.internal.storedrequest;
