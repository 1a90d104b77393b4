package dev.saferetry.resilience;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** One row of the retry decision table per case. */
class StandardRetryClassifierTest {
  private final RetryClassifier classifier = RetryClassifier.standard();

  @ParameterizedTest(name = "HTTP {0} -> {1}")
  @CsvSource({
    "200, SUCCEEDED",
    "201, SUCCEEDED",
    "204, SUCCEEDED",
    "408, RETRY",
    "409, RETRY",
    "429, RETRY",
    "500, RETRY",
    "502, RETRY",
    "503, RETRY",
    "504, RETRY",
    "400, FAIL",
    "401, FAIL",
    "402, FAIL",
    "403, FAIL",
    "404, FAIL",
    "422, FAIL",
    "302, FAIL",
    "501, FAIL",
    "505, FAIL"
  })
  void statusRow(int status, Verdict expected) {
    assertThat(classifier.classify(new AttemptResponse(status, Map.of(), ""))).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} -> RETRY")
  @EnumSource(value = TransportFailure.class, names = "OTHER", mode = EnumSource.Mode.EXCLUDE)
  void transportFailuresAreRetried(TransportFailure failure) {
    assertThat(classifier.classify(failure)).isEqualTo(Verdict.RETRY);
  }

  @ParameterizedTest
  @EnumSource(value = TransportFailure.class, names = "OTHER")
  void otherIoFailuresAreNotRetried(TransportFailure failure) {
    assertThat(classifier.classify(failure)).isEqualTo(Verdict.FAIL);
  }

  @ParameterizedTest(name = "breaker counts {0}: {1}")
  @CsvSource({
    "429, true",
    "500, true",
    "502, true",
    "503, true",
    "504, true",
    "400, false",
    "404, false",
    "408, false",
    "409, false",
    "422, false",
    "200, false"
  })
  void breakerCountsOnlyOverloadAndServerErrors(int status, boolean counted) {
    assertThat(StandardRetryClassifier.isBreakerFailure(status)).isEqualTo(counted);
  }

  @ParameterizedTest
  @CsvSource({
    "CONNECT_FAILED, false",
    "CONNECT_TIMEOUT, false",
    "READ_TIMEOUT, true",
    "CONNECTION_RESET, true",
    "UNEXPECTED_EOF, true",
    "CALL_TIMEOUT, true"
  })
  void onlyConnectFailuresProveNothingWasSent(TransportFailure failure, boolean mayHaveReached) {
    assertThat(failure.mayHaveReachedServer()).isEqualTo(mayHaveReached);
  }
}
