package dev.saferetry.stripe.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.CallResult;
import dev.saferetry.ProviderPreset;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.filestore.FileKeyStore;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.stripe.Charge;
import dev.saferetry.stripe.ChargesCreateRequest;
import dev.saferetry.stripe.ChargesListQuery;
import dev.saferetry.stripe.Customer;
import dev.saferetry.stripe.CustomersCreateRequest;
import dev.saferetry.stripe.PaymentIntent;
import dev.saferetry.stripe.PaymentIntentsCreateRequest;
import dev.saferetry.stripe.Refund;
import dev.saferetry.stripe.RefundsCreateRequest;
import dev.saferetry.stripe.StripeClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The generated Stripe client against a third-party Stripe emulator (run by {@code
 * sdk/clients/stripe/emulator/run.sh}, not by the build): a customer, a charge whose answer is lost
 * on the way back, every page of the charges with {@code expand[]=data.customer}, a refund, a
 * payment intent if the emulator has them, and a child JVM killed (SIGKILL) while its charge is in
 * flight, then a second JVM re-driving the intent from the same {@link FileKeyStore}. Last, it
 * lists the emulator's own objects, counts them per intent (each write carries {@code
 * metadata[intent_id]}) and exits 1 on any duplicate or missing effect.
 *
 * <p>{@code EmulatorScenario EMULATOR-PORT} runs it all; {@code child STORE URL CUSTOMER} and
 * {@code recover STORE URL CUSTOMER} are the two JVMs of the crash drill.
 */
public final class EmulatorScenario {
  private static final String API_KEY = "sk_test_saferetry_emulator";
  private static final String CRASH_INTENT = "emu/charge-crash";

  private EmulatorScenario() {}

  public static void main(String[] args) throws Exception {
    switch (args.length > 0 ? args[0] : "") {
      case "child" -> child(args);
      case "recover" -> recover(args);
      case "" -> {
        System.err.println("usage: EmulatorScenario EMULATOR-PORT");
        System.exit(2);
      }
      default -> System.exit(scenario(Integer.parseInt(args[0])));
    }
  }

  private static SafeRetryClient client(String baseUrl, FileKeyStore store) {
    var builder =
        SafeRetryClient.builder().preset(ProviderPreset.stripe()).baseUrl(baseUrl).apiKey(API_KEY);
    return (store == null ? builder : builder.keyStore(store)).build();
  }

  /** The charge an intent stands for: rebuilt from the intent id alone, as a re-drive must. */
  static ChargesCreateRequest chargeFor(String customer, String intentId) {
    return ChargesCreateRequest.builder()
        .amount(1500L)
        .currency("usd")
        .customer(customer)
        .metadata(Map.of("intent_id", intentId))
        .build();
  }

