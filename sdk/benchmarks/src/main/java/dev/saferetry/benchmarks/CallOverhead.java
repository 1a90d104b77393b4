package dev.saferetry.benchmarks;

import dev.saferetry.codec.BodyCodec;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.filestore.FileKeyStore;
import dev.saferetry.idempotency.KeyStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.ConnectionPool;
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
 * What the SDK costs on top of a hand-written call: the same charge POSTs against one loopback
 * server returning a fixed small JSON answer, made (a) with bare OkHttp and Jackson ({@link
 * #bare}), (b) through the SDK with the in-memory key store ({@link #sdkInMemory}), (c) through the
 * SDK with the file key store ({@link #sdkFileStore}) and (d) as (b) with form-encoded bodies
 * ({@link #sdkForm}). All four run in the same JMH run and fork, so {@link Benchmarks} prints b/a,
 * c/a, d/a and d/b side by side. Sampled time per call gives the mean (elapsed time per call is the
 * mean divided by the callers) and the median latency.
 *
 * <p>{@code server=inproc} answers inside OkHttp without a socket, which isolates the client's own
 * CPU work. One state per trial, shared by all caller threads (the clients are thread-safe).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CallOverhead {
  /** The API key every caller sends. */
  static final String API_KEY = "sk_test_bench";

  /** {@code http}: a loopback server; {@code inproc}: answered inside OkHttp, no socket. */
  @Param({"http"})
  public String server;

  private final AtomicInteger calls = new AtomicInteger();
  private FixedResponseServer http;
  private Path dir;
  private Caller bare;
  private Caller inMemory;
  private Caller form;
  private Caller fileStore;

  /** The deterministic request of call {@code i} of run {@code runId}. */
  static ChargeCreateParams params(String runId, int i) {
    return new ChargeCreateParams(1000 + (i % 100), "eur", "order " + runId + "-" + i, null);
  }

  /** Starts the server and the four callers. */
  @Setup(Level.Trial)
  public void start() throws Exception {
    http = FixedResponseServer.start(32);
    dir = Files.createTempDirectory("saferetry-bench");
    OkHttpClient.Builder builder =
        new OkHttpClient.Builder()
            .connectionPool(new ConnectionPool(64, 5, TimeUnit.MINUTES))
            .connectTimeout(10, TimeUnit.SECONDS)
            .readTimeout(30, TimeUnit.SECONDS)
            .writeTimeout(30, TimeUnit.SECONDS);
    if (server.equals("inproc")) {
      builder.addInterceptor(new InProcessAnswer());
    }
    OkHttpClient base = builder.build();
    String url = http.baseUrl();
    bare = new BareCaller(base, url);
    inMemory = new SdkCaller("b SDK, in-memory store", base, url, KeyStore.inMemory());
    form =
        new SdkCaller("d SDK, form, in-memory", base, url, KeyStore.inMemory(), BodyCodec.form());
    fileStore = new SdkCaller("c SDK, file store", base, url, FileKeyStore.open(dir));
  }

  /** Stops the callers and the server and deletes the file store. */
  @TearDown(Level.Trial)
  public void stop() throws Exception {
    if (fileStore instanceof SdkCaller sdk && sdk.store() instanceof FileKeyStore store) {
      long syncs = store.syncCount();
      if (syncs > 0) { // only in the fork that measured the file store
        System.out.printf(
            "file store: %.3f fsyncs per intent over %d intents%n",
            syncs / (double) calls.get(), calls.get());
      }
    }
    for (Caller c : new Caller[] {bare, inMemory, form, fileStore}) {
      c.close();
    }
    http.close();
    Scratch.delete(dir);
  }

  private int next() {
    return calls.incrementAndGet();
  }

  /** (a) Bare OkHttp and Jackson, a fresh UUID idempotency key per call: the baseline. */
  @Benchmark
  public void bare() throws Exception {
    bare.call("a", next());
  }

  /** (b) Through the SDK with the in-memory key store, every call its own intent. */
  @Benchmark
  public void sdkInMemory() throws Exception {
    inMemory.call("b", next());
  }

  /** (c) Through the SDK with the file key store: one fsync per intent, shared under load. */
  @Benchmark
  public void sdkFileStore() throws Exception {
    fileStore.call("c", next());
  }

  /** (d) As (b) with form-encoded bodies (Stripe's format). */
  @Benchmark
  public void sdkForm() throws Exception {
    form.call("d", next());
  }
}
