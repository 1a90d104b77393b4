/**
 * A key store on your own relational database (PostgreSQL, H2, MariaDB) through plain JDBC; the
 * driver and the pool are the application's. {@link dev.saferetry.jdbc.keystore.JdbcKeyStore} keeps
 * intents where every instance of a fleet sees them, and records an intent inside the caller's own
 * transaction.
 */
package dev.saferetry.jdbc.keystore;