  private static int scenario(int emulatorPort) throws Exception {
    List<String> problems = new ArrayList<>();
    List<String> charged = new ArrayList<>();
    try (LossyProxy proxy = new LossyProxy(emulatorPort);
        SafeRetryClient client = client(proxy.baseUrl(), null)) {
      StripeClient stripe = new StripeClient(client);
      System.out.println("emulator 127.0.0.1:" + emulatorPort + ", proxy " + proxy.baseUrl());

      // 1. a customer with a card
      CallResult<Customer> customer =
          stripe
              .customers()
              .create(
                  CustomersCreateRequest.builder()
                      .email("emulator@example.com")
                      .source("tok_visa")
                      .metadata(Map.of("intent_id", "emu/customer"))
                      .build(),
                  RequestOptions.none().withIntentId("emu/customer"));
      String customerId = customer.value().id();
      System.out.printf("customer %s, key %s%n", customerId, customer.key().value());

      // 2. a charge whose answer is lost once
      proxy.dropAnswerOnce("POST /v1/charges");
      CallResult<Charge> lost =
          stripe
              .charges()
              .create(
                  chargeFor(customerId, "emu/charge-lost"),
                  RequestOptions.none().withIntentId("emu/charge-lost"));
      charged.add("emu/charge-lost");
      List<String> lostKeys =
          proxy.seen().stream()
              .filter(s -> s.method().equals("POST") && s.path().equals("/v1/charges"))
              .map(LossyProxy.Seen::key)
              .toList();
      System.out.printf(
          "lost answer: charge %s after %d attempts, keys on the wire %s, replayed %s%n",
          lost.value().id(), lost.attempts().size(), lostKeys, lost.replayed());
      if (lostKeys.size() != 2 || !lostKeys.stream().allMatch(lost.key().value()::equals)) {
        problems.add("the lost charge was not retried once under its key: " + lostKeys);
      }

      // 3. more charges, then every page with the customer expanded
      for (int i = 1; i <= 4; i++) {
        String intent = "emu/charge-" + i;
        stripe
            .charges()
            .create(chargeFor(customerId, intent), RequestOptions.none().withIntentId(intent));
        charged.add(intent);
      }
      int getsBefore = gets(proxy);
      List<Charge> all = new ArrayList<>();
      stripe
          .charges()
          .listAll(
              ChargesListQuery.builder().limit(2L).expand(List.of("data.customer")).build(),
              RequestOptions.none())
          .forEach(all::add);
      long expanded = all.stream().filter(c -> c.customer() instanceof Map).count();
      System.out.printf(
          "listAll(limit 2, expand[]=data.customer): %d charges over %d pages, %d with the"
              + " customer expanded, %d as an id%n",
          all.size(), gets(proxy) - getsBefore, expanded, all.size() - expanded);
      if (all.size() != 5 || all.stream().map(Charge::id).distinct().count() != 5) {
        problems.add("listAll did not return the 5 charges once each: " + all.size());
      }

      // 4. a refund of the lost-answer charge
      CallResult<Refund> refund =
          stripe
              .refunds()
              .create(
                  RefundsCreateRequest.builder()
                      .charge(lost.value().id())
                      .metadata(Map.of("intent_id", "emu/refund"))
                      .build(),
                  RequestOptions.none().withIntentId("emu/refund"));
      System.out.printf("refund %s of %s%n", refund.value().id(), lost.value().id());

      // 5. a payment intent, if the emulator has them
      try {
        CallResult<PaymentIntent> pi =
            stripe
                .paymentIntents()
                .create(
                    PaymentIntentsCreateRequest.builder()
                        .amount(5000L)
                        .currency("usd")
                        .metadata(Map.of("intent_id", "emu/payment-intent"))
                        .build(),
                    RequestOptions.none().withIntentId("emu/payment-intent"));
        System.out.println("payment intent " + pi.value().id() + " (not confirmed further here)");
      } catch (SafeRetryException e) {
        System.out.printf(
            "payment intents: not offered by the emulator (%s, HTTP %s): create, confirm and"
                + " capture not run%n",
            e.reason(), e.response().map(r -> String.valueOf(r.status())).orElse("none"));
      }

      // 6. SIGKILL mid-charge, restart, re-drive from the FileKeyStore
      Path store = Files.createTempDirectory("saferetry-emulator-keys");
      proxy.hold("POST /v1/charges");
      Process child = jvm("child", store.toString(), proxy.baseUrl(), customerId).start();
      if (!proxy.awaitHeld(60)) {
        child.destroyForcibly();
        problems.add("the child JVM's charge never reached the proxy");
      } else {
        String sentKey = proxy.seen().get(proxy.seen().size() - 1).key();
        child.destroyForcibly().waitFor(); // SIGKILL while the charge is in flight
        System.out.printf(
            "child JVM killed (SIGKILL, exit %d) mid-charge, key %s%n", child.exitValue(), sentKey);
        proxy.releaseHeld(30); // the charge is made now; its answer goes nowhere
        int before = proxy.seen().size();
        Process restart =
            jvm("recover", store.toString(), proxy.baseUrl(), customerId)
                .redirectOutput(ProcessBuilder.Redirect.INHERIT)
                .start();
        if (!restart.waitFor(120, TimeUnit.SECONDS) || restart.exitValue() != 0) {
          problems.add("the restarted JVM did not re-drive the intent");
        }
        List<String> redriveKeys =
            proxy.seen().subList(before, proxy.seen().size()).stream()
                .filter(s -> s.path().equals("/v1/charges"))
                .map(LossyProxy.Seen::key)
                .toList();
        System.out.printf("restarted JVM sent the charge with keys %s%n", redriveKeys);
        if (redriveKeys.isEmpty() || !redriveKeys.stream().allMatch(sentKey::equals)) {
          problems.add("the re-drive did not reuse the key " + sentKey + ": " + redriveKeys);
        }
        charged.add(CRASH_INTENT);
      }
    }

    // 7. the emulator's own objects, counted per intent
    Map<String, Integer> charges = countPerIntent(emulatorPort, "/v1/charges");
    Map<String, Integer> refunds = countPerIntent(emulatorPort, "/v1/refunds");
    Map<String, Integer> customers = countPerIntent(emulatorPort, "/v1/customers");
    System.out.println("emulator charges per intent:   " + charges);
    System.out.println("emulator refunds per intent:   " + refunds);
    System.out.println("emulator customers per intent: " + customers);
    for (String intent : charged) {
      expectOne(problems, "charge", intent, charges);
    }
    expectOne(problems, "refund", "emu/refund", refunds);
    expectOne(problems, "customer", "emu/customer", customers);
    for (var e : charges.entrySet()) {
      if (!charged.contains(e.getKey())) {
        problems.add("unexpected charge(s) for " + e.getKey());
      }
    }
    if (problems.isEmpty()) {
      System.out.printf(
          "VERDICT: PASS: one effect per intent (%d charges, 1 refund, 1 customer)%n",
          charged.size());
      return 0;
    }
    problems.forEach(p -> System.out.println("problem: " + p));
    System.out.println("VERDICT: FAIL");
    return 1;
  }

