package dev.saferetry.conformance.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BaseUrlTest {

  @Test
  void thePathGoesAfterTheBasesPathAndTheBasesQueryComesFirst() {
    assertThat(BaseUrl.resolve("http://127.0.0.1:8080", "/v1/charges"))
        .isEqualTo("http://127.0.0.1:8080/v1/charges");
    assertThat(BaseUrl.resolve("http://127.0.0.1:8080/?token=t1", "/v1/charges"))
        .isEqualTo("http://127.0.0.1:8080/v1/charges?token=t1");
    assertThat(BaseUrl.resolve("https://api.example/base/?token=t1", "/v1/x?limit=3&b=%20"))
        .isEqualTo("https://api.example/base/v1/x?token=t1&limit=3&b=%20");
    assertThat(BaseUrl.resolve("http://u:p@h:1/api", "V1/CHARGES/"))
        .isEqualTo("http://u:p@h:1/api/V1/CHARGES/");
  }
}
