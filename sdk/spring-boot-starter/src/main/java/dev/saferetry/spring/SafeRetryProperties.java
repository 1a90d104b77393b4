package dev.saferetry.spring;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * SafeRetry's application properties, under {@code saferetry}: the clients ({@code
 * saferetry.clients.<name>.*}), the JDBC outbox and inbox on the application's {@code DataSource}
 * ({@code saferetry.jdbc.*}), the relays ({@code saferetry.outbox.relay.*}) and the operator
 * endpoint ({@code saferetry.outbox.operator.*}).
 *
 * <p>Instances are mutable while Spring binds them and read-only by convention afterwards.
 */
@ConfigurationProperties("saferetry")
public class SafeRetryProperties {
  /** Whether SafeRetry's auto-configuration applies at all. */
  private boolean enabled = true;

  /** The clients, by bean name: each becomes a SafeRetryClient bean of that name. */
  private Map<String, ClientProperties> clients = new LinkedHashMap<>();

  /** The webhook sources, by name: each a verifier for SafeRetryWebhooks. */
  private Map<String, WebhookProperties> webhooks = new LinkedHashMap<>();

  /** The JDBC key store, outbox and inbox on the application's DataSource. */
  private final Jdbc jdbc = new Jdbc();

  /** The outbox's relays and operator endpoint. */
  private final Outbox outbox = new Outbox();

  /** The use of the application's resilience4j registries. */
  private final Resilience4j resilience4j = new Resilience4j();

  /** Creates the defaults. */
  public SafeRetryProperties() {}

  /** {@return whether SafeRetry's auto-configuration applies} */
  public boolean isEnabled() {
    return enabled;
  }

  /**
   * Sets whether SafeRetry's auto-configuration applies.
   *
   * @param enabled whether it applies
   */
  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  /** {@return the clients by bean name} */
  public Map<String, ClientProperties> getClients() {
    return clients;
  }

  /**
   * Sets the clients by bean name.
   *
   * @param clients the clients
   */
  public void setClients(Map<String, ClientProperties> clients) {
    this.clients = clients;
  }

  /** {@return the webhook sources by name} */
  public Map<String, WebhookProperties> getWebhooks() {
    return webhooks;
  }

  /**
   * Sets the webhook sources by name.
   *
   * @param webhooks the sources
   */
  public void setWebhooks(Map<String, WebhookProperties> webhooks) {
    this.webhooks = webhooks;
  }

  /** {@return the JDBC settings} */
  public Jdbc getJdbc() {
    return jdbc;
  }

  /** {@return the outbox settings} */
  public Outbox getOutbox() {
    return outbox;
  }

  /** {@return the resilience4j settings} */
  public Resilience4j getResilience4j() {
    return resilience4j;
  }

  /** The use of resilience4j's registries. Mutable while bound. */
  public static class Resilience4j {

    /** Creates the defaults. */
    public Resilience4j() {}

    /**
     * Whether clients take their breaker and retry settings from the application's resilience4j
     * registries (resilience4j.circuitbreaker.instances.&lt;client&gt;,
     * resilience4j.retry.instances.&lt;client&gt;) and create their breaker and retry there.
     */
    private boolean enabled = true;

    /** {@return whether enabled} */
    public boolean isEnabled() {
      return enabled;
    }

    /**
     * Sets whether enabled.
     *
     * @param enabled whether
     */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }

  /** Where a client keeps its intents' keys. */
  public enum KeyStoreType {
    /** In memory: lost with the process (tests, calls that need no restart safety). */
    MEMORY,
    /** A directory on disk, owner-only ({@code key-store.directory}). */
    FILE,
    /** The application's DataSource: the tables {@code saferetry.jdbc.*} names; the outbox's. */
    DATASOURCE
  }

  /** How SafeRetry's tables come to exist. */
  public enum SchemaInit {
    /** Applies SafeRetry's Flyway migrations, with a history table of their own. */
    FLYWAY,
    /** Applies SafeRetry's Liquibase changelog, with changelog tables of their own. */
    LIQUIBASE,
    /** Creates the tables if missing (the key store's own DDL). */
    CREATE,
    /** Only checks them: the application's own migrations include SafeRetry's. */
    NONE
  }