  private static void expectOne(
      List<String> problems, String kind, String intent, Map<String, Integer> counts) {
    int n = counts.getOrDefault(intent, 0);
    if (n != 1) {
      problems.add(kind + " " + intent + ": " + n + " on the emulator, expected 1");
    }
  }

  private static int gets(LossyProxy proxy) {
    return (int) proxy.seen().stream().filter(s -> s.method().equals("GET")).count();
  }

  /** Pages the emulator's list directly (not through the proxy or SafeRetry). */
  private static Map<String, Integer> countPerIntent(int port, String path)
      throws IOException, InterruptedException {
    HttpClient http = HttpClient.newHttpClient();
    ObjectMapper json = new ObjectMapper();
    Map<String, Integer> counts = new TreeMap<>();
    String after = null;
    while (true) {
      String query = "?limit=100" + (after == null ? "" : "&starting_after=" + after);
      HttpRequest get =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path + query))
              .header("Authorization", "Bearer " + API_KEY)
              .build();
      HttpResponse<String> page = http.send(get, HttpResponse.BodyHandlers.ofString());
      if (page.statusCode() != 200) {
        throw new IOException("GET " + path + ": HTTP " + page.statusCode());
      }
      JsonNode list = json.readTree(page.body());
      for (JsonNode item : list.path("data")) {
        counts.merge(item.path("metadata").path("intent_id").asText("(none)"), 1, Integer::sum);
        after = item.path("id").asText();
      }
      if (!list.path("has_more").asBoolean(false) || list.path("data").isEmpty()) {
        return counts;
      }
    }
  }

  private static ProcessBuilder jvm(String mode, String store, String url, String customer) {
    String java = ProcessHandle.current().info().command().orElse("java");
    return new ProcessBuilder(
            java,
            "-cp",
            System.getProperty("java.class.path"),
            EmulatorScenario.class.getName(),
            mode,
            store,
            url,
            customer)
        .redirectErrorStream(true);
  }

  /** Run 1 of the drill: records the intent and sends its charge; the parent kills it. */
  private static void child(String[] args) {
    try (FileKeyStore store = FileKeyStore.open(Path.of(args[1]));
        SafeRetryClient client = client(args[2], store)) {
      new StripeClient(client)
          .charges()
          .create(
              chargeFor(args[3], CRASH_INTENT), RequestOptions.none().withIntentId(CRASH_INTENT));
    }
  }

  /** Run 2: re-drives every pending intent of the store with its recorded key. */
  private static void recover(String[] args) {
    try (FileKeyStore store = FileKeyStore.open(Path.of(args[1]));
        SafeRetryClient client = client(args[2], store)) {
      List<IntentRecord> pending = client.pendingIntents();
      System.out.printf("restarted JVM: %d pending intent(s)%n", pending.size());
      for (IntentRecord p : pending) {
        CallResult<Charge> done =
            new StripeClient(client)
                .charges()
                .create(chargeFor(args[3], p.intentId()), RequestOptions.none().withRedrive(p));
        System.out.printf(
            "restarted JVM: re-drove %s with key %s: charge %s, replayed %s%n",
            p.intentId(), done.key().value(), done.value().id(), done.replayed());
      }
      if (pending.isEmpty()) {
        System.exit(1);
      }
    }
  }
}
