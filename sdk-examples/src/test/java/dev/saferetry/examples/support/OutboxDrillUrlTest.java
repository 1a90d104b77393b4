package dev.saferetry.examples.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The outbox example names the database it used, never a password, and refuses other URLs. */
class OutboxDrillUrlTest {
  @Test
  void thePrintedUrlKeepsEverythingButThePassword() {
    assertThat(
            OutboxDrill.redacted(
                "jdbc:postgresql://db:5432/shop?user=app&password=s3cret&sslmode=require"))
        .isEqualTo("jdbc:postgresql://db:5432/shop?user=app&password=***&sslmode=require");
  }

  @Test
  void anArgumentThatIsNotAPostgresqlUrlIsRefusedWithTheFormat() {
    PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    assertThatThrownBy(() -> OutboxDrill.run("jdbc:mysql://127.0.0.1/shop", out))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(OutboxDrill.URL_FORMAT);
  }
}