  /** The JDBC part. Mutable while bound. */
  public static class Jdbc {

    /** Creates the defaults. */
    public Jdbc() {}

    /** The key store's (and outbox's) table. */
    private String table = "saferetry_intents";

    /** The database schema of SafeRetry's tables; empty for the connection's default. */
    private String schema;

    /** The inbox's table. */
    private String inboxTable = "saferetry_inbox";

    /**
     * How SafeRetry's tables are created at start-up: flyway, liquibase, create or none (only the
     * check, which fails start-up naming the missing or outdated table).
     */
    private SchemaInit schemaInit = SchemaInit.NONE;

    /**
     * How old an outbox intent may get before it is held as expired instead of sent (the table's
     * rule; at least an hour); default a day.
     */
    private Duration outboxMaxAge;

    /**
     * The key that seals outbox rows (an HMAC over each row, checked before a relay sends it): its
     * id and a secret of at least 32 bytes, kept out of the database. Without it, enqueues are
     * refused and no relay runs.
     */
    private final SealKey outboxSealKey = new SealKey();

    /** Former seal keys, while rows sealed with them may still be queued. */
    private List<SealKey> outboxRetiredSealKeys = new ArrayList<>();

    /** {@return the key store's table} */
    public String getTable() {
      return table;
    }

    /**
     * Sets the key store's table.
     *
     * @param table the table name
     */
    public void setTable(String table) {
      this.table = table;
    }

    /** {@return the schema, or null} */
    public String getSchema() {
      return schema;
    }

    /**
     * Sets the schema.
     *
     * @param schema the schema
     */
    public void setSchema(String schema) {
      this.schema = schema;
    }

    /** {@return the inbox's table} */
    public String getInboxTable() {
      return inboxTable;
    }

    /**
     * Sets the inbox's table.
     *
     * @param inboxTable the table
     */
    public void setInboxTable(String inboxTable) {
      this.inboxTable = inboxTable;
    }

    /** {@return the outbox's maximum age, or null for the default} */
    public Duration getOutboxMaxAge() {
      return outboxMaxAge;
    }

    /**
     * Sets the outbox's maximum age.
     *
     * @param outboxMaxAge the age
     */
    public void setOutboxMaxAge(Duration outboxMaxAge) {
      this.outboxMaxAge = outboxMaxAge;
    }

    /** {@return the current seal key} */
    public SealKey getOutboxSealKey() {
      return outboxSealKey;
    }

    /** {@return the retired seal keys} */
    public List<SealKey> getOutboxRetiredSealKeys() {
      return outboxRetiredSealKeys;
    }

    /**
     * Sets the retired seal keys.
     *
     * @param keys the keys
     */
    public void setOutboxRetiredSealKeys(List<SealKey> keys) {
      this.outboxRetiredSealKeys = keys;
    }

    /** {@return how the tables are created} */
    public SchemaInit getSchemaInit() {
      return schemaInit;
    }

    /**
     * Sets how the tables are created.
     *
     * @param schemaInit how
     */
    public void setSchemaInit(SchemaInit schemaInit) {
      this.schemaInit = schemaInit;
    }
  }

  /** An outbox seal key: its id and secret (masked in Actuator). Mutable while bound. */
  public static class SealKey {
    /** The key's id, stored with each row: 1 to 16 letters, digits, _ or -. */
    private String id;

    /** The secret: at least 32 bytes (UTF-8), e.g. the output of openssl rand -base64 48. */
    private String secret;

    /** Creates an empty key. */
    public SealKey() {}

    /** {@return the id, or null} */
    public String getId() {
      return id;
    }

    /**
     * Sets the id.
     *
     * @param id the id
     */
    public void setId(String id) {
      this.id = id;
    }

    /** {@return the secret, or null} */
    public String getSecret() {
      return secret;
    }

