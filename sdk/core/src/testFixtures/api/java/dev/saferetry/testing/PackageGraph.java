package dev.saferetry.testing;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which package of compiled classes uses which, read from the class files' constant pools: every
 * class a class file names — in a reference, a field or method descriptor or a generic signature,
 * as {@code jdeps} counts them — puts an edge from the class's package to that class's package.
 * Comments leave no trace in a class file, so only code counts. {@link #ofFiles} draws the same
 * graph between source files instead (a top-level class with its nested ones). Immutable.
 */
public final class PackageGraph {
  /** A class name as a class file writes it, e.g. {@code dev/saferetry/error/Reason}. */
  private static final Pattern CLASS =
      Pattern.compile("dev/saferetry/(?:[a-z_]\\w*/)*[A-Z][\\w$]*");

  private final Map<String, Set<String>> uses;

  private PackageGraph(Map<String, Set<String>> uses) {
    this.uses = uses;
  }

  /**
   * Reads every class file below {@code classes} (a compiler's output directory).
   *
   * @throws IOException if a class file cannot be read or is not one
   */
  public static PackageGraph of(Path classes) throws IOException {
    return read(classes, PackageGraph::packageOf);
  }

  /**
   * Reads every class file below {@code classes} into a graph of source files: each node is a
   * top-level class, e.g. {@code dev.saferetry.RealCall}, standing for its nested classes too.
   *
   * @throws IOException if a class file cannot be read or is not one
   */
  public static PackageGraph ofFiles(Path classes) throws IOException {
    return read(classes, PackageGraph::fileOf);
  }

  private static PackageGraph read(Path classes, Function<String, String> node) throws IOException {
    Map<String, Set<String>> uses = new TreeMap<>();
    List<Path> files;
    try (Stream<Path> walk = Files.walk(classes)) {
      files = walk.filter(p -> p.toString().endsWith(".class")).sorted().toList();
    }
    for (Path file : files) {
      String name = classes.relativize(file).toString().replace('\\', '/');
      if (name.endsWith("module-info.class") || name.endsWith("package-info.class")) {
        continue;
      }
      String from = node.apply(name);
      Set<String> to = uses.computeIfAbsent(from, p -> new TreeSet<>());
      try (InputStream in = Files.newInputStream(file)) {
        for (String text : utf8Constants(new DataInputStream(in), file)) {
          Matcher m = CLASS.matcher(text);
          while (m.find()) {
            String target = node.apply(m.group());
            if (!target.equals(from)) {
              to.add(target);
            }
          }
        }
      }
    }
    return new PackageGraph(uses);
  }

  /** A graph given edge by edge, to check the cycle search itself. */
  public static PackageGraph of(Map<String, Set<String>> uses) {
    Map<String, Set<String>> copy = new TreeMap<>();
    uses.forEach((from, to) -> copy.put(from, new TreeSet<>(to)));
    return new PackageGraph(copy);
  }

  /** {@return the packages that hold a class} */
  public Set<String> packages() {
    return new TreeSet<>(uses.keySet());
  }

  /** {@return the other packages {@code pkg}'s classes use} */
  public Set<String> uses(String pkg) {
    return new TreeSet<>(uses.getOrDefault(pkg, Set.of()));
  }

  /**
   * {@return every package cycle: each set of two or more packages that all reach each other (a
   * strongly connected component), sorted}
   */
  public List<Set<String>> cycles() {
    Tarjan t = new Tarjan();
    for (String p : uses.keySet()) {
      if (!t.index.containsKey(p)) {
        t.visit(p);
      }
    }
    t.found.sort(Comparator.comparing(Set::toString));
    return t.found;
  }

  /** Tarjan's search for strongly connected components. */
  private final class Tarjan {
    final Map<String, Integer> index = new HashMap<>();
    final Map<String, Integer> low = new HashMap<>();
    final Deque<String> stack = new ArrayDeque<>();
    final Set<String> onStack = new TreeSet<>();
    final List<Set<String>> found = new ArrayList<>();

    void visit(String v) {
      index.put(v, index.size());
      low.put(v, index.get(v));
      stack.push(v);
      onStack.add(v);
      for (String w : uses.getOrDefault(v, Set.of())) {
        if (!index.containsKey(w)) {
          visit(w);
          low.put(v, Math.min(low.get(v), low.get(w)));
        } else if (onStack.contains(w)) {
          low.put(v, Math.min(low.get(v), index.get(w)));
        }
      }
      if (low.get(v).equals(index.get(v))) {
        Set<String> component = new TreeSet<>();
        String w;
        do {
          w = stack.pop();
          onStack.remove(w);
          component.add(w);
        } while (!w.equals(v));
        if (component.size() > 1) {
          found.add(component);
        }
      }
    }
  }

  private static String fileOf(String className) {
    String name =
        className.endsWith(".class") ? className.substring(0, className.length() - 6) : className;
    int nested = name.indexOf('$');
    return (nested < 0 ? name : name.substring(0, nested)).replace('/', '.');
  }

  private static String packageOf(String className) {
    String name =
        className.endsWith(".class") ? className.substring(0, className.length() - 6) : className;
    int slash = name.lastIndexOf('/');
    return slash < 0 ? "" : name.substring(0, slash).replace('/', '.');
  }

  /** The text constants of a class file's constant pool. */
  private static List<String> utf8Constants(DataInputStream in, Path file) throws IOException {
    if (in.readInt() != 0xCAFEBABE) {
      throw new IOException(file + " is not a class file");
    }
    in.readUnsignedShort(); // minor version
    in.readUnsignedShort(); // major version
    int count = in.readUnsignedShort();
    List<String> texts = new ArrayList<>();
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case 1 -> texts.add(in.readUTF());
        case 3, 4 -> in.skipNBytes(4);
        case 5, 6 -> {
          in.skipNBytes(8);
          i++; // a long or double takes two entries
        }
        case 7, 8, 16, 19, 20 -> in.skipNBytes(2);
        case 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
        case 15 -> in.skipNBytes(3);
        default -> throw new IOException(file + ": unknown constant pool tag " + tag);
      }
    }
    return texts;
  }
}
