package dev.saferetry.testing.provider;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import mockwebserver3.SocketEffect;

/**
 * The provider's request handling, as MockWebServer's dispatcher (called on one server thread per
 * connection): takes the armed fault, checks headers, body and key, applies the idempotency rules,
 * runs the endpoint, records what happened, and answers — or spoils the answer as the fault says.
 * Thread-safe.
 */
final class Engine extends Dispatcher {
  /** Where the key is: a header, or a top-level body field (then never part of the parameters). */
  record KeyLocation(String header, String bodyField) {}

  /** What a request came to, before any after-commit fault. */
  private record Result(Answer answer, String key, Map<String, Object> params, boolean replayed) {}

  private final Shape shape;
  private final List<Route> routes;
  private final KeyLocation keyLocation;
  private final boolean requireKey;
  private final Clock clock;
  private final Duration retention;
  private final Runnable resetState;
  final ArmedFaults faults = new ArmedFaults();
  final Holds holds = new Holds();
  final Journal journal = new Journal();
  final Keys keys = new Keys();
  final Ids requestIds = new Ids();

  /**
   * Moves on at every reset and at close: a request held across one does no work, and is not
   * recorded.
   */
  private final java.util.concurrent.atomic.AtomicLong generation =
      new java.util.concurrent.atomic.AtomicLong();

  Engine(
      Shape shape,
      List<Route> routes,
      KeyLocation keyLocation,
      boolean requireKey,
      Clock clock,
      Duration retention,
      Runnable resetState) {
    this.shape = shape;
    this.routes = List.copyOf(routes);
    this.keyLocation = keyLocation;
    this.requireKey = requireKey;
    this.clock = clock;
    this.retention = retention;
    this.resetState = resetState;
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    long born = generation.get();
    Call call = Call.of(request);
    Route route = null;
    Map<String, String> variables = Map.of();
    for (Route r : routes) {
      Map<String, String> v = r.pattern().variables(call.method(), call.path());
      if (v != null) {
        route = r;
        variables = v;
        break;
      }
    }
    String operation = route != null ? route.operation() : call.method() + " " + call.path();
    Fault fault = faults.take(call.method(), call.path());
    Fault.Kind kind = fault == null ? null : fault.kind();
    Result result;
    if (kind == Fault.Kind.RATE_LIMIT || kind == Fault.Kind.FAIL_BEFORE_COMMIT) {
      result = refusedByFault(call, fault);
    } else {
      result =
          process(call, operation, route, variables, kind == Fault.Kind.HANG_BEFORE_COMMIT, born);
    }
    Answer sent = kind == Fault.Kind.FAIL_AFTER_COMMIT ? faulty(fault) : result.answer();
    if (generation.get() != born) {
      return respond(call, sent, false); // held across a reset: the new state never sees it
    }
    journal.received(
        new Received(
            operation,
            call.path(),
            result.key(),
            result.params(),
            sent.status(),
            result.replayed() && sent == result.answer(),
            fault),
        identity(call, result.params()));
    if (kind == Fault.Kind.LOSE_ANSWER) {
      // Closing the socket before the status line: the client reads an unexpected end of stream.
      return new MockResponse.Builder().onResponseStart(new SocketEffect.CloseSocket()).build();
    }
    if (kind == Fault.Kind.HANG) {
      holds.hold();
    }
    return respond(call, sent, result.replayed() && sent == result.answer());
  }

  private Result refusedByFault(Call call, Fault fault) {
    String key = null;
    Map<String, Object> params = Map.of();
    try {
      Map<String, Object> p = shape.params(call);
      key = takeKey(call, p);
      params = p;
    } catch (Refused e) {
      // an unreadable request: recorded without its parameters
    }
    return new Result(faulty(fault), key, params, false);
  }

  private Answer faulty(Fault fault) {
    Answer a =
        fault.kind() == Fault.Kind.RATE_LIMIT
            ? shape.rateLimited(fault.retryAfter())
            : shape.failed(fault.status());
    return fault.retryAfter() == null
        ? a
        : a.withHeader("Retry-After", Shape.seconds(fault.retryAfter()));
  }

