package dev.saferetry.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JdbcSecretsTest {

  @Test
  void passwordsInUserInfoAndSecretParametersAreMaskedWhateverTheUrlShape() {
    assertThat(
            JdbcSecrets.mask(
                "No suitable driver found for jdbc:postgresq://db:5432/x?user=app&password=hunter2",
                Set.of()))
        .isEqualTo("No suitable driver found for jdbc:postgresq://db:5432/x?user=app&password=***");
    assertThat(JdbcSecrets.mask("jdbc:mariadb://app:s3cr%40t@db/x", Set.of()))
        .isEqualTo("jdbc:mariadb://app:***@db/x");
    assertThat(
            JdbcSecrets.mask(
                "jdbc:h2:tcp://db/x;USER=sa;PASSWORD=pw1;TRACE_LEVEL_FILE=0", Set.of()))
        .isEqualTo("jdbc:h2:tcp://db/x;USER=sa;PASSWORD=***;TRACE_LEVEL_FILE=0");
    assertThat(
            JdbcSecrets.mask(
                "jdbc:mysql:address=(host=db)(port=3306)(password=pw2)/x?sslPassword=pw3&apiKey=k1",
                Set.of()))
        .doesNotContain("pw2", "pw3", "k1");
    assertThat(JdbcSecrets.mask("password authentication failed for user \"app\"", Set.of()))
        .isEqualTo("password authentication failed for user \"app\"");
  }

  @Test
  void theValuesAUrlHoldsAreMaskedWhereverTheyAppear() {
    Set<String> secrets = JdbcSecrets.of("jdbc:postgresql://app:pa%2Fss@db/x?password=hunter2");

    assertThat(secrets).contains("pa%2Fss", "pa/ss", "hunter2");
    assertThat(JdbcSecrets.mask("login with 'pa/ss' refused; hunter2 too", secrets))
        .isEqualTo("login with '***' refused; *** too");
  }

  @Test
  void aCleanChainIsKeptAsItIs() {
    SQLException clean = new SQLTransientConnectionException("connection refused", "08001", 7);

    assertThat((Throwable) JdbcSecrets.scrub(clean)).isSameAs(clean);
  }

  @Test
  void aChainWithACredentialIsCopiedWithEveryMessageMaskedAndItsCodesKept() {
    SQLException top =
        new SQLTransientConnectionException("cannot connect", "08001", 7, new IOException("x"));
    top.getCause().initCause(new IllegalStateException("bad url jdbc:pg://u:hunter2@h/db"));
    top.setNextException(new SQLException("retry with password=hunter2 failed", "08004", 9));
    top.addSuppressed(new SQLException("close: token=abc123"));

    SQLException scrubbed = JdbcSecrets.scrub(top);

    assertThat((Throwable) scrubbed)
        .isNotSameAs(top)
        .isInstanceOf(SQLTransientConnectionException.class);
    assertThat(scrubbed.getSQLState()).isEqualTo("08001");
    assertThat(scrubbed.getErrorCode()).isEqualTo(7);
    assertThat(scrubbed.getStackTrace()).isEqualTo(top.getStackTrace());
    assertThat(scrubbed.getCause().getCause().getMessage())
        .isEqualTo("java.lang.IllegalStateException: bad url jdbc:pg://u:***@h/db");
    assertThat(scrubbed.getNextException().getMessage())
        .isEqualTo("retry with password=*** failed");
    assertThat(scrubbed.getNextException().getSQLState()).isEqualTo("08004");
    assertThat(scrubbed.getSuppressed()[0].getMessage()).isEqualTo("close: token=***");
  }
}
