package dev.saferetry.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import okhttp3.Request;

/** Bounded concurrent requests for the race cases. Stateless and thread-safe. */
final class Concurrent {
  private static final long TIMEOUT_SECONDS = 60;

  private Concurrent() {}

  /** A request running on its own thread. */
  record InFlight(CompletableFuture<Answer> result) {
    Answer await() {
      try {
        return result.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      } catch (ExecutionException | TimeoutException e) {
        throw new IllegalStateException("a request did not end in " + TIMEOUT_SECONDS + "s", e);
      }
    }
  }

  /** Starts {@code request} once {@code gate} opens; recorded in the probe's exchanges. */
  static InFlight start(Probe t, String label, Request request, CountDownLatch gate) {
    CompletableFuture<Answer> result = new CompletableFuture<>();
    Thread thread =
        new Thread(
            () -> {
              try {
                gate.await();
                result.complete(t.attempt(label, request, t.session.http, false));
              } catch (InterruptedException e) {
                result.completeExceptionally(e);
              } catch (RuntimeException e) {
                result.completeExceptionally(e);
              }
            },
            "conformance-request");
    thread.setDaemon(true);
    thread.start();
    return new InFlight(result);
  }

  /** Waits until one of two requests ends; returns {ended, other}, or null after {@code max}. */
  static InFlight[] firstDone(InFlight a, InFlight b, java.time.Duration max) {
    try {
      CompletableFuture.anyOf(a.result(), b.result()).get(max.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (TimeoutException e) {
      return null; // both are held by the server
    } catch (ExecutionException e) {
      throw new IllegalStateException("a request failed", e.getCause());
    }
    return a.result().isDone() ? new InFlight[] {a, b} : new InFlight[] {b, a};
  }

  /** Sends {@code n} copies of a request at the same moment and returns every answer. */
  static List<Answer> burst(Probe t, int n, Request request) {
    CountDownLatch gate = new CountDownLatch(1);
    List<InFlight> inFlight = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      inFlight.add(start(t, "racer " + (i + 1), request, gate));
    }
    gate.countDown();
    List<Answer> answers = new ArrayList<>();
    for (InFlight f : inFlight) {
      answers.add(f.await());
    }
    StringBuilder statuses = new StringBuilder("burst of " + n + "→");
    answers.forEach(r -> statuses.append(r.brief()).append(' '));
    t.note(statuses.toString().strip());
    return answers;
  }

  /** Whether at least two of the requests were in flight at the same time. */
  static boolean overlapped(List<Answer> answers) {
    for (int i = 0; i < answers.size(); i++) {
      for (int j = i + 1; j < answers.size(); j++) {
        Answer a = answers.get(i);
        Answer b = answers.get(j);
        if (a.startNanos() < b.endNanos() && b.startNanos() < a.endNanos()) {
          return true;
        }
      }
    }
    return false;
  }
}
