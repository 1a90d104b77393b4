package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.testing.ChildJvm;
import java.nio.file.Path;
import java.util.List;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A restart between two attempts of an intent whose body holds a set: the first process sends and
 * ends with the outcome unknown; a second process, in another time zone and locale, builds the same
 * order with its set filled in another order and re-drives the intent from the file key store. It
 * is accepted and sent under the same key with the same bytes. Before, the second process's set was
 * written in another order and the re-drive was refused as INTENT_MISMATCH.
 */
class SetBodyRedriveAcrossJvmsTest {
  @TempDir Path dir;
  private MockWebServer server;

  @BeforeEach
  void start() throws Exception {
    server = new MockWebServer();
    server.start(0);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private String run(List<String> options, String order, String codec) throws Exception {
    try (ChildJvm child =
        ChildJvm.startWith(
            Path.of(System.getProperty("java.home")),
            options,
            SetRedriveChildMain.class,
            dir.toString(),
            server.url("/").toString(),
            order,
            codec)) {
      String iteration = child.awaitLine("ITERATION ");
      String outcome = child.awaitLine("OUTCOME ");
      assertThat(child.waitForExit()).as(child.err()).isZero();
      return iteration + "\n" + outcome.substring("OUTCOME ".length());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"json", "form"})
  void aPendingIntentWithASetIsReDrivenAfterARestartNotRefused(String codec) throws Exception {
    server.enqueue(status(503));
    server.enqueue(charge());
    String[] first =
        run(List.of("-Duser.timezone=Pacific/Kiritimati", "-Duser.language=de"), "forward", codec)
            .split("\n");
    String[] second =
        run(List.of("-Duser.timezone=America/Los_Angeles", "-Duser.language=tr"), "backward", codec)
            .split("\n");
    assertThat(second[0]).isNotEqualTo(first[0]); // the sets iterated in different orders
    assertThat(first[1]).startsWith("UNKNOWN ");
    String key = first[1].substring("UNKNOWN ".length());
    assertThat(second[1]).isEqualTo("SUCCEEDED " + key);
    List<RecordedRequest> wire = drain(server);
    assertThat(wire).hasSize(2);
    assertThat(wire)
        .allSatisfy(r -> assertThat(r.getHeaders().get("Idempotency-Key")).isEqualTo(key));
    assertThat(wire.get(1).getBody().utf8()).isEqualTo(wire.get(0).getBody().utf8());
  }
}
