package dev.saferetry.benchmarks;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.codec.BodyCodec;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.idempotency.KeyStore;
import java.io.IOException;
import okhttp3.OkHttpClient;

/** The same call through the SDK, each with its own intent id so the key store is exercised. */
final class SdkCaller implements Caller {
  private final String name;
  private final SafeRetryClient client;
  private final KeyStore store;

  SdkCaller(String name, OkHttpClient base, String baseUrl, KeyStore store) {
    this(name, base, baseUrl, store, BodyCodec.json());
  }

  /** A caller whose request bodies are written by {@code codec} (JSON or form). */
  SdkCaller(String name, OkHttpClient base, String baseUrl, KeyStore store, BodyCodec codec) {
    this.name = name;
    this.store = store;
    this.client =
        SafeRetryClient.builder()
            .baseUrl(baseUrl)
            .apiKey(CallOverhead.API_KEY)
            .okHttpClient(base)
            .keyStore(store)
            .codec(codec)
            .build();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void call(String runId, int i) throws IOException {
    RequestOptions options = RequestOptions.none().withIntentId(runId + "-" + i);
    CallResult<Charge> result =
        client.execute(Charges.CREATE, CallOverhead.params(runId, i), options);
    if (result.value().amount() <= 0) {
      throw new IOException("bad charge " + result.value());
    }
  }

  /** Returns the client's key store. */
  KeyStore store() {
    return store;
  }

  @Override
  public void close() {
    client.close();
    store.close();
  }
}
