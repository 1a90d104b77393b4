package dev.saferetry.generator;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Plans each operation: its resource (its first tag, else its path's first segment after a
 * version), its method name (REST verbs for a collection and an item, else the words after the last
 * path variable; the operation id when two would collide), its types, key and paging.
 */
final class Operations {
  private static final Pattern VERSION = Pattern.compile("v\\d+(\\.\\d+)*");
  private static final List<String> CURSOR_FIELDS =
      List.of(
          "next_page", "next_cursor", "nextCursor", "next_page_token", "nextPageToken", "cursor");
  private static final List<String> CURSOR_PARAMS =
      List.of("page", "cursor", "page_token", "pageToken", "next_page", "starting_after");
  private static final List<String> LINK_FIELDS =
      List.of("next", "next_url", "nextUrl", "next_link", "nextLink");
  private static final Set<String> TAKEN = Set.of("request", "query", "options", "client");

  private final Models models;
  private final KeyRules keys;
  private final OpenAPI api;

  Operations(Models models, KeyRules keys, OpenAPI api) {
    this.models = models;
    this.keys = keys;
    this.api = api;
  }

  /** {@return the resource and method name of every operation, unique within a resource} */
  Map<Generator.Found, String[]> plan(List<Generator.Found> ops) {
    Map<Generator.Found, String[]> plan = new LinkedHashMap<>();
    Map<String, Map<String, Integer>> counts = new HashMap<>();
    for (Generator.Found f : ops) {
      String group = group(f);
      String name = verb(f, group);
      plan.put(f, new String[] {group, name});
      counts.computeIfAbsent(group, g -> new HashMap<>()).merge(name, 1, Integer::sum);
    }
    Map<String, java.util.Set<String>> used = new HashMap<>();
    for (Map.Entry<Generator.Found, String[]> e : plan.entrySet()) {
      String[] gn = e.getValue();
      Generator.Found f = e.getKey();
      if (counts.get(gn[0]).get(gn[1]) > 1) {
        gn[1] =
            f.op().getOperationId() != null
                ? Names.member(f.op().getOperationId())
                : Names.member(f.method().toLowerCase(java.util.Locale.ROOT) + "_" + f.path());
      }
      java.util.Set<String> u = used.computeIfAbsent(gn[0], g -> new java.util.HashSet<>());
      String n = gn[1];
      for (int i = 2; !u.add(n); i++) {
        n = gn[1] + i;
      }
      gn[1] = n;
    }
    return plan;
  }

  private static String group(Generator.Found f) {
    if (f.op().getTags() != null && !f.op().getTags().isEmpty()) {
      return f.op().getTags().get(0);
    }
    for (String seg : f.path().split("/")) {
      if (!seg.isEmpty() && !seg.startsWith("{") && !VERSION.matcher(seg).matches()) {
        return seg;
      }
    }
    return "root";
  }

  private static String verb(Generator.Found f, String group) {
    List<String> segs = new ArrayList<>();
    for (String seg : f.path().split("/")) {
      if (!seg.isEmpty() && !VERSION.matcher(seg).matches()) {
        segs.add(seg);
      }
    }
    if (!segs.isEmpty() && Names.type(segs.get(0)).equals(Names.type(group))) {
      segs.remove(0);
    }
    int lastVar = -1;
    for (int i = 0; i < segs.size(); i++) {
      if (segs.get(i).startsWith("{")) {
        lastVar = i;
      }
    }
    List<String> words = segs.subList(lastVar + 1, segs.size());
    String m = f.method();
    if (words.isEmpty()) {
      boolean item = lastVar >= 0;
      switch (m) {
        case "GET":
          return item ? "retrieve" : "list";
        case "POST":
          return item ? "update" : "create";
        case "PUT":
        case "PATCH":
          return "update";
        case "DELETE":
          return "delete";
        default:
          return Names.member(m.toLowerCase(java.util.Locale.ROOT));
      }
    }
    String joined = Names.member(String.join("_", words));
    return m.equals("DELETE") ? Names.member("delete_" + String.join("_", words)) : joined;
  }

