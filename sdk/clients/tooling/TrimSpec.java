import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Trims a provider's published OpenAPI document (JSON) to the operations a typed client needs and
 * the components they reach, transitively. Needs only the JDK:
 *
 * <pre>
 * java sdk/clients/tooling/TrimSpec.java FULL_SPEC.json OPERATIONS.txt TRIMMED.json
 * </pre>
 *
 * OPERATIONS.txt lists one {@code METHOD /path} a line ({@code #} starts a comment). Every listed
 * operation must exist in the document, or the program fails naming it. The output keeps the
 * source's order of keys, so a rerun on the same input is byte-identical; {@code info},
 * {@code servers}, {@code security} and every security scheme are kept as they are.
 */
public final class TrimSpec {
  private TrimSpec() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      System.err.println("usage: java TrimSpec.java FULL_SPEC.json OPERATIONS.txt TRIMMED.json");
      System.exit(2);
    }
    Object spec = new Reader(Files.readString(Path.of(args[0]), StandardCharsets.UTF_8)).document();
    List<String> operations = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of(args[1]), StandardCharsets.UTF_8)) {
      String op = line.replaceFirst("#.*", "").strip();
      if (!op.isEmpty()) {
        operations.add(op);
      }
    }
    Map<String, Object> trimmed = trim(object(spec), operations);
    StringBuilder out = new StringBuilder();
    write(trimmed, 0, out);
    out.append('\n');
    Files.writeString(Path.of(args[2]), out, StandardCharsets.UTF_8);
    System.out.println(
        "kept " + operations.size() + " operations and "
            + count(object(trimmed.get("components"))) + " components");
  }

  static Map<String, Object> trim(Map<String, Object> spec, List<String> operations) {
    Map<String, Object> allPaths = object(spec.get("paths"));
    Map<String, Object> paths = new LinkedHashMap<>();
    Set<String> wanted = new LinkedHashSet<>();
    for (String op : operations) {
      String[] parts = op.split("\\s+", 2);
      String method = parts[0].toLowerCase(Locale.ROOT);
      Map<String, Object> item = object(allPaths.get(parts.length == 2 ? parts[1] : ""));
      if (item == null || !item.containsKey(method)) {
        throw new IllegalArgumentException("operation not in the document: " + op);
      }
      wanted.add(parts[1] + ' ' + method);
    }
    for (Map.Entry<String, Object> path : allPaths.entrySet()) {
      Map<String, Object> item = new LinkedHashMap<>();
      for (Map.Entry<String, Object> entry : object(path.getValue()).entrySet()) {
        boolean isMethod =
            List.of("get", "put", "post", "delete", "options", "head", "patch", "trace")
                .contains(entry.getKey());
        if (!isMethod || wanted.contains(path.getKey() + ' ' + entry.getKey())) {
          item.put(entry.getKey(), entry.getValue());
        }
      }
      if (item.keySet().stream().anyMatch(k -> wanted.contains(path.getKey() + ' ' + k))) {
        paths.put(path.getKey(), item);
      }
    }
    Map<String, Object> components = object(spec.get("components"));
    Set<String> reached = reach(paths, components);
    Map<String, Object> keptComponents = new LinkedHashMap<>();
    for (Map.Entry<String, Object> kind : components.entrySet()) {
      Map<String, Object> kept = new LinkedHashMap<>();
      for (Map.Entry<String, Object> entry : object(kind.getValue()).entrySet()) {
        String ref = "#/components/" + kind.getKey() + "/" + entry.getKey();
        if (kind.getKey().equals("securitySchemes") || reached.contains(ref)) {
          kept.put(entry.getKey(), entry.getValue());
        }
      }
      if (!kept.isEmpty()) {
        keptComponents.put(kind.getKey(), kept);
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<String, Object> entry : spec.entrySet()) {
      switch (entry.getKey()) {
        case "paths" -> out.put("paths", paths);
        case "components" -> out.put("components", keptComponents);
        case "webhooks", "x-webhooks" -> { } // not operations a client calls
        default -> out.put(entry.getKey(), entry.getValue());
      }
    }
    return out;
  }

  /** Every {@code #/components/...} reference reachable from the kept paths. */
  private static Set<String> reach(Object root, Map<String, Object> components) {
    Set<String> reached = new LinkedHashSet<>();
    Deque<Object> todo = new ArrayDeque<>();
    todo.push(root);
    while (!todo.isEmpty()) {
      Object node = todo.pop();
      if (node instanceof Map<?, ?> map) {
        for (Map.Entry<?, ?> entry : map.entrySet()) {
          if ("$ref".equals(entry.getKey()) && entry.getValue() instanceof String ref) {
            if (ref.startsWith("#/components/") && reached.add(ref)) {
              String[] parts = ref.substring("#/components/".length()).split("/", 2);
              Object target = object(components.get(parts[0])).get(parts[1]);
              if (target == null) {
                throw new IllegalArgumentException("dangling reference: " + ref);
              }
              todo.push(target);
            }
          } else {
            todo.push(entry.getValue());
          }
        }
      } else if (node instanceof List<?> list) {
        list.forEach(todo::push);
      }
    }
    return reached;
  }

  private static int count(Map<String, Object> components) {
    int n = 0;
    for (Object kind : components.values()) {
      n += object(kind).size();
    }
    return n;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Object node) {
    return node == null ? Map.of() : (Map<String, Object>) node;
  }

  /** Pretty-printed with two spaces, keys in their source order, numbers as written. */
  private static void write(Object node, int depth, StringBuilder out) {
    String indent = "  ".repeat(depth + 1);
    if (node instanceof Map<?, ?> map) {
      if (map.isEmpty()) {
        out.append("{}");
        return;
      }
      out.append("{\n");
      int i = 0;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        out.append(indent);
        string((String) entry.getKey(), out);
        out.append(": ");
        write(entry.getValue(), depth + 1, out);
        out.append(++i < map.size() ? ",\n" : "\n");
      }
      out.append("  ".repeat(depth)).append('}');
    } else if (node instanceof List<?> list) {
      if (list.isEmpty()) {
        out.append("[]");
        return;
      }
      out.append("[\n");
      for (int i = 0; i < list.size(); i++) {
        out.append(indent);
        write(list.get(i), depth + 1, out);
        out.append(i + 1 < list.size() ? ",\n" : "\n");
      }
      out.append("  ".repeat(depth)).append(']');
    } else if (node instanceof String s) {
      string(s, out);
    } else {
      out.append(node); // Number (its source text), Boolean or the null literal
    }
  }

  private static void string(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  /** A strict JSON reader; numbers keep their source text, so nothing is rounded. */
  private static final class Reader {
    private final String text;
    private int pos;

    Reader(String text) {
      this.text = text;
    }

    Object document() {
      Object value = value();
      skipSpace();
      if (pos != text.length()) {
        throw error("trailing content");
      }
      return value;
    }

    private Object value() {
      skipSpace();
      if (pos >= text.length()) {
        throw error("unexpected end");
      }
      char c = text.charAt(pos);
      switch (c) {
        case '{':
          return objectValue();
        case '[':
          return arrayValue();
        case '"':
          return stringValue();
        default:
          return literal();
      }
    }

    private Map<String, Object> objectValue() {
      Map<String, Object> map = new LinkedHashMap<>();
      pos++;
      skipSpace();
      if (peek() == '}') {
        pos++;
        return map;
      }
      while (true) {
        skipSpace();
        String key = stringValue();
        skipSpace();
        expect(':');
        map.put(key, value());
        skipSpace();
        if (peek() == ',') {
          pos++;
        } else {
          expect('}');
          return map;
        }
      }
    }

    private List<Object> arrayValue() {
      List<Object> list = new ArrayList<>();
      pos++;
      skipSpace();
      if (peek() == ']') {
        pos++;
        return list;
      }
      while (true) {
        list.add(value());
        skipSpace();
        if (peek() == ',') {
          pos++;
        } else {
          expect(']');
          return list;
        }
      }
    }

    private String stringValue() {
      expect('"');
      StringBuilder sb = new StringBuilder();
      while (true) {
        char c = text.charAt(pos++);
        if (c == '"') {
          return sb.toString();
        }
        if (c != '\\') {
          sb.append(c);
          continue;
        }
        char e = text.charAt(pos++);
        switch (e) {
          case 'n' -> sb.append('\n');
          case 't' -> sb.append('\t');
          case 'r' -> sb.append('\r');
          case 'b' -> sb.append('\b');
          case 'f' -> sb.append('\f');
          case 'u' -> {
            sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
            pos += 4;
          }
          default -> sb.append(e); // '"', '\\', '/'
        }
      }
    }

    private Object literal() {
      int start = pos;
      while (pos < text.length() && "{}[],: \t\r\n".indexOf(text.charAt(pos)) < 0) {
        pos++;
      }
      String word = text.substring(start, pos);
      switch (word) {
        case "true":
          return Boolean.TRUE;
        case "false":
          return Boolean.FALSE;
        case "null":
          return new Raw("null");
        default:
          if (!word.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
            throw error("bad literal '" + word + "'");
          }
          return new Raw(word);
      }
    }

    private char peek() {
      return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private void expect(char c) {
      if (peek() != c) {
        throw error("expected '" + c + "'");
      }
      pos++;
    }

    private void skipSpace() {
      while (pos < text.length() && " \t\r\n".indexOf(text.charAt(pos)) >= 0) {
        pos++;
      }
    }

    private IllegalArgumentException error(String what) {
      return new IllegalArgumentException(what + " at offset " + pos);
    }
  }

  /** A number or the null literal, written back exactly as read. */
  private record Raw(String text) {
    @Override
    public String toString() {
      return text;
    }
  }
}
