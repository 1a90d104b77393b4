package dev.saferetry.examples.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.newapp.NewAppBuild;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A brand-new Spring Boot application written from {@code docs/spring-boot.md} alone works: the
 * test writes the application under {@code target/} — its {@code pom.xml} holds exactly the guide's
 * dependency snippet (plus its test dependencies), its {@code application.yml} follows the guide,
 * one service charges through the injected typed {@code PaymentsClient} and one
 * {@code @Transactional} method enqueues — puts this build's artifacts into a local repository of
 * its own under {@code target/} (never the user's {@code ~/.m2}, whose third-party artifacts it
 * only reads, through links) and runs Maven on the application's own tests. Those start the real
 * application context with {@code @WithFakeProvider} and check one charge through a lost answer and
 * a restart, the relay delivering, SafeRetry's health component and meters, and the operator
 * endpoint refusing an anonymous request.
 *
 * <p>Maven runs online, as a user's first build does: the application takes Spring Boot's own
 * versions of what the SDK's build pins otherwise (H2 2.4.240, HikariCP 7.0.2), which a fresh
 * machine has not downloaded yet; this build's artifacts are found in the local repository.
 */
class NewSpringBootAppTest {
  private static final Path ROOT = Path.of("../..").toAbsolutePath().normalize();

  /** This build's artifacts the application reaches: parents and BOM (poms), then the jars. */
  private static final List<String> POMS =
      List.of("pom.xml", "sdk/pom.xml", "sdk/clients/pom.xml", "sdk/bom/pom.xml");

  private static final List<String> JARS =
      List.of(
          "sdk/core",
          "sdk/jdbc",
          "sdk/webhook",
          "sdk/testing",
          "sdk/spring-boot-starter",
          "sdk/clients/payments");

  private static final String PACKAGE = "src/%s/java/com/example/shop/";

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void aNewApplicationFromTheGuideChargesOnceRelaysAndShowsHealthMetricsAndARefusal()
      throws Exception {
    String guide = Files.readString(ROOT.resolve("docs/spring-boot.md"));
    String snippet = block(section(guide, "## Dependency"), "```xml\n");
    assertThat(snippet)
        .contains("<artifactId>saferetry-spring-boot-starter</artifactId>")
        .contains("<artifactId>saferetry-payments</artifactId>");

    Path work = Path.of("target/new-spring-boot-app").toAbsolutePath();
    NewAppBuild.deleteTree(work);
    Path app = Files.createDirectories(work.resolve("app"));
    write(app, "pom.xml", pom(snippet));
    write(app, "src/main/resources/application.yml", APPLICATION_YML);
    write(app, "src/main/resources/db/migration/V1__orders.sql", ORDERS_SQL);
    write(app, PACKAGE.formatted("main") + "ShopApplication.java", SHOP_APPLICATION);
    write(app, PACKAGE.formatted("main") + "ChargeService.java", CHARGE_SERVICE);
    write(app, PACKAGE.formatted("main") + "OrderService.java", ORDER_SERVICE);
    write(app, PACKAGE.formatted("test") + "ShopApplicationTest.java", SHOP_TEST);
    Path repo = NewAppBuild.localRepository(work.resolve("repo"), ROOT, POMS, JARS);

    Process mvn =
        new ProcessBuilder(NewAppBuild.mvn(), "-B", "-q", "-Dmaven.repo.local=" + repo, "test")
            .directory(app.toFile())
            .redirectErrorStream(true)
            .redirectOutput(work.resolve("mvn.log").toFile())
            .start();
    boolean finished = mvn.waitFor(80, TimeUnit.SECONDS);
    if (!finished) {
      mvn.descendants().forEach(ProcessHandle::destroyForcibly);
      mvn.destroyForcibly();
    }
    String log = Files.readString(work.resolve("mvn.log"));
    assertThat(finished).as("Maven finished within 80 s:\n%s", log).isTrue();
    assertThat(mvn.exitValue()).as("mvn test in the new application:\n%s", log).isZero();
    Path report =
        app.resolve("target/surefire-reports/TEST-com.example.shop.ShopApplicationTest.xml");
    assertThat(Files.readString(report))
        .as("every test of the new application ran and passed")
        .contains("tests=\"4\"")
        .contains("failures=\"0\"")
        .contains("errors=\"0\"")
        .contains("skipped=\"0\"");
  }

