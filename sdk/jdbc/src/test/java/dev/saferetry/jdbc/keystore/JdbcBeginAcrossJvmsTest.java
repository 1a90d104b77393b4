package dev.saferetry.jdbc.keystore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.testing.ChildJvm;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Two real JVMs, each with its own pool and store, racing to begin the same intents. */
class JdbcBeginAcrossJvmsTest {
  private static final int INTENTS = 150;

  @ParameterizedTest
  @EnumSource(Db.class)
  void twoProcessesBeginningTheSameIntentsRecordEachExactlyOnce(Db db) throws Exception {
    try (TestDatabase database = db.openShared()) {
      try (JdbcKeyStore store = database.builder().build()) {
        assertThat(store.pending()).isEmpty(); // creates the table before the race
      }
      try (ChildJvm one = racer(database, 1);
          ChildJvm two = racer(database, 2)) {
        one.awaitLine("READY");
        two.awaitLine("READY");
        one.send("go");
        two.send("go");
        List<String> lines = new ArrayList<>(one.linesThrough("DONE"));
        lines.addAll(two.linesThrough("DONE"));

        Map<String, List<String[]>> byIntent = new HashMap<>();
        for (String line : lines) {
          if (line.startsWith("R ")) {
            String[] f = line.split(" ");
            byIntent.computeIfAbsent(f[1], k -> new ArrayList<>()).add(f);
          }
        }
        assertThat(byIntent).hasSize(INTENTS);
        byIntent.forEach(
            (intent, seen) -> {
              assertThat(seen).as(intent).hasSize(2);
              assertThat(seen.stream().filter(f -> f[3].equals("true"))).as(intent).hasSize(1);
              assertThat(seen.get(0)[2]).as(intent).isEqualTo(seen.get(1)[2]);
            });
        assertThat(one.waitForExit()).isZero();
        assertThat(two.waitForExit()).isZero();
      }
    }
  }

  private static ChildJvm racer(TestDatabase database, int seed) throws Exception {
    return ChildJvm.start(
        BeginRacerMain.class,
        database.url,
        database.schema,
        String.valueOf(INTENTS),
        String.valueOf(seed));
  }
}
