/**
 * Not API. What the JDBC stores share: dialect detection and its differences, checked SQL names,
 * schema scripts shipped as resources and the schema version table; and the key store's SQL.
 * Anything here may change in any release.
 */
package dev.saferetry.internal.jdbc;
