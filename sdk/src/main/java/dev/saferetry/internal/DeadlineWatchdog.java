package dev.saferetry.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import okhttp3.Call;

/**
 * Cancels in-flight attempts whose call's overall deadline passed, so that a response that never
 * ends (or drips a byte at a time, defeating the read timeout) cannot outlive the deadline.
 *
 * <p>Why not OkHttp's per-call timeout: it arms Okio's watchdog for every call, which wakes that
 * thread once per request — a measurable cost next to a loopback round trip. This watchdog is one
 * JVM-wide daemon thread that ticks every {@value #TICK_MILLIS} ms only while attempts are in
 * flight (and parks when there are none), so registering an attempt is a map insert. Deadlines are
 * enforced to within one tick.
 */
final class DeadlineWatchdog {
  static final long TICK_MILLIS = 20;
  private static final long IDLE_AFTER_NANOS = TimeUnit.SECONDS.toNanos(1);

  private static final DeadlineWatchdog INSTANCE = new DeadlineWatchdog();

  /** What the watchdog keeps per attempt: the deadline and the flag it raises when it fires. */
  record Watched(long deadlineNanos, Wire.AttemptTag tag) {}

  private final Map<Call, Watched> calls = new ConcurrentHashMap<>();
  private final Thread thread;
  private volatile boolean idle;

  private DeadlineWatchdog() {
    thread = new Thread(this::run, "saferetry-deadline-watchdog");
    thread.setDaemon(true);
    thread.start();
  }

  static DeadlineWatchdog get() {
    return INSTANCE;
  }

  /** Watches a call until {@link #release}; cancels it once {@code deadlineNanos} passed. */
  void watch(Call call, long deadlineNanos, Wire.AttemptTag tag) {
    calls.put(call, new Watched(deadlineNanos, tag));
    if (idle) {
      LockSupport.unpark(thread);
    }
  }

  void release(Call call) {
    calls.remove(call);
  }

  private void run() {
    long lastBusy = System.nanoTime();
    while (true) {
      if (calls.isEmpty() && System.nanoTime() - lastBusy > IDLE_AFTER_NANOS) {
        idle = true;
        if (calls.isEmpty()) {
          LockSupport.park(this); // watch() unparks; a stray wake-up just loops
        }
        idle = false;
        lastBusy = System.nanoTime();
        continue;
      }
      LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS));
      long now = System.nanoTime();
      if (!calls.isEmpty()) {
        lastBusy = now;
      }
      calls.forEach(
          (call, w) -> {
            if (now - w.deadlineNanos() >= 0 && calls.remove(call, w)) {
              w.tag().timedOut.set(true);
              call.cancel();
            }
          });
    }
  }
}
