package dev.saferetry.examples;

import static dev.saferetry.examples.support.StripeApi.GET_CHARGE;
import static dev.saferetry.examples.support.StripeApi.LIST_CHARGES;

import dev.saferetry.CallResult;
import dev.saferetry.ProviderPreset;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.call.Attempt;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.examples.support.Steps;
import dev.saferetry.examples.support.Steps.Step;
import dev.saferetry.examples.support.StripeApi;
import dev.saferetry.examples.support.StripeApi.Charge;
import dev.saferetry.provider.StripeList;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Every page of a Stripe list with the Stripe preset: {@code paginateResults} walks the cursor
 * ({@code starting_after}) page by page, lazily, each page fetched and retried like any call (a GET
 * carries no key); then one charge is read back by id. Without an argument it lists the charges of
 * an in-process Stripe-shaped server, five of them at two per page.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java \
 *     -Dexec.mainClass=dev.saferetry.examples.StripePagination [-Dexec.args=https://api.stripe.com]
 * </pre>
 */
public final class StripePagination {
  private StripePagination() {}

  /** Lists {@code account}'s charges, two per page, and reads the last one back. */
  public static List<Step> run(SafeRetryClientBuilder builder, String account, PrintStream out) {
    Steps steps = new Steps(out);
    builder = builder.preset(ProviderPreset.stripe()); // Stripe's cursors, errors and hints
    try (SafeRetryClient stripe = builder.header("Stripe-Version", StripeApi.VERSION).build()) {
      RequestOptions onAccount = RequestOptions.none().withHeader("Stripe-Account", account);
      RequestOptions twoPerPage = onAccount.withQueryParam("limit", 2);
      List<Charge> charges = new ArrayList<>();
      List<Attempt> attempts = new ArrayList<>();
      int pages = 0;
      for (CallResult<StripeList<Charge>> page :
          stripe.paginateResults(LIST_CHARGES, StripeList.style(Charge::id), twoPerPage).pages()) {
        pages++;
        attempts.addAll(page.attempts());
        charges.addAll(page.value().data());
      }
      String found = charges.size() + " charges on " + pages + " pages";
      steps.ok("0 list charges", !charges.isEmpty(), found, attempts);
      String last = charges.get(charges.size() - 1).id();
      RequestOptions byId = onAccount.withPathParam("id", last);
      CallResult<Charge> retrieved = stripe.execute(GET_CHARGE, null, byId);
      steps.ok("1 retrieve", retrieved, retrieved.value().id());
    } catch (SafeRetryException e) {
      steps.failed(e);
    }
    return steps.list();
  }

  /** {@code [base-url]}: Stripe's API, by default an in-process server that speaks it. */
  public static void main(String[] args) {
    StripeApi.runMain(args, 5, 2, (client, lose) -> run(client, "acct_1", System.out));
  }
}
