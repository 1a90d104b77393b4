package dev.saferetry.jdbc.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.saferetry.jdbc.TestDatabase.Db;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A receive inside a handler: of the same message it would wait for itself (forever on PostgreSQL),
 * so it is refused at once; of another message in a transaction of its own it would commit apart
 * from the handler's, so it is refused too; on the handler's own connection it joins the handler's
 * transaction and commits or rolls back with it.
 */
class InboxNestedReceiveTest {
  /** Generous: the refusal is immediate; only the old behaviour waits (forever on PostgreSQL). */
  private static final Duration AT_ONCE = Duration.ofSeconds(30);

  @ParameterizedTest
  @EnumSource(Db.class)
  void aReceiveOfTheSameMessageInsideItsHandlerIsRefusedAtOnce(Db db) throws Exception {
    try (InboxFixture f = new InboxFixture(db)) {
      List<Throwable> refusals = new ArrayList<>();
      InboxHandler reenters =
          tx -> {
            f.apply("outer").handle(tx);
            for (Runnable nested :
                List.<Runnable>of(
                    () -> f.inbox.receive("billing", "evt_1", f.apply("inner")),
                    () -> f.inbox.receive(tx.connection(), "billing", "evt_1", f.apply("inner")))) {
              try {
                nested.run();
              } catch (RuntimeException e) {
                refusals.add(e);
              }
            }
          };

      InboxResult outcome =
          assertTimeoutPreemptively(AT_ONCE, () -> f.inbox.receive("billing", "evt_1", reenters));

      assertThat(refusals)
          .hasSize(2)
          .allSatisfy(
              e ->
                  assertThat(e)
                      .isInstanceOf(IllegalStateException.class)
                      .hasMessageContaining("inside its own handler"));
      assertThat(outcome).isEqualTo(InboxResult.APPLIED);
      assertThat(f.ledgerRows("outer")).isEqualTo(1);
      assertThat(f.ledgerRows("inner")).isZero();
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aReceiveInATransactionOfItsOwnInsideAnotherHandlerIsRefused(Db db) throws Exception {
    try (InboxFixture f = new InboxFixture(db)) {
      InboxHandler nests =
          tx -> {
            f.apply("outer").handle(tx);
            f.inbox.receive("billing", "evt_2", f.apply("inner"));
          };

      assertThatThrownBy(
              () ->
                  assertTimeoutPreemptively(
                      AT_ONCE, () -> f.inbox.receive("billing", "evt_1", nests)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("inside another message's handler")
          .hasMessageContaining("receive(tx.connection()");
      assertThat(f.receiptRows()).isZero();
      assertThat(f.ledgerRows()).isZero();
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void anotherMessageReceivedOnTheHandlersConnectionCommitsAndRollsBackWithIt(Db db)
      throws Exception {
    try (InboxFixture f = new InboxFixture(db)) {
      InboxHandler joinsThenFails =
          tx -> {
            f.apply("outer").handle(tx);
            assertThat(f.inbox.receive(tx.connection(), "billing", "evt_2", f.apply("inner")))
                .isEqualTo(InboxResult.APPLIED);
            throw new IllegalStateException("outer fails after the inner applied");
          };
      assertThatThrownBy(() -> f.inbox.receive("billing", "evt_1", joinsThenFails))
          .hasMessage("outer fails after the inner applied");
      assertThat(f.receiptRows()).isZero();
      assertThat(f.ledgerRows()).isZero();

      InboxHandler joins =
          tx -> {
            f.apply("outer").handle(tx);
            f.inbox.receive(tx.connection(), "billing", "evt_2", f.apply("inner"));
          };
      assertThat(f.inbox.receive("billing", "evt_1", joins)).isEqualTo(InboxResult.APPLIED);
      assertThat(f.outcome("evt_1")).isEqualTo("APPLIED");
      assertThat(f.outcome("evt_2")).isEqualTo("APPLIED");
      assertThat(f.inbox.receive("billing", "evt_2", f.apply("inner")))
          .isEqualTo(InboxResult.DUPLICATE);
      assertThat(f.ledgerRows()).isEqualTo(2);
    }
  }
}
