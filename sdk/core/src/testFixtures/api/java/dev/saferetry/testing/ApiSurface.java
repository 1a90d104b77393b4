package dev.saferetry.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The public surface of one artifact, written one declaration per line: every public type of an
 * exported package (nested public types included) and each of its public or protected members. The
 * artifact's checked-in {@code api/<artifact>.api} file holds the accepted surface; a test compares
 * the two so that the surface never changes without that file changing in the same commit.
 */
public final class ApiSurface {
  /** The system property that makes {@link #check} rewrite the file instead of failing. */
  public static final String UPDATE_PROPERTY = "saferetry.api.update";

  private final List<Class<?>> types;
  private final List<String> lines;

  private ApiSurface(List<Class<?>> types, List<String> lines) {
    this.types = types;
    this.lines = lines;
  }

  /**
   * Reads the surface of the compiled classes in {@code classes} (a module's output directory). The
   * exported packages come from its {@code module-info.class}.
   *
   * @param classes the module's class output directory, e.g. {@code target/classes}
   * @param loader loads the module's classes
   * @return the surface
   */
  public static ApiSurface of(Path classes, ClassLoader loader) {
    Set<String> exported = exportedPackages(classes);
    List<Class<?>> types = new ArrayList<>();
    for (String name : classNames(classes, exported)) {
      Class<?> type;
      try {
        type = Class.forName(name, false, loader);
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException("cannot load " + name, e);
      }
      if (visible(type)) {
        types.add(type);
      }
    }
    types.sort((a, b) -> a.getName().compareTo(b.getName()));
    List<String> lines = new ArrayList<>();
    for (Class<?> type : types) {
      lines.add(describe(type));
      TreeSet<String> members = new TreeSet<>();
      for (Field f : type.getDeclaredFields()) {
        if (api(f) && !f.isSynthetic()) {
          members.add("  " + f.toGenericString());
        }
      }
      for (Constructor<?> c : type.getDeclaredConstructors()) {
        if (api(c) && !c.isSynthetic() && !type.isEnum()) {
          members.add("  " + c.toGenericString());
        }
      }
      for (Method m : type.getDeclaredMethods()) {
        if (api(m) && !m.isSynthetic() && !m.isBridge()) {
          members.add("  " + m.toGenericString());
        }
      }
      for (Method m : type.getDeclaredMethods()) {
        if (m.isBridge() && Modifier.isPublic(m.getModifiers()) && !overridden(type, m)) {
          // a public method inherited from a superclass users cannot name
          members.add("  " + m.toGenericString().replace("volatile ", ""));
        }
      }
      lines.addAll(members);
    }
    return new ApiSurface(List.copyOf(types), List.copyOf(lines));
  }

  /** {@return the public types, nested ones included, in name order} */
  public List<Class<?>> types() {
    return types;
  }

  /** {@return the surface as the text of an {@code .api} file} */
  public String text() {
    return String.join("\n", lines) + "\n";
  }

