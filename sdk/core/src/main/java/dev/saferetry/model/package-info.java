/**
 * The few value types that typed clients generated from an OpenAPI document use for what plain Java
 * types cannot say: a request field that is absent, cleared or set ({@link
 * dev.saferetry.model.FieldValue}), a related object that is an id or the object itself ({@link
 * dev.saferetry.model.Expandable}), and a time in Unix seconds ({@link
 * dev.saferetry.model.UnixTime}). Hand-written models may use them too.
 */
package dev.saferetry.model;
