package dev.saferetry;

import dev.saferetry.codec.BodyCodec;
import dev.saferetry.error.CallFailedException;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.filestore.FileKeyStore;
import dev.saferetry.resilience.RetryPolicy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One process of {@link SetBodyRedriveAcrossJvmsTest}: charges intent {@code order-7}, whose body
 * holds a set filled in the given order, through a client with a file key store and no retries, and
 * prints {@code OUTCOME <kind> <key>}. Arguments: store directory, base URL, {@code
 * forward|backward}, {@code json|form}.
 */
public final class SetRedriveChildMain {
  /** The charge request: its tags are a set. */
  public record Order(long amount, String currency, Set<String> tags) {}

  private SetRedriveChildMain() {}

  /** "Aa" and "BB" share a hash code: a HashSet hands them out in the order they were added. */
  static Order order(boolean forward) {
    List<String> tags = new ArrayList<>(List.of("Aa", "BB", "vip", "gift"));
    if (!forward) {
      java.util.Collections.reverse(tags);
    }
    return new Order(1000, "eur", new HashSet<>(tags));
  }

  public static void main(String[] args) throws Exception {
    BodyCodec codec = args[3].equals("json") ? BodyCodec.json() : BodyCodec.form();
    Operation<Order, Charge> create =
        Operation.post("/v1/charges", Order.class, Charge.class).withCodec(codec);
    Order order = order(args[2].equals("forward"));
    System.out.println("ITERATION " + order.tags());
    try (FileKeyStore store = FileKeyStore.open(Path.of(args[0]));
        SafeRetryClient client =
            SafeRetryClient.builder()
                .baseUrl(args[1])
                .keyStore(store)
                .retryPolicy(RetryPolicy.noRetries())
                .build()) {
      RequestOptions intent = RequestOptions.none().withIntentId("order-7");
      String outcome;
      try {
        CallResult<Charge> result = client.execute(create, order, intent);
        outcome = "SUCCEEDED " + result.key().value();
      } catch (OutcomeUnknownException e) {
        outcome = "UNKNOWN " + e.key().value();
      } catch (CallFailedException e) {
        outcome = "FAILED_" + e.reason() + " " + e.key().value();
      }
      System.out.println("OUTCOME " + outcome);
    }
  }
}
