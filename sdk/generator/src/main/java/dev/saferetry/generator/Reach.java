package dev.saferetry.generator;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which component schemas only requests use: their optional fields that can be cleared become
 * tri-state ({@code FieldValue}), and their key fields are left to SafeRetry. A schema a response
 * also uses stays plain, so that reading it never needs to tell absent from null.
 */
final class Reach {
  private Reach() {}

  static Set<String> requestOnly(OpenAPI api, List<Generator.Found> ops) {
    Set<String> sent = new HashSet<>();
    Set<String> read = new HashSet<>();
    for (Generator.Found f : ops) {
      Map.Entry<Schema<?>, Boolean> body = Generator.body(f.op(), api);
      if (body != null) {
        walk(api, body.getKey(), sent);
      }
      for (Parameter p : Generator.parameters(api, f.item(), f.op())) {
        walk(api, p.getSchema(), sent);
      }
      walk(api, Generator.response(api, f.op()), read);
    }
    sent.removeAll(read);
    return sent;
  }

  @SuppressWarnings({"rawtypes", "unchecked"})
  private static void walk(OpenAPI api, Schema<?> root, Set<String> into) {
    Map<String, Schema> components =
        api.getComponents() == null || api.getComponents().getSchemas() == null
            ? Map.of()
            : api.getComponents().getSchemas();
    Deque<Schema<?>> todo = new ArrayDeque<>();
    Set<Schema<?>> visited = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    if (root != null) {
      todo.push(root);
    }
    while (!todo.isEmpty()) {
      Schema<?> s = todo.pop();
      if (!visited.add(s)) {
        continue;
      }
      String ref = SchemaKind.refName(s);
      if (ref != null) {
        if (into.add(ref) && components.get(ref) != null) {
          todo.push(components.get(ref));
        }
        continue;
      }
      if (s.getProperties() != null) {
        ((Map<String, Schema>) (Map) s.getProperties()).values().forEach(v -> todo.push(v));
      }
      if (s.getItems() != null) {
        todo.push(s.getItems());
      }
      if (s.getAdditionalProperties() instanceof Schema<?> a) {
        todo.push(a);
      }
      for (List l : new List[] {s.getAllOf(), s.getOneOf(), s.getAnyOf()}) {
        if (l != null) {
          ((List<Schema<?>>) l).forEach(todo::push);
        }
      }
    }
  }
}
