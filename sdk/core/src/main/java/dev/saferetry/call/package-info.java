/**
 * What one call did, as its result, its exception and its events report it: each {@link
 * dev.saferetry.call.Attempt}, the last {@link dev.saferetry.call.ResponseView response} as the
 * caller may see it, and the {@link dev.saferetry.call.Outcome} it ended with. Values only: this
 * package uses no other package of the SDK but the resilience policies' transport failure kinds.
 */
package dev.saferetry.call;
