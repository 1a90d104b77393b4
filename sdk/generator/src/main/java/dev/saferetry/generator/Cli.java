package dev.saferetry.generator;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The generator's command line.
 *
 * <pre>
 * java -cp saferetry-generator.jar:... dev.saferetry.generator.Cli \
 *     --spec stripe.yaml --package com.example.stripe --out src/generated/java \
 *     [--resources src/generated/resources] [--client StripeClient] [--preset stripe] \
 *     [--operations PostCustomers,GetCustomers] [--tags Payments] \
 *     [--key PostCharges=header:Idempotency-Key:255] [--silent-writes header:Idempotency-Key] \
 *     [--key-header X-Request-Key] [--key-field request_token]
 * </pre>
 *
 * <p>Exit status 0 when written, 2 for a bad command line, 1 when the document cannot be turned
 * into a client.
 */
public final class Cli {
  private Cli() {}

  /**
   * Runs the generator.
   *
   * @param args the arguments, as above
   */
  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /**
   * Runs the generator and returns the exit status instead of exiting.
   *
   * @param args the arguments
   * @param out where the summary goes
   * @param err where errors go
   * @return 0 when written, 1 when the document cannot be used, 2 for a bad command line or an
   *     include that matches nothing in the document
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    Map<String, List<String>> opts = new TreeMap<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--help") || a.equals("-h")) {
        out.println(usage());
        return 0;
      }
      if (!a.startsWith("--") || i + 1 >= args.length) {
        err.println("unexpected argument " + a + "\n" + usage());
        return 2;
      }
      opts.computeIfAbsent(a.substring(2), k -> new ArrayList<>()).add(args[++i]);
    }
    try {
      GeneratorConfig.Builder b = GeneratorConfig.builder();
      Path outDir = null;
      Path resources = null;
      Map<String, KeyOverride> keys = new TreeMap<>();
      for (Map.Entry<String, List<String>> e : opts.entrySet()) {
        List<String> v = e.getValue();
        String last = v.get(v.size() - 1);
        switch (e.getKey()) {
          case "spec" -> b.spec(Path.of(last));
          case "package" -> b.packageName(last);
          case "out" -> outDir = Path.of(last);
          case "resources" -> resources = Path.of(last);
          case "client" -> b.clientName(last);
          case "preset" -> b.preset(last);
          case "operations" -> b.includeOperations(split(v));
          case "tags" -> b.includeTags(split(v));
          case "silent-writes" -> b.silentWrites(KeyOverride.parse(last));
          case "key-header" -> b.keyHeaderNames(split(v));
          case "key-field" -> b.keyFieldNames(split(v));
          case "key" -> {
            for (String k : v) {
              int eq = k.indexOf('=');
              if (eq < 1) {
                throw new IllegalArgumentException("--key must be operationId=placement, was " + k);
              }
              keys.put(k.substring(0, eq), KeyOverride.parse(k.substring(eq + 1)));
            }
          }
          default -> throw new IllegalArgumentException("unknown option --" + e.getKey());
        }
      }
      b.keyPlacements(keys);
      if (outDir == null) {
        throw new IllegalArgumentException("--out is required");
      }
      GeneratorConfig config = b.build();
      GeneratedSources sources = Generator.generate(config);
      sources.writeTo(outDir, resources != null ? resources : outDir);
      sources.warnings().forEach(w -> err.println("warning: " + w));
      out.println(
          "wrote "
              + sources.sources().size()
              + " sources to "
              + outDir
              + " (package "
              + config.packageName()
              + ")");
      return 0;
    } catch (IllegalArgumentException | NullPointerException e) {
      err.println(e.getMessage() + "\n" + usage());
      return 2;
    } catch (UnmatchedIncludeException e) {
      err.println(e.getMessage());
      return 2;
    } catch (GeneratorException e) {
      err.println(e.getMessage());
      return 1;
    }
  }

  private static List<String> split(List<String> values) {
    List<String> all = new ArrayList<>();
    for (String v : values) {
      Arrays.stream(v.split(",")).map(String::trim).filter(s -> !s.isEmpty()).forEach(all::add);
    }
    return all;
  }

  private static String usage() {
    return "usage: --spec FILE --package NAME --out DIR [--resources DIR] [--client NAME]"
        + " [--preset none|stripe|adyen] [--operations ID,..] [--tags TAG,..]"
        + " [--key ID=header:NAME[:MAX]|body:FIELD[:MAX]|none] [--silent-writes PLACEMENT]"
        + " [--key-header NAME] [--key-field NAME]";
  }
}
