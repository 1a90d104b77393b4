package dev.saferetry.internal.storedrequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.testing.HostileTargets;
import java.util.List;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

/** A stored target judged against a sender's real base URL, after its HTTP client's parsing. */
class StoredTargetsTest {

  @Test
  void aTargetIsSentUnderTheSendersOwnBaseUrlAfterTheHttpClientsNormalisation() {
    for (String base :
        List.of(
            "http://pay.example:8443/api/v2/",
            "http://pay.example:8443/api/v2",
            "http://pay.example:8443/api/v2/?tenant=1",
            "https://pay.example/")) {
      HttpUrl b = HttpUrl.get(base);
      String prefix = b.encodedPath().endsWith("/") ? b.encodedPath() : b.encodedPath() + "/";
      for (String target : HostileTargets.HOSTILE) {
        assertThatThrownBy(() -> StoredTargets.resolve(b, target))
            .as(base + " + " + target)
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("target");
      }
      for (String target : HostileTargets.HARMLESS) {
        HttpUrl url = StoredTargets.resolve(b, target);
        assertThat(url.host()).isEqualTo(b.host());
        assertThat(url.port()).isEqualTo(b.port());
        assertThat(url.scheme()).isEqualTo(b.scheme());
        assertThat(url.encodedPath()).as(target).startsWith(prefix);
        if (b.encodedQuery() != null) {
          assertThat(url.encodedQuery()).startsWith(b.encodedQuery());
        }
        assertThat(url.encodedPathSegments().size())
            .isEqualTo(
                prefix.split("/", -1).length - 2 + target.split("\\?")[0].split("/", -1).length);
      }
      HttpUrl charges = StoredTargets.resolve(b, "v1/charges?expand[]=customer");
      assertThat(charges.encodedPath()).isEqualTo(prefix + "v1/charges");
      assertThat(charges.queryParameter("expand[]")).isEqualTo("customer");
      // The sender's base URL's own query comes first, as on every call it makes itself.
      String own = b.encodedQuery() == null ? "" : b.encodedQuery() + "&";
      assertThat(charges.encodedQuery()).isEqualTo(own + "expand[]=customer");
    }
  }

  @Test
  void aTargetsQueryParameterNamedAsACredentialIsRefusedNamingIt() {
    for (String target :
        List.of(
            "v1/charges?access_token=abc123",
            "v1/charges?expand[]=x&API_KEY=abc123",
            "v1/charges?client%5Fsecret=abc123",
            "v1/charges?sig=1&X-Amz-Signature=abc123")) {
      assertThatThrownBy(() -> StoredTargets.check(target))
          .as(target)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("query parameter")
          .hasMessageContaining("credential")
          .hasMessageNotContaining("abc123");
    }
  }
}
