package dev.saferetry;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Response;

/**
 * What the follow-up guard ({@link FollowUps}) learns about one attempt while OkHttp runs it: the
 * attempt's private OkHttp request tag. {@code connected} is set once a connection carries the
 * request; {@code requests} counts the requests OkHttp tried within the attempt; {@code head} is
 * the server's answer to the first; {@code refused} says that a second one was refused.
 */
final class AttemptTag {
  final AtomicBoolean connected = new AtomicBoolean();
  final AtomicInteger requests = new AtomicInteger();
  volatile Response head;
  volatile boolean refused;

  /** The first failure of the request that was sent, before any interceptor's second try. */
  volatile IOException sentFailure;
}
