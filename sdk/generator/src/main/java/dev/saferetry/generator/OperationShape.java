package dev.saferetry.generator;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.TypeName;
import java.util.List;

/** One operation as the generator writes it. */
record OperationShape(
    String id,
    String method,
    String path,
    String group,
    String javaName,
    String summary,
    List<PathParam> pathParams,
    ClassName query,
    TypeName body,
    boolean form,
    TypeName response,
    KeyRules.Decision key,
    Paging paging) {

  record PathParam(String name, String member) {}

  /** How a list operation pages: none, after the last item's id, or by a next cursor. */
  record Paging(
      String style,
      TypeName item,
      String itemsMember,
      String moreMember,
      String idMember,
      String cursorMember,
      String parameter) {}
}