  private Result process(
      Call call,
      String operation,
      Route route,
      Map<String, String> vars,
      boolean holdFirst,
      long born) {
    Answer refused = shape.checkHeaders(call);
    if (refused == null && call.bodySize() > Call.MAX_BODY) {
      refused = shape.invalid("Request bodies are limited to " + Call.MAX_BODY + " bytes.", null);
    }
    if (refused != null) {
      return new Result(refused, null, Map.of(), false);
    }
    Map<String, Object> params;
    String key;
    try {
      params = shape.params(call);
      String raw = takeKey(call, params);
      key = raw == null ? null : shape.key(raw);
    } catch (Refused e) {
      return new Result(e.answer, null, Map.of(), false);
    }
    if (key == null && requireKey && call.isWrite()) {
      String where =
          keyLocation.header() != null
              ? "header " + keyLocation.header()
              : "body field " + keyLocation.bodyField();
      return new Result(
          shape.invalid("Missing idempotency key (" + where + ").", null), null, params, false);
    }
    if (route == null) {
      return new Result(shape.unknownRoute(call.method(), call.path()), key, params, false);
    }
    ApiRequest request =
        new ApiRequest(
            call.method(),
            call.path(),
            vars,
            params,
            call.body().length > 0,
            shape.account(call),
            key);
    if (key == null || !call.isWrite()) {
      if (holdFirst && !holdUntilReleased(born)) {
        return new Result(shape.failed(503), key, params, false);
      }
      return new Result(run(call, operation, route, request), key, params, false);
    }
    String scope = shape.credential(call) + '\u0000' + key;
    String fingerprint =
        identity(call, params) + '\n' + call.rawQuery() + '\n' + shape.identity(call);
    Keys.Decision d = keys.begin(scope, fingerprint, clock.instant(), retention);
    switch (d.kind()) {
      case MISMATCH:
        return new Result(shape.keyReused(), key, params, false);
      case BUSY:
        return new Result(shape.inProgress(), key, params, false);
      case REPLAY:
        return new Result(d.stored(), key, params, true);
      default:
        try {
          if (holdFirst && !holdUntilReleased(born)) {
            keys.release(d.claim());
            return new Result(shape.failed(503), key, params, false);
          }
          Answer answer = run(call, operation, route, request);
          keys.complete(d.claim(), answer);
          return new Result(answer, key, params, false);
        } catch (RuntimeException e) {
          keys.release(d.claim());
          throw e;
        }
    }
  }

  /** Holds the request; false when a reset or close released it: then it must do nothing. */
  private boolean holdUntilReleased(long born) {
    holds.hold();
    return generation.get() == born;
  }

  /** Runs the endpoint and records the effect of a write that was carried out. */
  private Answer run(Call call, String operation, Route route, ApiRequest request) {
    Answer answer;
    try {
      answer = route.endpoint().handle(request);
    } catch (Refused e) {
      answer = e.answer;
    } catch (IllegalArgumentException e) {
      answer = shape.invalid(String.valueOf(e.getMessage()), null);
    } catch (RuntimeException e) {
      answer = shape.internalError();
    }
    if (answer.executed() && call.isWrite()) {
      journal.effect(
          new Effect(operation, call.path(), request.key(), answer.objectId(), request.params()),
          identity(call, request.params()));
    }
    return answer;
  }

  /** What makes two requests the same request: method, path, account and parameters. */
  private String identity(Call call, Map<String, Object> params) {
    String account = shape.checkHeaders(call) == null ? shape.account(call) : "";
    return call.method() + ' ' + call.path() + '\n' + account + '\n' + Values.canonical(params);
  }

  /** Removes and returns the key from where it is configured to be, or null. */
  private String takeKey(Call call, Map<String, Object> params) {
    if (keyLocation.header() != null) {
      return call.header(keyLocation.header());
    }
    Object value = params.remove(keyLocation.bodyField());
    return value == null ? null : String.valueOf(value);
  }

  private MockResponse respond(Call call, Answer answer, boolean replayed) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", "application/json");
    headers.putAll(answer.headers());
    shape.decorate(call, headers, requestIds);
    if (replayed) {
      headers.put("Idempotent-Replayed", "true");
    }
    MockResponse.Builder b = new MockResponse.Builder().code(answer.status());
    headers.forEach(b::setHeader);
    return b.body(new okio.Buffer().write(answer.body())).build();
  }

  /** Forgets every key, request, effect, object and armed fault; lets every held request go. */
  void reset() {
    generation.incrementAndGet();
    faults.clear();
    holds.releaseAll();
    keys.clear();
    journal.clear();
    requestIds.reset();
    resetState.run();
  }

  /** Lets every held request go, without doing its work. */
  @Override
  public void close() {
    generation.incrementAndGet();
    holds.releaseAll();
  }
}
