package dev.saferetry.examples;

import dev.saferetry.CallResult;
import dev.saferetry.ProviderPreset;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.stripe.Charge;
import dev.saferetry.stripe.ChargesCreateRequest;
import dev.saferetry.stripe.ChargesListQuery;
import dev.saferetry.stripe.ChargesListResponse;
import dev.saferetry.stripe.StripeClient;
import dev.saferetry.testing.provider.Dialect;
import dev.saferetry.testing.provider.FakeProvider;
import java.util.ArrayList;
import java.util.List;

/**
 * Every page of a Stripe list with the typed Stripe client ({@code saferetry-stripe}): {@code
 * listAll} walks the cursor ({@code starting_after}) page by page, lazily, each page fetched and
 * retried like any call (a GET carries no key); then one charge is read back by id. With no
 * argument it lists five charges it makes on a fake Stripe of its own (saferetry-testing), two per
 * page; with a base URL and {@code STRIPE_SECRET_KEY} set, the charges of that API.
 */
public final class StripePagination {
  private StripePagination() {}

  /** Lists every charge two per page, reads the last one back; returns what it found. */
  public static String run(SafeRetryClient client) {
    StripeClient stripe = new StripeClient(client);
    var twoPerPage = ChargesListQuery.builder().limit(2L).build();
    List<Charge> charges = new ArrayList<>();
    int pages = 0;
    for (ChargesListResponse page :
        stripe.charges().listAll(twoPerPage, RequestOptions.none()).pages()) {
      pages++; // one GET per page, retried like any call
      charges.addAll(page.data());
    }
    String found = charges.size() + " charges on " + pages + " pages";
    System.out.println(found);
    String last = charges.get(charges.size() - 1).id();
    CallResult<Charge> read = stripe.charges().retrieve(last, null, RequestOptions.none());
    System.out.printf("retrieved %s, key %s%n", read.value().id(), read.key()); // a GET: none
    return found;
  }

  /** {@code [base-url]}: Stripe's API, by default a fake one with five charges. */
  public static void main(String[] args) {
    try (FakeProvider fake = FakeProvider.builder().dialect(Dialect.STRIPE).start();
        SafeRetryClient client =
            SafeRetryClient.builder()
                .preset(ProviderPreset.stripe()) // Stripe's cursors, errors and hints
                .baseUrl(args.length > 0 ? args[0] : fake.baseUrl())
                .apiKey(System.getenv().getOrDefault("STRIPE_SECRET_KEY", "sk_test_fake"))
                .build()) {
      for (int i = 1; args.length == 0 && i <= 5; i++) { // charges to list, on the fake only
        var charge = ChargesCreateRequest.builder().amount(1000L * i).currency("eur");
        new StripeClient(client)
            .charges()
            .create(
                charge.source("tok_visa").build(),
                RequestOptions.none().withIntentId("order-" + i + "/charge"));
      }
      run(client);
    }
  }
}
