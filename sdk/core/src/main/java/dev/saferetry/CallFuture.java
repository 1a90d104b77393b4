package dev.saferetry;

import java.util.concurrent.CompletableFuture;

/**
 * The future of an asynchronous call: cancelling it cancels the call (its attempt in flight, or its
 * wait for the next one). Futures derived from it ({@code thenApply}, ...) are plain ones.
 */
final class CallFuture<R> extends CompletableFuture<CallResult<R>> {
  private final RealCall<R> call;

  CallFuture(RealCall<R> call) {
    this.call = call;
  }

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    boolean cancelled = super.cancel(mayInterruptIfRunning);
    call.cancel();
    return cancelled;
  }

  @Override
  public <U> CompletableFuture<U> newIncompleteFuture() {
    return new CompletableFuture<>();
  }
}