  /**
   * Compares this surface with the accepted one in {@code file}. With the system property {@value
   * #UPDATE_PROPERTY} set to {@code true} the file is rewritten instead.
   *
   * @param file the checked-in {@code .api} file
   * @throws AssertionError naming the added and removed lines when the two differ
   */
  public void check(Path file) {
    String actual = text();
    try {
      if (Boolean.getBoolean(UPDATE_PROPERTY)) {
        Files.createDirectories(file.getParent());
        Files.writeString(file, actual, StandardCharsets.UTF_8);
        return;
      }
      if (!Files.exists(file)) {
        throw new AssertionError("no accepted API file at " + file + "; " + howToAccept());
      }
      String expected = Files.readString(file, StandardCharsets.UTF_8);
      if (!expected.equals(actual)) {
        List<String> was = expected.lines().collect(Collectors.toList());
        List<String> now = actual.lines().collect(Collectors.toList());
        StringBuilder diff = new StringBuilder("the public API differs from " + file + ":\n");
        now.stream().filter(l -> !was.contains(l)).forEach(l -> diff.append("+ " + l + "\n"));
        was.stream().filter(l -> !now.contains(l)).forEach(l -> diff.append("- " + l + "\n"));
        throw new AssertionError(diff + howToAccept());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String howToAccept() {
    return "if the change is intended, run the test with -D"
        + UPDATE_PROPERTY
        + "=true and commit the rewritten file with the change";
  }

  private static Set<String> exportedPackages(Path classes) {
    Set<ModuleReference> found = ModuleFinder.of(classes).findAll();
    if (found.size() != 1) {
      throw new IllegalStateException("no module-info.class under " + classes);
    }
    ModuleDescriptor descriptor = found.iterator().next().descriptor();
    return descriptor.exports().stream()
        .filter(e -> !e.isQualified())
        .map(ModuleDescriptor.Exports::source)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static List<String> classNames(Path classes, Set<String> packages) {
    List<String> names = new ArrayList<>();
    for (String pkg : packages) {
      Path dir = classes.resolve(pkg.replace('.', '/'));
      try (Stream<Path> files = Files.list(dir)) {
        files
            .map(p -> p.getFileName().toString())
            .filter(n -> n.endsWith(".class") && !n.equals("package-info.class"))
            .map(n -> pkg + "." + n.substring(0, n.length() - ".class".length()))
            .forEach(names::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return names;
  }

  private static boolean visible(Class<?> type) {
    for (Class<?> t = type; t != null; t = t.getEnclosingClass()) {
      if (t.isAnonymousClass() || t.isLocalClass() || t.isSynthetic()) {
        return false;
      }
      int m = t.getModifiers();
      boolean nested = t.getEnclosingClass() != null;
      if (!Modifier.isPublic(m) && !(nested && Modifier.isProtected(m))) {
        return false;
      }
    }
    return true;
  }

  private static boolean overridden(Class<?> type, Method bridge) {
    for (Method m : type.getDeclaredMethods()) {
      if (!m.isBridge()
          && m.getName().equals(bridge.getName())
          && m.getParameterCount() == bridge.getParameterCount()) {
        return true;
      }
    }
    return false;
  }

  private static boolean api(Member member) {
    int m = member.getModifiers();
    if (Modifier.isPublic(m)) {
      return true;
    }
    return Modifier.isProtected(m) && !Modifier.isFinal(member.getDeclaringClass().getModifiers());
  }

  private static String describe(Class<?> type) {
    int shown = type.getModifiers() & ~(Modifier.STATIC | Modifier.INTERFACE | Modifier.ABSTRACT);
    StringBuilder s = new StringBuilder(Modifier.toString(shown));
    if (s.length() > 0) {
      s.append(' ');
    }
    if (type.isAnnotation()) {
      s.append("@interface ");
    } else if (type.isInterface()) {
      s.append("interface ");
    } else if (type.isEnum()) {
      s.append("enum ");
    } else if (type.isRecord()) {
      s.append("record ");
    } else {
      s.append(Modifier.isAbstract(type.getModifiers()) ? "abstract class " : "class ");
    }
    s.append(type.getTypeName());
    if (type.getTypeParameters().length > 0) {
      s.append(
          Stream.of(type.getTypeParameters())
              .map(Object::toString)
              .collect(Collectors.joining(", ", "<", ">")));
    }
    Class<?> sup = type.getSuperclass();
    if (sup != null && sup != Object.class && sup != Enum.class && sup != Record.class) {
      s.append(" extends ").append(type.getGenericSuperclass().getTypeName());
    }
    if (type.getGenericInterfaces().length > 0) {
      s.append(type.isInterface() ? " extends " : " implements ");
      s.append(
          Stream.of(type.getGenericInterfaces())
              .map(java.lang.reflect.Type::getTypeName)
              .collect(Collectors.joining(", ")));
    }
    if (type.isSealed()) {
      s.append(" permits ")
          .append(
              Stream.of(type.getPermittedSubclasses())
                  .map(Class::getName)
                  .collect(Collectors.joining(", ")));
    }
    return s.toString();
  }
}
