package dev.saferetry.conformance.server;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

/** The business work of one request, run inside the caller's transaction. */
@FunctionalInterface
interface Mutation {
  Outcome run(Connection connection, Instant now) throws SQLException;
}