    /**
     * Sets the secret.
     *
     * @param secret the secret
     */
    public void setSecret(String secret) {
      this.secret = secret;
    }

    /** {@return whether both the id and the secret are set} */
    public boolean isConfigured() {
      return id != null && !id.isBlank() && secret != null && !secret.isEmpty();
    }

    @Override
    public String toString() {
      return "SealKey[" + id + ", ***]";
    }
  }

  /** The outbox part. Mutable while bound. */
  public static class Outbox {

    /** Creates the defaults. */
    public Outbox() {}

    private final Relay relay = new Relay();
    private final Operator operator = new Operator();

    /** {@return the relays' settings} */
    public Relay getRelay() {
      return relay;
    }

    /** {@return the operator endpoint's settings} */
    public Operator getOperator() {
      return operator;
    }
  }

  /**
   * The relays: started after the context is refreshed, stopped gracefully. Mutable while bound.
   */
  public static class Relay {

    /** Creates the defaults. */
    public Relay() {}

    /** Whether relays run in this application (off for an instance that only enqueues). */
    private boolean enabled = true;

    /** How many relays (each a thread claiming batches) this instance runs. */
    private int count = 1;

    /** How many claimed intents each relay sends at once. */
    private int concurrency = 4;

    /** How long a claim's lease lasts: another instance takes an intent over after it. */
    private Duration lease = Duration.ofMinutes(2);

    /** How long an idle relay waits before looking again. */
    private Duration pollInterval = Duration.ofMillis(250);

    /** How many intents a pass claims at most. */
    private int batchSize = 50;

    /**
     * The relays' owner prefix in leases, logs and meters; default: host, process id, a random
     * suffix.
     */
    private String owner;

    /** {@return whether relays run} */
    public boolean isEnabled() {
      return enabled;
    }

    /**
     * Sets whether relays run.
     *
     * @param enabled whether
     */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    /** {@return how many relays} */
    public int getCount() {
      return count;
    }

    /**
     * Sets how many relays.
     *
     * @param count how many
     */
    public void setCount(int count) {
      this.count = count;
    }

    /** {@return the sends at once per relay} */
    public int getConcurrency() {
      return concurrency;
    }

    /**
     * Sets the sends at once per relay.
     *
     * @param concurrency how many
     */
    public void setConcurrency(int concurrency) {
      this.concurrency = concurrency;
    }

    /** {@return the lease} */
    public Duration getLease() {
      return lease;
    }

    /**
     * Sets the lease.
     *
     * @param lease the lease
     */
    public void setLease(Duration lease) {
      this.lease = lease;
    }

    /** {@return the poll interval} */
    public Duration getPollInterval() {
      return pollInterval;
    }

    /**
     * Sets the poll interval.
     *
     * @param pollInterval the interval
     */
    public void setPollInterval(Duration pollInterval) {
      this.pollInterval = pollInterval;
    }

    /** {@return the batch size} */
    public int getBatchSize() {
      return batchSize;
    }

    /**
     * Sets the batch size.
     *
     * @param batchSize the size
     */
    public void setBatchSize(int batchSize) {
      this.batchSize = batchSize;
    }

    /** {@return the owner prefix, or null} */
    public String getOwner() {
      return owner;
    }

    /**
     * Sets the owner prefix.
     *
     * @param owner the prefix
     */
    public void setOwner(String owner) {
      this.owner = owner;
    }
  }

  /** The operator endpoint {@code saferetryoutbox}. Mutable while bound. */
  public static class Operator {

    /** Creates the defaults. */
    public Operator() {}

    /**
     * Whether the endpoint's actions (requeue, abandon, release a key) run; off by default. When
     * on, only for an authenticated principal, whose name is the audit's actor.
     */
    private boolean actionsEnabled = false;

    /** {@return whether actions run} */
    public boolean isActionsEnabled() {
      return actionsEnabled;
    }

    /**
     * Sets whether actions run.
     *
     * @param actionsEnabled whether
     */
    public void setActionsEnabled(boolean actionsEnabled) {
      this.actionsEnabled = actionsEnabled;
    }
  }
}
