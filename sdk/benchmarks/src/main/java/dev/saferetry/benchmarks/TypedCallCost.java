package dev.saferetry.benchmarks;

import dev.saferetry.CallResult;
import dev.saferetry.Operation;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.codec.TypeRef;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.payments.Charge;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.PaymentsClient;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.OkHttpClient;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A charge created through the generated typed method of {@code saferetry-payments} ({@link
 * #typed}: {@code payments.charges().create(params, options)}) next to the same charge sent through
 * a hand-written {@link Operation} on the same client ({@link #handWritten}: {@code
 * client.execute(op, params, options)}), against one loopback server answering a fixed charge. The
 * hand-written operation has the settings the generator derives from the document (POST {@code
 * /v1/charges}, key in {@code Idempotency-Key}, at most 255 characters), so the two differ only by
 * the generated method itself. Each call is its own intent, with the in-memory key store. {@link
 * PairedRuns} runs the two alternately and prints the ratio with its spread.
 *
 * <p>{@code server=inproc} answers inside OkHttp ({@link InProcessAnswer}), without a socket or a
 * server thread: the client's own work only, far less noisy on a shared machine.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class TypedCallCost {
  /** The operation as a user writes it by hand. */
  static final Operation<ChargeCreateParams, Charge> HAND_CREATE =
      Operation.of("POST", "/v1/charges", ChargeCreateParams.class, TypeRef.of(Charge.class))
          .carryingKey(true)
          .withKeyPlacement(KeyPlacement.header("Idempotency-Key"))
          .withKeyMaxLength(255);

  /** {@code http}: the loopback server; {@code inproc}: answered inside OkHttp, no socket. */
  @Param({"http"})
  public String server = "http";

  private final AtomicInteger calls = new AtomicInteger();
  private FixedResponseServer http;
  private SafeRetryClient client;
  private PaymentsClient payments;

  /** The request of call {@code i}, built the same way for both paths. */
  static ChargeCreateParams params(int i) {
    return ChargeCreateParams.builder()
        .amount(1000L + (i % 100))
        .currency("eur")
        .description("order " + i)
        .build();
  }

  /** Starts the server and the one client both paths share. */
  @Setup(Level.Trial)
  public void start() throws Exception {
    http = FixedResponseServer.start(4);
    SafeRetryClientBuilder builder =
        SafeRetryClient.builder()
            .baseUrl(http.baseUrl())
            .apiKey(CallOverhead.API_KEY)
            .keyStore(KeyStore.inMemory());
    if (server.equals("inproc")) {
      builder.okHttpClient(
          new OkHttpClient.Builder().addInterceptor(new InProcessAnswer()).build());
    }
    client = builder.build();
    payments = new PaymentsClient(client);
  }

  /** {@return the loopback server} */
  FixedResponseServer server() {
    return http;
  }

  /** Stops the client and the server. */
  @TearDown(Level.Trial)
  public void stop() {
    client.close();
    http.close();
  }

  /** The generated typed method. */
  @Benchmark
  public Charge typed() {
    int i = calls.incrementAndGet();
    CallResult<Charge> r =
        payments.charges().create(params(i), RequestOptions.none().withIntentId("t-" + i));
    return r.value();
  }

  /** The same call through a hand-written {@link Operation}. */
  @Benchmark
  public Charge handWritten() {
    int i = calls.incrementAndGet();
    CallResult<Charge> r =
        client.execute(HAND_CREATE, params(i), RequestOptions.none().withIntentId("h-" + i));
    return r.value();
  }
}
