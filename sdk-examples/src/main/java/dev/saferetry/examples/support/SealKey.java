package dev.saferetry.examples.support;

import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import javax.sql.DataSource;

/**
 * The key that seals the examples' outbox rows ({@code JdbcKeyStoreBuilder.outboxSealKey}): from
 * the environment variable {@value #VARIABLE} (base64 of at least 32 bytes) when set, otherwise a
 * fixed demonstration key, so that the examples' processes share one. In production the key comes
 * from your secret manager, never from the database whose rows it seals.
 */
public final class SealKey {
  /** The environment variable holding the key, base64. */
  public static final String VARIABLE = "SAFERETRY_OUTBOX_SEAL_KEY";

  /** The key's id, stored with each row. */
  public static final String ID = "demo-1";

  private SealKey() {}

  /**
   * {@return a store on {@code db} that creates its table if it is new and seals outbox rows with
   * this key: {@code JdbcKeyStore.builder().dataSource(db).createSchema(true).outboxSealKey(ID,
   * secret())}}
   */
  public static JdbcKeyStore store(DataSource db) {
    return JdbcKeyStore.builder()
        .dataSource(db)
        .createSchema(true)
        .outboxSealKey(ID, secret())
        .build();
  }

  /** {@return the key's bytes} */
  public static byte[] secret() {
    String configured = System.getenv(VARIABLE);
    return configured != null
        ? Base64.getDecoder().decode(configured)
        : "saferetry-examples-demo-seal-key".getBytes(StandardCharsets.UTF_8);
  }
}
