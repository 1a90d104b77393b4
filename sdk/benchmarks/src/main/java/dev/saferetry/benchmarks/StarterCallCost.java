package dev.saferetry.benchmarks;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.payments.Charge;
import dev.saferetry.payments.PaymentsClient;
import dev.saferetry.spring.SafeRetryClientCustomizer;
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
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A charge through a client that {@code saferetry-spring-boot-starter} built from properties in a
 * real Spring Boot application context ({@link #starter}) next to the same charge through a client
 * built by hand with the same settings ({@link #handBuilt}): name and tenant {@code bench}, the
 * base URL, the API key, the in-memory key store and core's default retry, breaker and budget. Both
 * go through the generated {@code PaymentsClient} against one loopback server answering a fixed
 * charge. {@link PairedRuns} runs the two alternately and prints the ratio with its spread.
 *
 * <p>{@code server=inproc}: both clients answered inside OkHttp ({@link InProcessAnswer}; the
 * starter's through a {@link SafeRetryClientCustomizer} bean), no socket.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class StarterCallCost {
  /** The application: auto-configuration only, no web server. */
  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class App {
    /** With {@code server=inproc}: the client's OkHttp answers in-process. */
    @Bean
    SafeRetryClientCustomizer inProcess() {
      return (name, builder) -> {
        if (inProcess != null) {
          builder.okHttpClient(inProcess);
        }
      };
    }
  }

  /** The in-process OkHttp client of this fork, or null for the loopback server. */
  static volatile OkHttpClient inProcess;

  /** {@code http}: the loopback server; {@code inproc}: answered inside OkHttp, no socket. */
  @Param({"http"})
  public String server = "http";

  private final AtomicInteger calls = new AtomicInteger();
  private FixedResponseServer http;
  private ConfigurableApplicationContext context;
  private SafeRetryClient hand;
  private PaymentsClient viaStarter;
  private PaymentsClient viaHand;

  /** Starts the server, the application context and the hand-built client. */
  @Setup(Level.Trial)
  public void start() throws Exception {
    http = FixedResponseServer.start(4);
    inProcess =
        server.equals("inproc")
            ? new OkHttpClient.Builder().addInterceptor(new InProcessAnswer()).build()
            : null;
    SpringApplication app = new SpringApplication(App.class);
    app.setWebApplicationType(WebApplicationType.NONE);
    app.setLogStartupInfo(false);
    context =
        app.run(
            "--saferetry.clients.bench.base-url=" + http.baseUrl(),
            "--saferetry.clients.bench.credentials.api-key=" + CallOverhead.API_KEY,
            "--saferetry.clients.bench.key-store.type=memory",
            "--spring.main.banner-mode=off");
    viaStarter = new PaymentsClient(context.getBean("bench", SafeRetryClient.class));
    SafeRetryClientBuilder builder =
        SafeRetryClient.builder()
            .name("bench")
            .tenant("bench")
            .baseUrl(http.baseUrl())
            .apiKey(CallOverhead.API_KEY)
            .keyStore(KeyStore.inMemory());
    if (inProcess != null) {
      builder.okHttpClient(inProcess);
    }
    hand = builder.build();
    viaHand = new PaymentsClient(hand);
  }

  /** {@return the loopback server} */
  FixedResponseServer server() {
    return http;
  }

  /** Closes the context, the hand-built client and the server. */
  @TearDown(Level.Trial)
  public void stop() {
    context.close();
    hand.close();
    http.close();
  }

  /** Through the starter-built client. */
  @Benchmark
  public Charge starter() {
    int i = calls.incrementAndGet();
    return viaStarter
        .charges()
        .create(TypedCallCost.params(i), RequestOptions.none().withIntentId("s-" + i))
        .value();
  }

  /** Through the hand-built client. */
  @Benchmark
  public Charge handBuilt() {
    int i = calls.incrementAndGet();
    return viaHand
        .charges()
        .create(TypedCallCost.params(i), RequestOptions.none().withIntentId("h-" + i))
        .value();
  }
}
