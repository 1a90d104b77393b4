package dev.saferetry;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A resource that clients derived from one another share (a connection pool, an executor): each
 * client {@linkplain #acquire() acquires} it when built and {@linkplain #release() releases} it
 * when closed; the last release frees it. A resource the caller brought is shared the same way but
 * never freed. Thread-safe.
 *
 * @param <T> the resource
 */
final class RefCounted<T> {
  private final T value;
  private final Runnable free;
  private final AtomicInteger holders = new AtomicInteger();

  private RefCounted(T value, Runnable free) {
    this.value = value;
    this.free = free;
  }

  /** A resource the SDK created: {@code free} runs when the last holder releases it. */
  static <T> RefCounted<T> owned(T value, Runnable free) {
    return new RefCounted<>(value, free);
  }

  /** A resource the caller brought: never freed by the SDK. */
  static <T> RefCounted<T> borrowed(T value) {
    return new RefCounted<>(value, () -> {});
  }

  T get() {
    return value;
  }

  /** Adds a holder; returns this. */
  RefCounted<T> acquire() {
    holders.incrementAndGet();
    return this;
  }

  /** Removes a holder; the last one frees the resource. */
  void release() {
    if (holders.decrementAndGet() == 0) {
      free.run();
    }
  }
}
