package dev.saferetry.generatorit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.newapp.NewAppBuild;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a new user does with docs/typed-clients.md, for providers the generator has never been
 * given: a brand-new Maven project whose pom holds the plugin configuration copied from the doc
 * (only the document path and the package changed), built offline against this build's artifacts
 * (in a local repository of its own under {@code target/}; third-party artifacts are read from the
 * user's repository through links), and a main in that project run in child JVMs against
 * MockWebServer. Each write must carry its key where the document says, the same key on a retry and
 * after a restart, and an unknown enum value and unknown fields must survive being read and sent
 * back.
 */
class NewProviderAppTest {
  private static final Path ROOT = Path.of("../..").toAbsolutePath().normalize();
  private static final Path WORK = Path.of("target/new-provider-app").toAbsolutePath();
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static final List<String> POMS = List.of("pom.xml", "sdk/pom.xml", "sdk/bom/pom.xml");
  private static final List<String> JARS = List.of("sdk/core", "sdk/generator", "sdk/maven-plugin");

  /** What the fake answers to a read: a status no document lists, fields none names. */
  private static final String READ =
      "{\"id\":\"x_1\",\"amount\":500,\"currency\":\"eur\",\"status\":\"under_review\","
          + "\"metadata\":{\"order\":\"6735\"},\"risk_score\":7,\"hold\":{\"until\":\"soon\"}}";

  private static final String CREATED =
      "{\"id\":\"x_1\",\"amount\":500,\"currency\":\"eur\",\"status\":\"%s\"}";

  @BeforeAll
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  static void buildTheNewApps() throws Exception {
    NewAppBuild.deleteTree(WORK);
    String plugin = pluginSnippet();
    Path apps = Files.createDirectories(WORK.resolve("apps"));
    StringBuilder modules = new StringBuilder();
    for (Provider p : Provider.values()) {
      Path app = Files.createDirectories(apps.resolve(p.dir));
      Path openapi = Files.createDirectories(app.resolve("src/main/openapi"));
      try (var in = NewProviderAppTest.class.getResourceAsStream("/newapp/" + p.spec)) {
        Files.copy(in, openapi.resolve(p.spec));
      }
      Files.writeString(app.resolve("pom.xml"), pom(p, plugin));
      Path main = Files.createDirectories(app.resolve("src/main/java/" + p.pkg.replace('.', '/')));
      Files.writeString(main.resolve("Main.java"), p.main());
      modules.append("    <module>").append(p.dir).append("</module>\n");
    }
    // One Maven run over the three apps (each app's pom stands alone; this only saves JVM starts).
    Files.writeString(
        apps.resolve("pom.xml"),
        """
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <groupId>com.example</groupId>
          <artifactId>apps</artifactId>
          <version>1.0</version>
          <packaging>pom</packaging>
          <modules>
        %s  </modules>
        </project>
        """
            .formatted(modules));
    Path repo = NewAppBuild.localRepository(WORK.resolve("repo"), ROOT, POMS, JARS);
    Process mvn =
        new ProcessBuilder(
                NewAppBuild.mvn(), "-o", "-B", "-q", "-Dmaven.repo.local=" + repo, "compile")
            .directory(apps.toFile())
            .redirectErrorStream(true)
            .redirectOutput(WORK.resolve("mvn.log").toFile())
            .start();
    assertThat(mvn.waitFor(50, TimeUnit.SECONDS)).as("Maven finished within 50 s").isTrue();
    assertThat(mvn.exitValue())
        .as("mvn compile in the new apps:\n%s", Files.readString(WORK.resolve("mvn.log")))
        .isZero();
  }

  @Test
  void aHeaderOfANewNameCarriesTheKeyOnEveryWriteAcrossARetryAndARestart() throws Exception {
    try (MockWebServer server = Wire.started()) {
      List<RecordedRequest> writes = run(Provider.TOLLGATE, server, "paid");
      RecordedRequest first = writes.get(0);
      RecordedRequest retry = writes.get(1);
      RecordedRequest update = writes.get(2);
      String key = first.getHeaders().get("X-Request-Token");
      assertThat(key).isNotBlank().hasSizeLessThanOrEqualTo(48);
      assertThat(retry.getHeaders().get("X-Request-Token")).isEqualTo(key);
      assertThat(update.getMethod()).isEqualTo("PUT");
      assertThat(update.getHeaders().get("X-Request-Token")).isNotBlank().isNotEqualTo(key);
      assertThat(writes)
          .allSatisfy(r -> assertThat(MAPPER.readTree(body(r)).has("X-Request-Token")).isFalse());
      assertRoundTrip(MAPPER.readTree(body(update)));
      assertRestartKeepsTheKey(writes, r -> r.getHeaders().get("X-Request-Token"));
    }
  }

  @Test
  void aBodyFieldOfANewNameCarriesTheKeyOnEveryWriteAcrossARetryAndARestart() throws Exception {
    try (MockWebServer server = Wire.started()) {
      List<RecordedRequest> writes = run(Provider.LEDGERLY, server, "settled");
      String key = MAPPER.readTree(body(writes.get(0))).get("reference_id").asText();
      assertThat(key).isNotBlank().hasSizeLessThanOrEqualTo(40);
      assertThat(MAPPER.readTree(body(writes.get(1))).get("reference_id").asText()).isEqualTo(key);
      JsonNode resubmit = MAPPER.readTree(body(writes.get(2)));
      assertThat(writes.get(2).getUrl().encodedPath()).isEqualTo("/transfers/x_1/resubmit");
      assertThat(resubmit.get("reference_id").asText()).isNotBlank().isNotEqualTo(key);
      assertRoundTrip(resubmit.get("transfer"));
      assertThat(writes)
          .allSatisfy(
              r ->
                  assertThat(r.getHeaders().names())
                      .noneMatch(n -> n.toLowerCase().contains("idempot")));
      assertRestartKeepsTheKey(writes, r -> MAPPER.readTree(body(r)).get("reference_id").asText());
    }
  }

  @Test
  void oneDocumentWithBothPlacementsPutsEachKeyWhereItsOperationSays() throws Exception {
    try (MockWebServer server = Wire.started()) {
      List<RecordedRequest> writes = run(Provider.QUILLPAY, server, "authorized");
      String key = writes.get(0).getHeaders().get("X-Dedupe-Key");
      assertThat(key).isNotBlank();
      assertThat(writes.get(1).getHeaders().get("X-Dedupe-Key")).isEqualTo(key);
      RecordedRequest update = writes.get(2);
      assertThat(update.getHeaders().get("X-Dedupe-Key")).isNotBlank().isNotEqualTo(key);
      assertRoundTrip(MAPPER.readTree(body(update)));
      RecordedRequest capture = writes.get(3);
      assertThat(capture.getUrl().encodedPath()).isEqualTo("/charges/x_1/capture");
      assertThat(capture.getHeaders().get("X-Dedupe-Key")).isNull();
      JsonNode captured = MAPPER.readTree(body(capture));
      assertThat(captured.get("client_token").asText()).isNotBlank().isNotEqualTo(key);
      assertThat(captured.get("amount_to_capture").asLong()).isEqualTo(500L);
      assertRestartKeepsTheKey(writes, r -> r.getHeaders().get("X-Dedupe-Key"));
    }
  }

  private interface KeyOf {
    String of(RecordedRequest r) throws IOException;
  }

  /** The writes of the last two entries: a crashed process's attempt and its restart's. */
  private static void assertRestartKeepsTheKey(List<RecordedRequest> writes, KeyOf key)
      throws IOException {
    String crashed = key.of(writes.get(writes.size() - 2));
    String restarted = key.of(writes.get(writes.size() - 1));
    assertThat(crashed).isNotBlank();
    assertThat(restarted).as("the key after a restart").isEqualTo(crashed);
    assertThat(crashed).isNotEqualTo(key.of(writes.get(0)));
  }

  /** What was read is what was sent back: the unknown status raw, the unknown fields whole. */
  private static void assertRoundTrip(JsonNode sent) {
    assertThat(sent.get("status").asText()).isEqualTo("under_review");
    assertThat(sent.get("risk_score").asInt()).isEqualTo(7);
    assertThat(sent.get("hold").get("until").asText()).isEqualTo("soon");
    assertThat(sent.get("metadata").get("order").asText()).isEqualTo("6735");
  }

  /**
   * Runs the app's main three times against the fake: a session (a create answered 503 then 201, a
   * read, the read sent back, and what else the provider has), then a process whose create gets no
   * answer but 503 and no retry, then its restart on the same key store. Returns every write in
   * order; checks that reads carry neither body nor key.
   */
  private static List<RecordedRequest> run(Provider p, MockWebServer server, String created)
      throws Exception {
    Path store = Files.createDirectories(WORK.resolve("store-" + p.dir));
    server.enqueue(Wire.json(503, "{\"error\":\"busy\"}"));
    server.enqueue(Wire.json(201, CREATED.formatted(created)));
    server.enqueue(Wire.json(200, READ));
    server.enqueue(Wire.json(200, READ));
    for (int i = 0; i < p.extraWrites; i++) {
      server.enqueue(Wire.json(200, CREATED.formatted(created)));
    }
    String out = main(p, server, store, "session");
    assertThat(out)
        .contains("created " + created + " known=true")
        .contains("read under_review known=false extra=[hold, risk_score]")
        .contains("sent back under_review");
    server.enqueue(Wire.json(503, "{\"error\":\"busy\"}"));
    assertThat(main(p, server, store, "crash")).contains("no answer");
    server.enqueue(Wire.json(201, CREATED.formatted(created)));
    assertThat(main(p, server, store, "restart")).contains("created " + created);

    List<RecordedRequest> writes = new ArrayList<>();
    int count = server.getRequestCount();
    for (int i = 0; i < count; i++) {
      RecordedRequest r = server.takeRequest();
      if (r.getMethod().equals("GET")) {
        assertThat(r.getBodySize()).isZero();
        assertThat(r.getHeaders().names())
            .noneMatch(n -> n.equalsIgnoreCase(p.header) || n.toLowerCase().contains("idempot"));
      } else {
        writes.add(r);
      }
    }
    assertThat(writes).hasSize(3 + p.extraWrites + 2);
    return writes;
  }

  private static String body(RecordedRequest r) {
    return r.getBody() == null ? "" : r.getBody().utf8();
  }

  private static String main(Provider p, MockWebServer server, Path store, String phase)
      throws Exception {
    Path app = WORK.resolve("apps").resolve(p.dir);
    String cp = app.resolve("target/classes") + java.io.File.pathSeparator + testClassPath();
    Path log = WORK.resolve(p.dir + "-" + phase + ".log");
    Process java =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                cp,
                p.pkg + ".Main",
                server.url("/").toString(),
                store.toString(),
                phase)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    assertThat(java.waitFor(20, TimeUnit.SECONDS)).as(phase + " finished").isTrue();
    String out = Files.readString(log);
    assertThat(java.exitValue()).as("%s %s:\n%s", p.dir, phase, out).isZero();
    return out;
  }

  /** The test's own classpath: saferetry-core, Jackson, a logger; never the generated classes. */
  private static String testClassPath() {
    String surefire = System.getProperty("surefire.test.class.path");
    return surefire != null && !surefire.isBlank()
        ? surefire
        : System.getProperty("java.class.path");
  }

  /**
   * The doc's pom snippet as a user copies it: the dependencies and the plugin, with the document
   * path and the package to be filled in.
   */
  private static String pluginSnippet() throws IOException {
    String doc = Files.readString(ROOT.resolve("docs/typed-clients.md"));
    String section = doc.substring(doc.indexOf("## In your build: the Maven plugin"));
    int start = section.indexOf("```xml\n") + "```xml\n".length();
    String snippet = section.substring(start, section.indexOf("\n```\n", start) + 1);
    assertThat(snippet)
        .contains("<artifactId>saferetry-maven-plugin</artifactId>")
        .contains("<artifactId>saferetry-core</artifactId>")
        .contains("${project.basedir}/src/main/openapi/payments.yaml")
        .contains("<packageName>com.example.payments</packageName>")
        // Settings for the doc's own example document would not fit a new provider's.
        .doesNotContain("<includeTags>")
        .doesNotContain("<keyPlacements>");
    return snippet;
  }

  /** A minimal app: coordinates, Java 17, the compiler the project uses, and the doc's snippet. */
  private static String pom(Provider p, String snippet) {
    String filled =
        snippet
            .replace("src/main/openapi/payments.yaml", "src/main/openapi/" + p.spec)
            .replace("<packageName>com.example.payments<", "<packageName>" + p.pkg + "<");
    // The app's own plugins join the snippet's <plugins>.
    filled =
        filled.replace(
            "<plugins>\n",
            """
            <plugins>
                <plugin>
                  <artifactId>maven-compiler-plugin</artifactId>
                  <version>3.14.0</version>
                </plugin>
                <plugin>
                  <artifactId>maven-resources-plugin</artifactId>
                  <version>3.3.1</version>
                </plugin>
            """);
    return """
        <?xml version="1.0" encoding="UTF-8"?>
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <groupId>com.example</groupId>
          <artifactId>%s</artifactId>
          <version>1.0</version>
          <properties>
            <maven.compiler.release>17</maven.compiler.release>
            <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
          </properties>
        %s
        </project>
        """
        .formatted(p.dir, filled);
  }

  /** The three invented providers, their documents, and the main each app runs. */
  private enum Provider {
    TOLLGATE(
        "tollgate",
        "tollgate-payouts.yaml",
        "com.example.tollgate",
        "X-Request-Token",
        0,
        "TollgatePayoutsClient",
        "payouts",
        "PayoutRequest",
        "api.update(\"x_1\", read, RequestOptions.none().withIntentId(\"update-1\"))",
        ""),
    LEDGERLY(
        "ledgerly",
        "ledgerly-transfers.yaml",
        "com.example.ledgerly",
        "reference_id",
        0,
        "LedgerlyTransfersClient",
        "transfers",
        "TransferRequest",
        "api.resubmit(\"x_1\", TransfersResubmitRequest.builder().transfer(read).build(),"
            + " RequestOptions.none().withIntentId(\"resubmit-1\"))",
        ""),
    QUILLPAY(
        "quillpay",
        "quillpay-charges.yaml",
        "com.example.quillpay",
        "X-Dedupe-Key",
        1,
        "QuillpayChargesClient",
        "charges",
        "ChargeRequest",
        "api.update(\"x_1\", read, RequestOptions.none().withIntentId(\"update-1\"))",
        "api.capture(\"x_1\", ChargesCaptureRequest.builder().amountToCapture(500L).build(),"
            + " RequestOptions.none().withIntentId(\"capture-1\"));");

    final String dir;
    final String spec;
    final String pkg;
    final String header;
    final int extraWrites;
    final String client;
    final String resource;
    final String request;
    final String sendBack;
    final String more;

    Provider(
        String dir,
        String spec,
        String pkg,
        String header,
        int extraWrites,
        String client,
        String resource,
        String request,
        String sendBack,
        String more) {
      this.dir = dir;
      this.spec = spec;
      this.pkg = pkg;
      this.header = header;
      this.extraWrites = extraWrites;
      this.client = client;
      this.resource = resource;
      this.request = request;
      this.sendBack = sendBack;
      this.more = more;
    }

    String main() {
      return """
          package PKG;

          import dev.saferetry.RequestOptions;
          import dev.saferetry.SafeRetryClient;
          import dev.saferetry.filestore.FileKeyStore;
          import dev.saferetry.resilience.RetryPolicy;
          import dev.saferetry.resilience.Sleeper;
          import java.nio.file.Path;
          import java.time.Duration;
          import java.util.Map;
          import java.util.TreeSet;
          import java.util.concurrent.CompletableFuture;

          public final class Main {
            public static void main(String[] args) throws Exception {
              String phase = args[2];
              Sleeper noWait = new Sleeper() {
                @Override public void sleep(Duration d) {}
                @Override public CompletableFuture<Void> after(Duration d) {
                  return CompletableFuture.completedFuture(null);
                }
              };
              try (FileKeyStore store = FileKeyStore.open(Path.of(args[1]));
                  SafeRetryClient client = SafeRetryClient.builder()
                      .baseUrl(args[0])
                      .apiKey("sk_test_new_app")
                      .keyStore(store)
                      .sleeper(noWait)
                      .retryPolicy(phase.equals("crash") ? RetryPolicy.noRetries() : RetryPolicy.defaults())
                      .build()) {
                var api = new CLIENT(client).RESOURCE();
                var request = REQUEST.builder().amount(500L).currency("eur")
                    .metadata(Map.of("order", "6735")).build();
                if (!phase.equals("session")) {
                  try {
                    var created = api.create(request, RequestOptions.none().withIntentId("order-9")).value();
                    System.out.println("created " + created.status().value());
                  } catch (RuntimeException e) {
                    System.out.println("no answer: " + e.getClass().getSimpleName());
                  }
                  return;
                }
                var created = api.create(request, RequestOptions.none().withIntentId("order-1")).value();
                System.out.println("created " + created.status().value() + " known=" + created.status().isKnown());
                var read = api.retrieve("x_1", RequestOptions.none()).value();
                System.out.println("read " + read.status().value() + " known=" + read.status().isKnown()
                    + " extra=" + new TreeSet<>(read.extra().keySet()));
                SEND_BACK;
                System.out.println("sent back " + read.status().value());
                MORE
              }
            }
          }
          """
          .replace("PKG", pkg)
          .replace("CLIENT", client)
          .replace("RESOURCE", resource)
          .replace("REQUEST", request)
          .replace("SEND_BACK", sendBack)
          .replace("MORE", more);
    }
  }
}
