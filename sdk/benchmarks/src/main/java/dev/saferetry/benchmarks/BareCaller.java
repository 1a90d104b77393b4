package dev.saferetry.benchmarks;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.examples.payments.Charge;
import java.io.IOException;
import java.util.UUID;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * What a careful user writes by hand: one shared OkHttp client with its silent retry off, the same
 * records serialised and parsed with Jackson, a fresh UUID idempotency key per call.
 */
final class BareCaller implements Caller {
  private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");

  private final OkHttpClient http;
  private final ObjectMapper mapper =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
  private final String url;

  BareCaller(OkHttpClient base, String baseUrl) {
    this.http = base.newBuilder().retryOnConnectionFailure(false).followRedirects(false).build();
    this.url = baseUrl + "/v1/charges";
  }

  @Override
  public String name() {
    return "a bare OkHttp+Jackson";
  }

  @Override
  public void call(String runId, int i) throws IOException {
    byte[] body = mapper.writeValueAsBytes(CallOverhead.params(runId, i));
    Request request =
        new Request.Builder()
            .url(url)
            .header("Authorization", "Bearer " + CallOverhead.API_KEY)
            .header("Accept", "application/json")
            .header("Idempotency-Key", UUID.randomUUID().toString())
            .post(RequestBody.create(body, JSON))
            .build();
    try (Response response = http.newCall(request).execute()) {
      if (!response.isSuccessful()) {
        throw new IOException("unexpected status " + response.code());
      }
      Charge charge = mapper.readValue(response.body().bytes(), Charge.class);
      if (charge.amount() <= 0) {
        throw new IOException("bad charge " + charge);
      }
    }
  }
}
