package dev.saferetry.examples.checkout;

import dev.saferetry.testing.provider.FakeProvider;
import dev.saferetry.testing.provider.Fault;
import dev.saferetry.testing.provider.Received;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The checkout, toured: starts it on a free port against a sandbox provider (saferetry-testing's
 * {@link FakeProvider}) that loses the answer to the first charge, places an order, waits for the
 * relay, delivers the provider's webhook twice, and shows health, meters and the operator endpoint.
 * Prints what it sees and exits with 1 unless the order was charged once and paid once. Arguments
 * are the application's, e.g. {@code --spring.datasource.url=jdbc:postgresql://...}.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples/spring-checkout -am compile exec:java
 * </pre>
 */
public final class CheckoutTour {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  /** The webhook signing secret the tour gives the checkout and signs with. */
  static final String SECRET = "whsec_YSB0b3VyJ3Mgb3duIHdlYmhvb2sgc2lnbmluZyBrZXk=";

  private static final PrintStream OUT = System.out;

  private CheckoutTour() {}

  /** Runs the tour; {@code args} go to the application. */
  public static void main(String[] args) throws Exception {
    boolean ok;
    try (FakeProvider provider = FakeProvider.start()) {
      provider.arm(Fault.loseAnswer().on("POST /v1/charges"));
      String[] appArgs = new String[args.length + 3];
      System.arraycopy(args, 0, appArgs, 0, args.length);
      appArgs[args.length] = "--saferetry.clients.payments.base-url=" + provider.baseUrl();
      appArgs[args.length + 1] = "--saferetry.webhooks.payments.secrets=" + SECRET;
      appArgs[args.length + 2] = "--server.port=0";
      try (ConfigurableApplicationContext app =
          new SpringApplicationBuilder(CheckoutApplication.class)
              // Quiet unless told otherwise (defaults: the application's settings override them).
              .properties("spring.main.banner-mode=off", "logging.level.root=warn")
              .properties("logging.level.dev.saferetry=info")
              .run(appArgs)) {
        String base = "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");
        String database = app.getEnvironment().getProperty("spring.datasource.url");
        OUT.println("database: " + database.replaceAll("(?i)(password=)[^&;]*", "$1***"));
        String login =
            "operator:" + app.getEnvironment().getProperty("spring.security.user.password");
        ok = tour(base, provider, login);
      }
    }
    OUT.println(ok ? "OK: one order, one charge, paid once" : "FAILED: see above");
    System.exit(ok ? 0 : 1);
  }

  private static boolean tour(String base, FakeProvider provider, String login) throws Exception {
    String order = "order-" + UUID.randomUUID().toString().substring(0, 8);
    show("POST /orders", post(base + "/orders", json(order), null));
    Instant until = Instant.now().plusSeconds(30);
    // The charge is made, its answer lost; the relay's retry under the same key is replayed.
    while (provider.received().stream().noneMatch(Received::replayed)
        && Instant.now().isBefore(until)) {
      Thread.sleep(50); // the relay looks for due charges every 100 ms
    }
    OUT.printf(
        "provider: %d charge request(s), %d charge(s) made, effects per key %s%n",
        provider.received().size(), provider.effects().size(), provider.effectsPerKey());
    String charge = provider.effects().isEmpty() ? "none" : provider.effects().get(0).objectId();
    String event =
        "{\"type\":\"charge.succeeded\",\"order\":\"" + order + "\",\"charge\":\"" + charge + "\"}";
    String id = "evt_" + UUID.randomUUID().toString().replace("-", "");
    HttpResponse<String> first = post(base + "/webhooks/payments", event, id);
    show("webhook", first);
    HttpResponse<String> again = post(base + "/webhooks/payments", event, id);
    show("webhook again (redelivered)", again);
    HttpResponse<String> status = get(base + "/orders/" + order, null);
    show("GET /orders/" + order, status);
    HttpResponse<String> health = get(base + "/actuator/health", null);
    OUT.println("GET /actuator/health -> " + health.statusCode() + ", " + component(health.body()));
    HttpResponse<String> metrics = get(base + "/actuator/metrics", null);
    OUT.println(
        "GET /actuator/metrics -> "
            + metrics.statusCode()
            + ", SafeRetry's: "
            + saferetry(metrics.body()));
    String sends = "/actuator/metrics/saferetry.relay.sends";
    show("GET " + sends, get(base + sends, null));
    show("GET /actuator/saferetryoutbox, anonymous", get(base + "/actuator/saferetryoutbox", null));
    show("GET /actuator/saferetryoutbox, operator", get(base + "/actuator/saferetryoutbox", login));
    return provider.effects().size() == 1
        && provider.received().size() == 2
        && first.body().equals("APPLIED")
        && again.body().equals("DUPLICATE")
        && status.body().equals("PAID");
  }

  /** The meter names in {@code /actuator/metrics}' answer that are SafeRetry's. */
  static List<String> saferetry(String names) {
    return Pattern.compile("\"(saferetry[^\"]*)\"")
        .matcher(names)
        .results()
        .map(m -> m.group(1))
        .toList();
  }

  /** SafeRetry's component of {@code /actuator/health}'s answer, as JSON text. */
  static String component(String health) {
    int start = health.indexOf("\"saferetry\":");
    if (start < 0) {
      return "no SafeRetry component";
    }
    int depth = 0;
    for (int i = health.indexOf('{', start); i < health.length(); i++) {
      depth += health.charAt(i) == '{' ? 1 : health.charAt(i) == '}' ? -1 : 0;
      if (depth == 0) {
        return health.substring(start, i + 1);
      }
    }
    return health.substring(start);
  }

  static String json(String order) {
    return "{\"id\":\"" + order + "\",\"amount\":1999,\"currency\":\"eur\"}";
  }

  static HttpResponse<String> post(String url, String body, String webhookId) throws Exception {
    HttpRequest.Builder r =
        HttpRequest.newBuilder(URI.create(url))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (webhookId != null) { // what the provider sends: Standard Webhooks headers
      String timestamp = Long.toString(Instant.now().getEpochSecond());
      r.header("webhook-id", webhookId)
          .header("webhook-timestamp", timestamp)
          .header("webhook-signature", "v1," + sign(webhookId + "." + timestamp + "." + body));
    }
    return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> get(String url, String login) throws Exception {
    HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
    if (login != null) {
      r.header(
          "Authorization",
          "Basic " + Base64.getEncoder().encodeToString(login.getBytes(StandardCharsets.UTF_8)));
    }
    return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static void show(String what, HttpResponse<String> r) {
    String body = r.body().length() > 600 ? r.body().substring(0, 600) + "…" : r.body();
    OUT.println(what + " -> " + r.statusCode() + " " + body);
  }

  private static String sign(String content) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key(), "HmacSHA256"));
    return Base64.getEncoder()
        .encodeToString(mac.doFinal(content.getBytes(StandardCharsets.UTF_8)));
  }

  private static byte[] key() {
    return Base64.getDecoder().decode(SECRET.substring("whsec_".length()));
  }
}