  OperationShape shape(Generator.Found f, String group, String name) {
    List<Parameter> params = Generator.parameters(api, f.item(), f.op());
    String base = group + "_" + name;
    List<OperationShape.PathParam> pathParams = new ArrayList<>();
    List<Parameter> query = new ArrayList<>();
    java.util.Set<String> members = new java.util.HashSet<>(TAKEN);
    for (Parameter p : params) {
      if ("path".equals(p.getIn())) {
        String member = Names.member(p.getName());
        while (!members.add(member)) {
          member = member + "_";
        }
        pathParams.add(new OperationShape.PathParam(p.getName(), member));
      } else if ("query".equals(p.getIn())) {
        query.add(p);
      }
    }
    // In the template's order: the method's parameters read as the path does.
    pathParams.sort(java.util.Comparator.comparingInt(p -> f.path().indexOf("{" + p.name() + "}")));
    ClassName queryType = null;
    if (!query.isEmpty()) {
      queryType = models.newTopName(base + "_query");
      models.addTopLevel(
          Queries.write(models, queryType, query, "{@code " + f.method() + " " + f.path() + "}"));
    }
    Map.Entry<Schema<?>, Boolean> body =
        "GET".equals(f.method()) ? null : Generator.body(f.op(), api);
    TypeName bodyType = null;
    Schema<?> bodySchema = null;
    boolean form = false;
    if (body != null && body.getKey() != null) {
      bodySchema = models.resolve(body.getKey());
      if (bodySchema != null && bodySchema.getAllOf() != null) {
        bodySchema = models.merged(bodySchema);
      }
      form = body.getValue();
      bodyType = models.typeOf(body.getKey(), null, base + "_request", true);
    }
    Schema<?> responseSchema = Generator.response(api, f.op());
    TypeName response =
        responseSchema == null
            ? ClassName.get(Void.class)
            : models.typeOf(responseSchema, null, base + "_response", false).box();
    KeyRules.Decision key = keys.decide(f.method(), f.path(), f.op(), params, bodySchema);
    OperationShape.Paging paging = "GET".equals(f.method()) ? paging(response, query) : null;
    String summary = f.op().getSummary() != null ? f.op().getSummary() : f.op().getDescription();
    return new OperationShape(
        f.op().getOperationId(),
        f.method(),
        f.path(),
        group,
        name,
        summary,
        pathParams,
        queryType,
        bodyType,
        form,
        response,
        key,
        paging);
  }

  private OperationShape.Paging paging(TypeName response, List<Parameter> query) {
    RecordShape page = models.record(response);
    if (page == null) {
      return null;
    }
    RecordShape.Property items = page.byJson("data");
    if (items == null) {
      for (RecordShape.Property p : page.properties()) {
        if (isList(p.type()) && !p.json().equals("errors")) {
          if (items != null) {
            return null; // two lists: which one pages is not clear
          }
          items = p;
        }
      }
    }
    if (items == null || !isList(items.type())) {
      return null;
    }
    TypeName item = ((ParameterizedTypeName) items.type()).typeArguments().get(0);
    List<String> names = query.stream().map(Parameter::getName).toList();
    RecordShape.Property more = page.byJson("has_more");
    RecordShape itemShape = models.record(item);
    RecordShape.Property id = itemShape == null ? null : itemShape.byJson("id");
    if (more != null
        && id != null
        && id.type().equals(ClassName.get(String.class))
        && names.contains("starting_after")) {
      return new OperationShape.Paging(
          "after", item, items.member(), more.member(), id.member(), null, "starting_after");
    }
    for (String c : CURSOR_FIELDS) {
      RecordShape.Property cursor = page.byJson(c);
      if (cursor != null && cursor.type().equals(ClassName.get(String.class))) {
        for (String param : CURSOR_PARAMS) {
          if (names.contains(param)) {
            return new OperationShape.Paging(
                "cursor", item, items.member(), null, null, cursor.member(), param);
          }
        }
      }
    }
    for (String l : LINK_FIELDS) {
      RecordShape.Property link = page.byJson(l);
      if (link != null && link.type().equals(ClassName.get(String.class))) {
        return new OperationShape.Paging(
            "link", item, items.member(), null, null, link.member(), null);
      }
    }
    return null;
  }

  private static boolean isList(TypeName t) {
    return t instanceof ParameterizedTypeName pt && pt.rawType().equals(ClassName.get(List.class));
  }
}
