package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.conformance.server.Fault;
import dev.saferetry.conformance.server.ReferenceServer;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Positive control on PostgreSQL (env {@code SAFERETRY_PG_URL}, default {@code
 * jdbc:postgresql://127.0.0.1:5432/test?user=postgres}); skipped when unreachable. Each run uses
 * its own schema, dropped afterwards.
 */
class PostgresPositiveControlTest {
  private static final String DEFAULT_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
  private static String baseUrl;
  private static String schema;
  private static String schemaUrl;
  private static String unreachable;

  @BeforeAll
  static void createSchema() {
    String env = System.getenv("SAFERETRY_PG_URL");
    baseUrl = env == null || env.isBlank() ? DEFAULT_URL : env;
    schema = "saferetry_conf_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    DriverManager.setLoginTimeout(3);
    try (Connection c = DriverManager.getConnection(baseUrl);
        Statement s = c.createStatement()) {
      s.execute("create schema " + schema);
    } catch (SQLException e) {
      unreachable =
          "PostgreSQL not reachable at "
              + baseUrl.replaceAll("password=[^&]*", "password=***")
              + " ("
              + e.getMessage()
              + "); set SAFERETRY_PG_URL to run these tests";
      System.out.println("SKIPPED: " + unreachable);
      return;
    }
    schemaUrl = baseUrl + (baseUrl.contains("?") ? "&" : "?") + "currentSchema=" + schema;
  }

  @BeforeEach
  void requirePostgres() {
    Assumptions.assumeTrue(unreachable == null, unreachable);
  }

  @AfterAll
  static void dropSchema() throws SQLException {
    if (schemaUrl != null) {
      try (Connection c = DriverManager.getConnection(baseUrl);
          Statement s = c.createStatement()) {
        s.execute("drop schema " + schema + " cascade");
      }
    }
  }

  @Test
  void referenceServerOnPostgresPassesEveryCase() {
    try (ReferenceServer server = ReferenceServer.builder().jdbcUrl(schemaUrl).build().start()) {
      RunResult run = SuiteRuns.against(server, "postgres");

      assertThat(run.results())
          .as(SuiteRuns.problems(run))
          .allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Verdict.PASS));
    }
  }

  @Test
  void twoServersSharingOneDatabaseExecuteConcurrentSameKeyRequestsOnce() throws Exception {
    try (ReferenceServer a = ReferenceServer.builder().jdbcUrl(schemaUrl).build().start();
        ReferenceServer b = ReferenceServer.builder().jdbcUrl(schemaUrl).build().start()) {
      a.faults().next(Fault.delay(Duration.ofMillis(300)));
      b.faults().next(Fault.delay(Duration.ofMillis(300)));
      String description = "shared-" + UUID.randomUUID();
      List<Response> responses = race(List.of(a.baseUrl(), b.baseUrl()), 12, description);

      Set<String> ids = new HashSet<>();
      for (Response r : responses) {
        assertThat(r.code()).as("every response is 201 or 409").isIn(201, 409);
        if (r.code() == 201) {
          ids.add(r.header("Location"));
        }
      }
      assertThat(ids).hasSizeLessThanOrEqualTo(1);
      assertThat(a.sideEffects(description)).isEqualTo(1);
      assertThat(b.sideEffects(description)).isEqualTo(1);
    }
  }

  private static List<Response> race(List<String> servers, int n, String description)
      throws Exception {
    OkHttpClient http = new OkHttpClient.Builder().retryOnConnectionFailure(false).build();
    String body = "{\"amount\":700,\"currency\":\"eur\",\"description\":\"" + description + "\"}";
    ExecutorService pool = Executors.newFixedThreadPool(n);
    CountDownLatch gate = new CountDownLatch(1);
    try {
      List<Future<Response>> futures = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        Request request =
            new Request.Builder()
                .url(servers.get(i % servers.size()) + "/v1/charges")
                .header("Authorization", "Bearer shared_tenant")
                .header("Idempotency-Key", description)
                .post(RequestBody.create(body, MediaType.get("application/json")))
                .build();
        futures.add(
            pool.submit(
                () -> {
                  gate.await();
                  try (Response r = http.newCall(request).execute()) {
                    r.body().string();
                    return r;
                  } catch (IOException e) {
                    throw new IllegalStateException(e);
                  }
                }));
      }
      gate.countDown();
      List<Response> responses = new ArrayList<>();
      for (Future<Response> f : futures) {
        responses.add(f.get(30, TimeUnit.SECONDS));
      }
      return responses;
    } finally {
      pool.shutdownNow();
    }
  }
}
