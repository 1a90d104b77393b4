package dev.saferetry.conformance;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import okhttp3.Call;
import okhttp3.Headers;
import okhttp3.Request;

/** Bounded concurrent requests for the race cases. Stateless and thread-safe. */
final class Concurrent {
  private static final long TIMEOUT_SECONDS = 30;

  private Concurrent() {}

  /** A request running on its own thread; status 0 means an I/O failure or cancellation. */
  record InFlight(Call call, CompletableFuture<Target.Response> result) {
    Target.Response await() {
      try {
        return result.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      } catch (ExecutionException | TimeoutException e) {
        call.cancel();
        throw new IllegalStateException("request did not finish in " + TIMEOUT_SECONDS + "s", e);
      }
    }
  }

  /** Starts {@code request} once {@code gate} opens. */
  static InFlight start(Target t, Request request, CountDownLatch gate) {
    Call call = t.call(request);
    CompletableFuture<Target.Response> result = new CompletableFuture<>();
    Thread thread =
        new Thread(
            () -> {
              try {
                gate.await();
                try (okhttp3.Response r = call.execute()) {
                  result.complete(Target.Response.of(r, Target.readBody(r)));
                }
              } catch (IOException e) {
                result.complete(new Target.Response(0, e.toString(), null, Headers.of()));
              } catch (InterruptedException e) {
                result.completeExceptionally(e);
              }
            },
            "conformance-request");
    thread.setDaemon(true);
    thread.start();
    return new InFlight(call, result);
  }

  /** Waits until one of two requests finishes; returns {finished, other}. */
  static InFlight[] firstDone(InFlight a, InFlight b) {
    try {
      CompletableFuture.anyOf(a.result(), b.result()).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException | TimeoutException e) {
      a.call().cancel();
      b.call().cancel();
      throw new IllegalStateException("neither request finished in " + TIMEOUT_SECONDS + "s", e);
    }
    return a.result().isDone() ? new InFlight[] {a, b} : new InFlight[] {b, a};
  }

  /** Sends {@code n} copies of a request at the same moment and returns every response. */
  static List<Target.Response> burst(Target t, int n, Request request) {
    CountDownLatch gate = new CountDownLatch(1);
    List<InFlight> inFlight = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      inFlight.add(start(t, request, gate));
    }
    gate.countDown();
    List<Target.Response> responses = new ArrayList<>();
    for (InFlight f : inFlight) {
      responses.add(f.await());
    }
    StringBuilder statuses = new StringBuilder("burst→");
    responses.forEach(r -> statuses.append(r.status()).append(' '));
    t.evidence.note(statuses.toString().strip());
    return responses;
  }
}