  /**
   * The application's pom: coordinates, Java 17, pinned plugins, the guide's snippet, its tests.
   */
  private static String pom(String snippet) {
    int end = snippet.lastIndexOf("</dependencies>");
    String withTests =
        snippet.substring(0, end)
            + """
              <!-- beyond the snippet: Spring Security for the operator endpoint, and the tests -->
              <dependency>
                <groupId>org.springframework.boot</groupId>
                <artifactId>spring-boot-starter-security</artifactId>
              </dependency>
              <dependency>
                <groupId>org.springframework.boot</groupId>
                <artifactId>spring-boot-starter-test</artifactId>
                <scope>test</scope>
              </dependency>
              <dependency>
                <groupId>dev.saferetry</groupId>
                <artifactId>saferetry-testing</artifactId>
                <scope>test</scope>
              </dependency>
            """
            + snippet.substring(end);
    return """
        <?xml version="1.0" encoding="UTF-8"?>
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <groupId>com.example</groupId>
          <artifactId>shop</artifactId>
          <version>1.0</version>
          <properties>
            <maven.compiler.release>17</maven.compiler.release>
            <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
          </properties>
          <build>
            <plugins>
              <plugin>
                <artifactId>maven-compiler-plugin</artifactId>
                <version>3.14.0</version>
              </plugin>
              <plugin>
                <artifactId>maven-resources-plugin</artifactId>
                <version>3.3.1</version>
              </plugin>
              <plugin>
                <artifactId>maven-surefire-plugin</artifactId>
                <version>3.5.4</version>
              </plugin>
            </plugins>
          </build>
        %s
        </project>
        """
        .formatted(withTests);
  }

  /** As {@code docs/spring-boot.md} shows it, for one reference-API client and a relay. */
  private static final String APPLICATION_YML =
      """
      spring:
        datasource:
          url: jdbc:h2:file:./target/shop;AUTO_SERVER=TRUE
        security:
          user:
            name: ops
            password: ops-password
            roles: OPS

      saferetry:
        jdbc:
          schema-init: flyway
          outbox-seal-key:
            id: k1
            secret: ${SHOP_OUTBOX_SEAL_KEY:test-only-shop-outbox-seal-key-0123456789}
        clients:
          payments:
            base-url: http://127.0.0.1:8080   # the tests' @WithFakeProvider sets it
            credentials:
              api-key: sk_test_shop
            retry:
              max-attempts: 2
              initial-delay: 0ms
            typed-client: dev.saferetry.payments.PaymentsClient
        outbox:
          relay:
            poll-interval: 100ms
          operator:
            actions-enabled: true

      management:
        endpoints:
          web:
            exposure:
              include: health, metrics, saferetryoutbox
        endpoint:
          health:
            show-components: always
            show-details: when-authorized
      """;

  private static final String ORDERS_SQL =
      "CREATE TABLE orders (id VARCHAR(64) PRIMARY KEY, amount BIGINT NOT NULL);\n";

  private static final String SHOP_APPLICATION =
      """
      package com.example.shop;

      import org.springframework.boot.SpringApplication;
      import org.springframework.boot.autoconfigure.SpringBootApplication;
      import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
      import org.springframework.context.annotation.Bean;
      import org.springframework.security.config.Customizer;
      import org.springframework.security.config.annotation.web.builders.HttpSecurity;
      import org.springframework.security.web.SecurityFilterChain;

      @SpringBootApplication
      public class ShopApplication {
        public static void main(String[] args) {
          SpringApplication.run(ShopApplication.class, args);
        }

        @Bean
        SecurityFilterChain actuator(HttpSecurity http) throws Exception {
          return http.securityMatcher(EndpointRequest.toAnyEndpoint())
              .authorizeHttpRequests(a -> a
                  .requestMatchers(EndpointRequest.to("health")).permitAll()
                  .requestMatchers(EndpointRequest.to("saferetryoutbox")).hasRole("OPS")
                  .anyRequest().authenticated())
              .httpBasic(Customizer.withDefaults())
              .csrf(c -> c.disable())
              .build();
        }
      }
      """;

  private static final String CHARGE_SERVICE =
      """
      package com.example.shop;

      import dev.saferetry.CallResult;
      import dev.saferetry.RequestOptions;
      import dev.saferetry.payments.Charge;
      import dev.saferetry.payments.ChargeCreateParams;
      import dev.saferetry.payments.PaymentsClient;
      import org.springframework.stereotype.Service;

      @Service
      public class ChargeService {
        private final PaymentsClient payments;

        ChargeService(PaymentsClient payments) {
          this.payments = payments;
        }

        public CallResult<Charge> charge(String orderId, long amount) {
          return payments.charges().create(
              ChargeCreateParams.builder()
                  .amount(amount).currency("eur").description("order " + orderId).build(),
              RequestOptions.none().withIntentId("order-" + orderId + "/charge"));
        }
      }
      """;

