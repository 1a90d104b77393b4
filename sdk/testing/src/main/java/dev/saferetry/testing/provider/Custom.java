package dev.saferetry.testing.provider;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/** An endpoint a user added with {@link FakeProvider.Builder#endpoint}. */
final class Custom {
  private Custom() {}

  static Route route(String operation, Function<Map<String, Object>, Map<String, Object>> handler) {
    return Route.of(
        operation,
        request -> {
          Map<String, Object> params = Values.copy(request.params());
          request.variables().forEach(params::putIfAbsent);
          Map<String, Object> body = handler.apply(params);
          if (body == null) {
            throw new IllegalStateException("the endpoint returned null");
          }
          Object id = body.get("id");
          Map<String, Object> copy = new LinkedHashMap<>(body);
          return request.method().equals("GET") || request.method().equals("HEAD")
              ? Answer.read(copy)
              : Answer.done(200, copy, id instanceof String s ? s : null);
        });
  }
}
