package dev.saferetry.examples;

import dev.saferetry.Attempt;
import dev.saferetry.CallResult;
import dev.saferetry.Operation;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.codec.TypeRef;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.examples.harness.stripe.StripeShapedServer;
import dev.saferetry.provider.ProviderPreset;
import dev.saferetry.provider.StripeList;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Speaking Stripe's API through the public SDK with the Stripe preset: form-encoded bodies with
 * {@code metadata[order_id]} and {@code expand[]}, a {@code Stripe-Version} default header and a
 * per-call {@code Stripe-Account}, cursor pagination, a body-less DELETE without a key.
 *
 * <ol>
 *   <li>creates a charge as a named intent (for a customer created first, expanded in the answer);
 *   <li>lists charges with {@code limit=2}, walking every page lazily;
 *   <li>retrieves the charge by id;
 *   <li>refunds it as a named intent;
 *   <li>deletes the customer (no body, no key);
 *   <li>prints one line per step — key, attempts, the server's request ids — and exits non-zero if
 *       any step failed.
 * </ol>
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java \
 *     -Dexec.mainClass=dev.saferetry.examples.StripeStyle [-Dexec.args=https://api.stripe.com]
 * </pre>
 *
 * <p>Without an argument it runs against an in-process server that speaks Stripe's wire format and
 * loses the charge's first answer after committing it: the SDK retries with the same key and a
 * byte-identical body, and the server replays the charge. The API key comes from {@code
 * STRIPE_API_KEY} (default {@code sk_test_demo}).
 */
public final class StripeStyle {
  /** The Stripe API version this example is written against. */
  public static final String STRIPE_VERSION = "2024-06-20";

  /** A charge, as much of it as this example reads; unknown fields are ignored. */
  public record Charge(
      String id,
      long amount,
      String currency,
      String status,
      Object customer,
      Map<String, String> metadata) {}

  /** A refund. */
  public record Refund(String id, String charge, long amount, String status) {}

  /** A customer, or what is left of a deleted one. */
  public record Customer(String id, String email, Boolean deleted) {}

  @SuppressWarnings("unchecked")
  private static final Class<Map<String, Object>> PARAMS =
      (Class<Map<String, Object>>) (Class<?>) Map.class;

  static final Operation<Map<String, Object>, Customer> CREATE_CUSTOMER =
      Operation.post("/v1/customers", PARAMS, Customer.class);
  static final Operation<Map<String, Object>, Charge> CREATE_CHARGE =
      Operation.post("/v1/charges", PARAMS, Charge.class);
  static final Operation<Void, StripeList<Charge>> LIST_CHARGES =
      Operation.get("/v1/charges", new TypeRef<StripeList<Charge>>() {});
  static final Operation<Void, Charge> GET_CHARGE = Operation.get("/v1/charges/{id}", Charge.class);
  static final Operation<Map<String, Object>, Refund> CREATE_REFUND =
      Operation.post("/v1/refunds", PARAMS, Refund.class);
  static final Operation<Void, Customer> DELETE_CUSTOMER =
      Operation.delete("/v1/customers/{id}", Customer.class);

  /** One step's line: what it did, the key, the attempts and the server's request ids. */
  public record Step(String name, boolean ok, String detail, String key, List<Attempt> attempts) {
    String line() {
      String ids =
          attempts.stream()
              .map(a -> a.serverRequestId() == null ? "-" : a.serverRequestId())
              .collect(Collectors.joining(","));
      return String.format(
          "%s %-15s %-44s key=%s attempts=%d request-ids=[%s]",
          ok ? "OK  " : "FAIL", name, detail, key == null ? "-" : key, attempts.size(), ids);
    }
  }

  private StripeStyle() {}

  /**
   * Runs the steps with {@code builder} (its base URL and API key set) for connected account {@code
   * account}; prints one line per step to {@code out} and returns the steps. {@code beforeCharge}
   * runs just before the charge is created (a test harness may arm a fault there).
   */
  public static List<Step> run(
      SafeRetryClientBuilder builder, String account, PrintStream out, Runnable beforeCharge) {
    List<Step> steps = new ArrayList<>();
    try (SafeRetryClient stripe =
        builder
            .preset(ProviderPreset.stripe())
            .defaultHeader("Stripe-Version", STRIPE_VERSION)
            .userAgent("stripe-style-example", "1.0")
            .build()) {
      RequestOptions onAccount = RequestOptions.builder().header("Stripe-Account", account).build();

      CallResult<Customer> customer =
          stripe.execute(
              CREATE_CUSTOMER,
              Map.of("email", "jenny@example.com"),
              onAccount.toBuilder().intentId("stripe-style/customer").build());
      steps.add(step(out, "0 customer", customer, customer.value().id()));

      Map<String, Object> charge = new LinkedHashMap<>();
      charge.put("amount", 2000);
      charge.put("currency", "eur");
      charge.put("customer", customer.value().id());
      charge.put("metadata", Map.of("order_id", "6735"));
      charge.put("expand", List.of("customer"));
      beforeCharge.run();
      CallResult<Charge> created =
          stripe.execute(
              CREATE_CHARGE, charge, onAccount.toBuilder().intentId("order-6735/charge").build());
      String chargeId = created.value().id();
      steps.add(
          step(out, "1 create charge", created, chargeId + " replayed=" + created.replayed()));

      int seen = 0;
      List<Attempt> listAttempts = new ArrayList<>();
      List<CallResult<StripeList<Charge>>> pages = new ArrayList<>();
      for (CallResult<StripeList<Charge>> page :
          stripe
              .paginateResults(
                  LIST_CHARGES,
                  StripeList.style(Charge::id),
                  onAccount.toBuilder().queryParam("limit", 2).build())
              .pages()) {
        pages.add(page);
        listAttempts.addAll(page.attempts());
        seen += page.value().data().size();
      }
      Step list =
          new Step(
              "2 list charges",
              seen > 0,
              seen + " charges on " + pages.size() + " pages",
              null,
              listAttempts);
      out.println(list.line());
      steps.add(list);

      CallResult<Charge> retrieved =
          stripe.execute(GET_CHARGE, null, onAccount.toBuilder().pathParam("id", chargeId).build());
      steps.add(step(out, "3 retrieve", retrieved, retrieved.value().id()));

      CallResult<Refund> refund =
          stripe.execute(
              CREATE_REFUND,
              Map.of("charge", chargeId),
              onAccount.toBuilder().intentId("order-6735/refund").build());
      steps.add(step(out, "4 refund", refund, refund.value().id() + " " + refund.value().status()));

      CallResult<Customer> deleted =
          stripe.execute(
              DELETE_CUSTOMER,
              null,
              onAccount.toBuilder().pathParam("id", customer.value().id()).build());
      steps.add(step(out, "5 delete customer", deleted, "deleted=" + deleted.value().deleted()));
    } catch (SafeRetryException e) {
      Step failed =
          new Step(
              "step " + (steps.size()),
              false,
              e.outcome() + " " + e.reason(),
              e.key() == null ? null : e.key().value(),
              e.attempts());
      out.println(failed.line());
      steps.add(failed);
    }
    return steps;
  }

  private static Step step(PrintStream out, String name, CallResult<?> r, String detail) {
    Step s = new Step(name, true, detail, r.key() == null ? null : r.key().value(), r.attempts());
    out.println(s.line());
    return s;
  }

  /** Returns whether every step succeeded (and all six ran). */
  public static boolean allPassed(List<Step> steps) {
    return steps.size() == 6 && steps.stream().allMatch(Step::ok);
  }

  /** {@code [base-url]}: Stripe's API, by default an in-process server that speaks it. */
  public static void main(String[] args) {
    String key = System.getenv().getOrDefault("STRIPE_API_KEY", "sk_test_demo");
    List<Step> steps;
    if (args.length > 0) {
      steps =
          run(
              SafeRetryClient.builder().baseUrl(args[0]).apiKey(key),
              "acct_1",
              System.out,
              () -> {});
    } else {
      try (StripeShapedServer server = StripeShapedServer.start()) {
        seed(server.baseUrl(), key, "acct_1", 4);
        System.out.println(
            "in-process Stripe-shaped server at "
                + server.baseUrl()
                + " (4 earlier charges; the new charge's first answer is lost after commit)");
        steps =
            run(
                SafeRetryClient.builder().baseUrl(server.baseUrl()).apiKey(key),
                "acct_1",
                System.out,
                () -> server.loseNextResponses(1));
      }
    }
    boolean ok = allPassed(steps);
    System.out.println(ok ? "all steps succeeded" : "FAILED");
    if (!ok) {
      System.exit(1);
    }
  }

  /** Creates {@code n} earlier charges on {@code account}, so that the list spans several pages. */
  public static void seed(String baseUrl, String apiKey, String account, int n) {
    try (SafeRetryClient stripe =
        SafeRetryClient.builder()
            .baseUrl(baseUrl)
            .apiKey(apiKey)
            .preset(ProviderPreset.stripe())
            .build()) {
      for (int i = 0; i < n; i++) {
        stripe.execute(
            CREATE_CHARGE,
            Map.of("amount", 100 + i, "currency", "eur"),
            RequestOptions.builder().header("Stripe-Account", account).build());
      }
    }
  }
}
