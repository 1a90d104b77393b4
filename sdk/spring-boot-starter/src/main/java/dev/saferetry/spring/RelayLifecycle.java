package dev.saferetry.spring;

import dev.saferetry.SafeRetryClient;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.outbox.OutboxRelay;
import dev.saferetry.jdbc.outbox.OutboxRelayBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The outbox's relays as one lifecycle bean: started once the context is refreshed (every bean, the
 * schema check included, is ready), stopped first on shutdown. A stop lets the passes running
 * finish — every claimed intent is sent and its outcome recorded — on a thread of its own, so the
 * context's shutdown phase timeout ({@code spring.lifecycle.timeout-per-shutdown-phase}) bounds the
 * wait; a send still running after it is left to its lease (another instance takes it over after
 * the lease with the same key), never recorded as failed.
 *
 * <p>This class is thread-safe.
 */
final class RelayLifecycle implements SmartLifecycle {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry.spring");

  private final List<OutboxRelay> relays;
  private final List<String> owners;
  private volatile boolean running;

  RelayLifecycle(List<OutboxRelay> relays, List<String> owners) {
    this.relays = List.copyOf(relays);
    this.owners = List.copyOf(owners);
  }

  /** Builds {@code count} relays that send with {@code clients}, one client per tenant. */
  static RelayLifecycle build(
      JdbcKeyStore store, List<SafeRetryClient> clients, SafeRetryProperties.Relay p) {
    if (clients.isEmpty()) {
      return new RelayLifecycle(List.of(), List.of());
    }
    Map<String, SafeRetryClient> byTenant = new HashMap<>();
    for (SafeRetryClient c : clients) {
      SafeRetryClient other = byTenant.putIfAbsent(c.tenant(), c);
      if (other != null) {
        throw new IllegalStateException(
            "two clients on the DataSource key store share the tenant '"
                + c.tenant()
                + "' ("
                + other
                + ", "
                + c
                + "): set saferetry.clients.<name>.tenant so each has its own");
      }
    }
    String prefix = p.getOwner() != null ? p.getOwner() : defaultOwner();
    List<OutboxRelay> relays = new ArrayList<>();
    List<String> owners = new ArrayList<>();
    for (int i = 0; i < p.getCount(); i++) {
      String owner = prefix + "-" + i;
      owners.add(owner);
      OutboxRelayBuilder b =
          OutboxRelay.builder()
              .store(store)
              .client(clients.get(0))
              .owner(owner)
              .concurrency(p.getConcurrency())
              .leaseFor(p.getLease())
              .pollInterval(p.getPollInterval())
              .batchSize(p.getBatchSize());
      clients.subList(1, clients.size()).forEach(b::client);
      relays.add(b.build());
    }
    return new RelayLifecycle(relays, owners);
  }

  private static String defaultOwner() {
    String host;
    try {
      host = java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException e) {
      host = "host";
    }
    // The process id tells instances on one host apart; the suffix, contexts in one process.
    String owner =
        host
            + "-"
            + ProcessHandle.current().pid()
            + "-"
            + Integer.toHexString(
                java.util.concurrent.ThreadLocalRandom.current().nextInt(0x10000));
    return owner.length() > 100 ? owner.substring(owner.length() - 100) : owner;
  }

  List<OutboxRelay> relays() {
    return relays;
  }

  /** {@return how many of the relays' threads are alive} Each relay runs one, named after it. */
  int aliveThreads() {
    java.util.Set<String> names = new java.util.HashSet<>();
    for (String owner : owners) {
      names.add("saferetry-relay-" + owner);
    }
    int alive = 0;
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.isAlive() && names.contains(t.getName())) {
        alive++;
      }
    }
    return alive;
  }

  @Override
  public void start() {
    for (OutboxRelay r : relays) {
      r.start();
    }
    running = true;
  }

  @Override
  public void stop() {
    for (OutboxRelay r : relays) {
      try {
        r.stop();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        LOG.warn("interrupted while {} finished its pass; its sends are left to their lease", r);
        break;
      }
    }
    running = false;
  }

  @Override
  public void stop(Runnable callback) {
    Thread t =
        new Thread(
            () -> {
              try {
                stop();
              } finally {
                callback.run();
              }
            },
            "saferetry-relay-stop");
    t.setDaemon(true);
    t.start();
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** Stops before the web server's graceful shutdown (so webhooks still land) and the pool. */
  @Override
  public int getPhase() {
    return SmartLifecycle.DEFAULT_PHASE;
  }
}
