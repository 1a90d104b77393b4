package dev.saferetry;

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
 * enforced to within one tick. It knows nothing of the callers: a {@link Watch} says whether it
 * fired.
 */
final class DeadlineWatchdog {
  static final long TICK_MILLIS = 20;
  private static final long IDLE_AFTER_NANOS = TimeUnit.SECONDS.toNanos(1);

  private static final DeadlineWatchdog INSTANCE = new DeadlineWatchdog();

  /** One watched call: its deadline, and whether the watchdog cancelled it. */
  static final class Watch {
    private final Call call;
    private final long deadlineNanos;
    private volatile boolean fired;

    private Watch(Call call, long deadlineNanos) {
      this.call = call;
      this.deadlineNanos = deadlineNanos;
    }

    /** Returns whether the watchdog cancelled the call because its deadline passed. */
    boolean fired() {
      return fired;
    }
  }

  private final Map<Watch, Boolean> watched = new ConcurrentHashMap<>();
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
  Watch watch(Call call, long deadlineNanos) {
    Watch w = new Watch(call, deadlineNanos);
    watched.put(w, Boolean.TRUE);
    if (idle) {
      LockSupport.unpark(thread);
    }
    return w;
  }

  void release(Watch w) {
    watched.remove(w);
  }

  private void run() {
    long lastBusy = System.nanoTime();
    while (true) {
      if (watched.isEmpty() && System.nanoTime() - lastBusy > IDLE_AFTER_NANOS) {
        idle = true;
        if (watched.isEmpty()) {
          LockSupport.park(this); // watch() unparks; a stray wake-up just loops
        }
        idle = false;
        lastBusy = System.nanoTime();
        continue;
      }
      LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS));
      long now = System.nanoTime();
      if (!watched.isEmpty()) {
        lastBusy = now;
      }
      for (Watch w : watched.keySet()) {
        if (now - w.deadlineNanos >= 0 && watched.remove(w) != null) {
          w.fired = true;
          w.call.cancel();
        }
      }
    }
  }
}
