package dev.saferetry.generator;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.TypeSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** A generated type that inline schemas nest in: it hands out their names and collects them. */
final class Owner {
  // Names generated code uses unqualified: a nested type of the same name would shadow them.
  private static final Set<String> TAKEN =
      Set.of(
          "Builder",
          "Unknown",
          "Object",
          "String",
          "Long",
          "Integer",
          "Boolean",
          "Void",
          "Override",
          "Map",
          "List",
          "Entry",
          "Objects",
          "Collections",
          "LinkedHashMap",
          "ArrayList",
          "BigDecimal",
          "CompletableFuture",
          "Class",
          "Record",
          "Enum",
          "Number");

  private final ClassName name;
  private final Set<String> used = new HashSet<>();
  // TypeSpec, or TypeSpec.Builder for a record that a union may still make implement it.
  private final List<Object> nested = new ArrayList<>();

  Owner(ClassName name) {
    this.name = name;
    used.add(name.simpleName());
    used.addAll(TAKEN);
    for (ClassName c = name.enclosingClassName(); c != null; c = c.enclosingClassName()) {
      used.add(c.simpleName());
    }
  }

  ClassName name() {
    return name;
  }

  /** Reserves a nested name derived from {@code hint}, unique in this type and its enclosers. */
  ClassName nestedName(String hint) {
    String base = Names.type(hint);
    if (TAKEN.contains(base)) {
      base = base + "Value";
    }
    String candidate = base;
    for (int i = 2; used.contains(candidate); i++) {
      candidate = base + i;
    }
    used.add(candidate);
    return name.nestedClass(candidate);
  }

  void add(TypeSpec spec) {
    nested.add(spec);
  }

  void addRecord(TypeSpec.Builder record) {
    nested.add(record);
  }

  /** Makes the nested record {@code simpleName} implement {@code union}; false if none. */
  boolean implement(String simpleName, ClassName union) {
    for (Object o : nested) {
      if (o instanceof TypeSpec.Builder b && b.build().name().equals(simpleName)) {
        b.addSuperinterface(union);
        return true;
      }
    }
    return false;
  }

  /** {@return the nested types, in the order they were written} */
  List<TypeSpec> nested() {
    List<TypeSpec> all = new ArrayList<>();
    for (Object o : nested) {
      all.add(o instanceof TypeSpec.Builder b ? b.build() : (TypeSpec) o);
    }
    return all;
  }
}
