package dev.saferetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;

/** The OkHttp client the SDK creates when the caller brings none. */
class DefaultHttpClientTest {
  @Test
  void connectsOnTheCallsOwnThreadWithTheDocumentedTimeouts() {
    OkHttpClient http = ClientCore.defaultHttpClient();
    // Fast fallback would race connects on OkHttp's own platform threads, one per connect.
    assertThat(http.fastFallback()).isFalse();
    assertThat(Duration.ofMillis(http.connectTimeoutMillis())).isEqualTo(Duration.ofSeconds(10));
    assertThat(Duration.ofMillis(http.readTimeoutMillis())).isEqualTo(Duration.ofSeconds(30));
    assertThat(Duration.ofMillis(http.writeTimeoutMillis())).isEqualTo(Duration.ofSeconds(30));
    OkHttpClient sdk = OneRequestPerAttempt.sdkOwned(http);
    assertThat(sdk.retryOnConnectionFailure()).isFalse();
    assertThat(sdk.followRedirects()).isFalse();
  }
}
