package dev.saferetry.examples;

import static java.util.stream.Collectors.joining;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.filestore.FileKeyStore;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.PaymentsClient;
import dev.saferetry.testing.provider.FakeProvider;
import dev.saferetry.testing.provider.Fault;
import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import okhttp3.Call;
import okhttp3.EventListener;
import okhttp3.OkHttpClient;

/**
 * Crash and recover, run 1 ({@code STORE-DIR [base-url]}): records the intent in a {@link
 * FileKeyStore} and sends the charge; kill it (SIGKILL) once it printed {@code request written};
 * run 2 is {@link RecoverPending} on the same store. No argument: the whole drill, on a fake API.
 */
public final class CrashAndRecover {
  /** Your own records say what an order costs: a re-drive rebuilds the same payload from them. */
  static ChargeCreateParams chargeFor(String intentId) {
    var order = ChargeCreateParams.builder().amount(7300L).currency("eur");
    return order.description("order 1004").build();
  }

  /** {@code STORE-DIR [base-url]}: charges order 1004; with no argument, the whole drill. */
  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      try (FakeProvider fake = FakeProvider.start().arm(Fault.hang())) { // holds the charge
        String store = Files.createTempDirectory("saferetry-keys").toString();
        String url = fake.baseUrl();
        String java = ProcessHandle.current().info().command().orElse("java");
        String[] run1 = {java, "-cp", classPath(), CrashAndRecover.class.getName(), store, url};
        Process child = new ProcessBuilder(run1).start();
        child.inputReader().lines().anyMatch(l -> l.startsWith("request written")); // run 1 sent
        child.destroyForcibly().waitFor(); // run 1 killed (SIGKILL) mid-request
        fake.releaseHeld(); // the held charge is made now; its answer goes nowhere
        RecoverPending.main(new String[] {store, url});
        System.out.printf("the fake API made %d charge(s)%n", fake.effects().size());
      }
      return;
    }
    EventListener written =
        new EventListener() {
          @Override
          public void requestBodyEnd(Call call, long bytes) {
            System.out.println("request written " + call.request().header("Idempotency-Key"));
          }
        };
    try (FileKeyStore store = FileKeyStore.open(Path.of(args[0]));
        SafeRetryClient client =
            SafeRetryClient.builder()
                .baseUrl(args.length > 1 ? args[1] : "http://127.0.0.1:8080")
                .apiKey("sk_test_demo")
                .keyStore(store)
                .okHttpClient(new OkHttpClient.Builder().eventListener(written).build())
                .build()) {
      String intentId = "order-1004/charge";
      new PaymentsClient(client)
          .charges()
          .create(chargeFor(intentId), RequestOptions.none().withIntentId(intentId));
    }
  }

  /** This JVM's class path; under {@code mvn exec:java}, that of the project's class loader. */
  private static String classPath() {
    return Thread.currentThread().getContextClassLoader() instanceof URLClassLoader loader
        ? Arrays.stream(loader.getURLs()).map(URL::getPath).collect(joining(File.pathSeparator))
        : System.getProperty("java.class.path");
  }
}
