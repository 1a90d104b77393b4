package dev.saferetry;

import java.lang.reflect.Method;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The executor on which {@code executeAsync} runs calls' blocking work (recording the intent, each
 * attempt's I/O). OkHttp's I/O is blocking, so each running attempt needs a thread; what the SDK
 * can choose is which thread. On JDK 21 and newer the default is a virtual thread per running call
 * — found at run time, since the build targets Java 17 — so thousands of calls in flight cost a few
 * platform threads; on older JDKs it is a pool of platform threads. Either way at most a bounded
 * number of calls run at once and the others wait in FIFO order, holding no thread. Waits between
 * attempts hold no thread at all (see {@code Sleeper#after}).
 */
final class AsyncIo {
  /** Calls running at once by default on platform threads (JDK 17 to 20): one thread each. */
  static final int PLATFORM_DEFAULT = 32;

  /** Calls running at once by default on virtual threads (JDK 21 and newer). */
  static final int VIRTUAL_DEFAULT = 1_024;

  private static final ThreadFactory VIRTUAL = virtualThreadFactory();

  private AsyncIo() {}

  /** Returns whether this JVM has virtual threads. */
  static boolean virtualThreads() {
    return VIRTUAL != null;
  }

  /** Returns the default number of calls that run at once on this JVM. */
  static int defaultConcurrency() {
    return virtualThreads() ? VIRTUAL_DEFAULT : PLATFORM_DEFAULT;
  }

  /**
   * Creates the client's own executor: at most {@code concurrency} tasks at once, the rest queued
   * in FIFO order; virtual threads when the JVM has them.
   */
  static ExecutorService create(String name, int concurrency) {
    if (VIRTUAL != null) {
      return new BoundedExecutor(concurrency, VIRTUAL);
    }
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            concurrency,
            concurrency,
            60,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, name + "-async-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  // Thread.ofVirtual().name("saferetry-io-", 0).factory(), or null before JDK 21.
  private static ThreadFactory virtualThreadFactory() {
    try {
      Method ofVirtual = Thread.class.getMethod("ofVirtual");
      Class<?> builder = Class.forName("java.lang.Thread$Builder");
      Object b = ofVirtual.invoke(null);
      b = builder.getMethod("name", String.class, long.class).invoke(b, "saferetry-io-", 0L);
      return (ThreadFactory) builder.getMethod("factory").invoke(b);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null; // JDK 17 to 20: no virtual threads
    }
  }
}