  private static final String ORDER_SERVICE =
      """
      package com.example.shop;

      import dev.saferetry.RequestOptions;
      import dev.saferetry.SafeRetryClient;
      import dev.saferetry.payments.ChargeCreateParams;
      import dev.saferetry.payments.ChargesApi;
      import dev.saferetry.spring.SafeRetryOutbox;
      import org.springframework.beans.factory.annotation.Qualifier;
      import org.springframework.jdbc.core.JdbcTemplate;
      import org.springframework.stereotype.Service;
      import org.springframework.transaction.annotation.Transactional;

      @Service
      public class OrderService {
        private final JdbcTemplate jdbc;
        private final SafeRetryOutbox outbox;
        private final SafeRetryClient payments;

        OrderService(JdbcTemplate jdbc, SafeRetryOutbox outbox,
            @Qualifier("payments") SafeRetryClient payments) {
          this.jdbc = jdbc;
          this.outbox = outbox;
          this.payments = payments;
        }

        @Transactional
        public void place(String orderId, long amount) {
          jdbc.update("INSERT INTO orders (id, amount) VALUES (?, ?)", orderId, amount);
          outbox.enqueue(
              payments,
              ChargesApi.CREATE,
              ChargeCreateParams.builder()
                  .amount(amount).currency("eur").description("order " + orderId).build(),
              RequestOptions.none().withIntentId("order-" + orderId + "/charge"));
        }
      }
      """;

  private static final String SHOP_TEST =
      """
      package com.example.shop;

      import static org.assertj.core.api.Assertions.assertThat;
      import static org.assertj.core.api.Assertions.assertThatThrownBy;
      import static org.awaitility.Awaitility.await;

      import dev.saferetry.CallResult;
      import dev.saferetry.error.OutcomeUnknownException;
      import dev.saferetry.payments.Charge;
      import dev.saferetry.testing.provider.FakeProvider;
      import dev.saferetry.testing.provider.Fault;
      import dev.saferetry.testing.provider.Received;
      import dev.saferetry.testing.provider.WithFakeProvider;
      import java.net.URI;
      import java.net.http.HttpClient;
      import java.net.http.HttpRequest;
      import java.net.http.HttpResponse;
      import java.nio.charset.StandardCharsets;
      import java.time.Duration;
      import java.util.Base64;
      import org.junit.jupiter.api.Test;
      import org.springframework.beans.factory.annotation.Autowired;
      import org.springframework.boot.builder.SpringApplicationBuilder;
      import org.springframework.boot.test.context.SpringBootTest;
      import org.springframework.boot.test.web.server.LocalServerPort;
      import org.springframework.context.ConfigurableApplicationContext;
      import org.springframework.jdbc.core.JdbcTemplate;

      @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
      @WithFakeProvider(client = "payments")
      class ShopApplicationTest {
        static final String OPS =
            "Basic " + Base64.getEncoder().encodeToString("ops:ops-password".getBytes(StandardCharsets.UTF_8));

        @Autowired FakeProvider provider;
        @Autowired ChargeService charges;
        @Autowired OrderService orders;
        @Autowired JdbcTemplate jdbc;
        @LocalServerPort int port;
        final HttpClient http = HttpClient.newHttpClient();

        @Test
        void oneChargeThroughALostAnswerAndARestart() {
          provider.arm(Fault.loseAnswer().times(2)); // both attempts' answers lost
          String[] args = {
            "--server.port=0", "--saferetry.clients.payments.base-url=" + provider.baseUrl()
          };
          try (ConfigurableApplicationContext first =
              new SpringApplicationBuilder(ShopApplication.class).run(args)) {
            assertThatThrownBy(() -> first.getBean(ChargeService.class).charge("o-1", 1999))
                .isInstanceOf(OutcomeUnknownException.class);
          }
          assertThat(provider.effects()).hasSize(1);
          CallResult<Charge> charge;
          try (ConfigurableApplicationContext restarted =
              new SpringApplicationBuilder(ShopApplication.class).run(args)) {
            charge = restarted.getBean(ChargeService.class).charge("o-1", 1999);
          }
          assertThat(provider.effects()).hasSize(1);
          assertThat(charge.value().id()).isEqualTo(provider.effects().get(0).objectId());
          assertThat(provider.received()).extracting(Received::key).containsOnly(charge.key().toString());
          assertThat(provider.received()).hasSizeGreaterThanOrEqualTo(3);
        }

        @Test
        void theRelayDeliversTheChargeEnqueuedWithTheOrder() throws Exception {
          orders.place("o-2", 2500);
          assertThat(jdbc.queryForObject("SELECT amount FROM orders WHERE id = 'o-2'", Long.class))
              .isEqualTo(2500L);
          await().atMost(Duration.ofSeconds(20)).until(() -> provider.effects().stream()
              .anyMatch(e -> "order o-2".equals(e.parameters().get("description"))));
          await().atMost(Duration.ofSeconds(20)).until(() ->
              get("/actuator/saferetryoutbox?state=ended", OPS).body().contains("order-o-2/charge"));
          assertThat(provider.effects()).hasSize(1);
        }

        @Test
        void healthShowsSafeRetryAndMetricsHaveItsMeters() throws Exception {
          charges.charge("o-3", 500);
          HttpResponse<String> anonymous = get("/actuator/health", null);
          assertThat(anonymous.statusCode()).isEqualTo(200);
          assertThat(anonymous.body()).contains("\\"saferetry\\":{\\"status\\":\\"UP\\"");
          assertThat(get("/actuator/health", OPS).body())
              .contains("\\"relays\\"").contains("\\"threadsAlive\\"").contains("\\"breaker\\"");

          String names = get("/actuator/metrics", OPS).body();
          assertThat(names).contains("\\"saferetry.client.calls\\"")
              .contains("\\"saferetry.client.attempts\\"").contains("\\"saferetry.outbox.intents\\"");
          HttpResponse<String> calls = get("/actuator/metrics/saferetry.client.calls", OPS);
          assertThat(calls.statusCode()).isEqualTo(200);
          assertThat(calls.body()).contains("\\"client\\"").contains("payments");
        }

        @Test
        void theOperatorEndpointRefusesAnAnonymousRequest() throws Exception {
          String action = "{\\"action\\":\\"abandon\\",\\"tenant\\":\\"payments\\","
              + "\\"operation\\":\\"POST /v1/charges\\",\\"intentId\\":\\"order-o-4/charge\\","
              + "\\"reason\\":\\"test\\"}";
          assertThat(get("/actuator/saferetryoutbox?state=all", null).statusCode()).isEqualTo(401);
          assertThat(post("/actuator/saferetryoutbox", action, null).statusCode()).isEqualTo(401);
          // The same requests as the operator reach the endpoint: the refusal was for anonymity.
          assertThat(get("/actuator/saferetryoutbox?state=all", OPS).statusCode()).isEqualTo(200);
          assertThat(post("/actuator/saferetryoutbox", action, OPS).statusCode()).isEqualTo(404);
        }

        HttpResponse<String> get(String path, String authorization) throws Exception {
          return send(HttpRequest.newBuilder(uri(path)).GET(), authorization);
        }

        HttpResponse<String> post(String path, String json, String authorization) throws Exception {
          return send(HttpRequest.newBuilder(uri(path))
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(json)), authorization);
        }

        HttpResponse<String> send(HttpRequest.Builder request, String authorization)
            throws Exception {
          if (authorization != null) {
            request.header("Authorization", authorization);
          }
          return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }

        URI uri(String path) {
          return URI.create("http://127.0.0.1:" + port + path);
        }
      }
      """;

  private static void write(Path app, String file, String text) throws IOException {
    Path path = app.resolve(file);
    Files.createDirectories(path.getParent());
    Files.writeString(path, text);
  }

  /** The text of a section of the guide, from its heading to the next one of its level. */
  private static String section(String guide, String heading) {
    assertThat(guide).contains(heading + "\n");
    String rest = guide.substring(guide.indexOf(heading + "\n") + heading.length() + 1);
    int next = rest.indexOf("\n## ");
    return next < 0 ? rest : rest.substring(0, next + 1);
  }

  /** The first fenced block of a section that opens with {@code fence}. */
  private static String block(String section, String fence) {
    int start = section.indexOf(fence);
    assertThat(start).as("a " + fence.strip() + " block").isNotNegative();
    int from = start + fence.length();
    return section.substring(from, section.indexOf("\n```\n", from) + 1);
  }
}
