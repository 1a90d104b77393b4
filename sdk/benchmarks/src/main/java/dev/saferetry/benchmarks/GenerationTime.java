package dev.saferetry.benchmarks;

import dev.saferetry.generator.Cli;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How long generating the Stripe subset takes: the generator's command line (what the plugin's
 * {@code saferetry:generate} goal runs) on the committed trimmed Stripe document, with the Stripe
 * client's configuration, each run into a fresh directory. Cold: each run a new child JVM, started
 * and timed from here (JVM start, class loading and JIT included, as in a build's first module).
 * Warm: the same generation repeated in this JVM, with the wall and CPU time of each. The target is
 * under 10 s.
 *
 * <pre>
 * java -cp saferetry-benchmarks.jar dev.saferetry.benchmarks.GenerationTime \
 *     sdk/clients/stripe/spec/stripe-openapi.json [cold-runs=3] [warm-runs=5]
 * </pre>
 *
 * <p>Not thread-safe; one run per process.
 */
public final class GenerationTime {
  /** The goal from issue 31. */
  static final double TARGET_SECONDS = 10.0;

  private GenerationTime() {}

  /** Runs it; see the class comment. */
  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      throw new IllegalArgumentException("usage: GenerationTime SPEC [cold-runs] [warm-runs]");
    }
    Path spec = Path.of(args[0]).toAbsolutePath();
    int cold = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    int warm = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    Path scratch = Files.createTempDirectory("saferetry-gen-time");
    try {
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      String classPath = System.getProperty("java.class.path");
      List<Double> coldTimes = new ArrayList<>();
      for (int i = 0; i < cold; i++) {
        List<String> cmd = new ArrayList<>(List.of(java, "-cp", classPath, Cli.class.getName()));
        cmd.addAll(cliArgs(spec, scratch.resolve("cold-" + i)));
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] output = p.getInputStream().readAllBytes();
        int status = p.waitFor();
        double s = (System.nanoTime() - t0) / 1e9;
        if (status != 0) {
          throw new IOException(
              "generator exited " + status + ": " + new String(output, StandardCharsets.UTF_8));
        }
        coldTimes.add(s);
      }
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      List<double[]> warmTimes = new ArrayList<>();
      PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
      for (int i = 0; i < warm; i++) {
        long c0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        int status =
            Cli.run(cliArgs(spec, scratch.resolve("warm-" + i)).toArray(String[]::new), sink, sink);
        double s = (System.nanoTime() - t0) / 1e9;
        double cpu = (threads.getCurrentThreadCpuTime() - c0) / 1e9;
        if (status != 0) {
          throw new IOException("generator returned " + status);
        }
        warmTimes.add(new double[] {s, cpu});
      }
      long files;
      try (var walk = Files.walk(scratch.resolve(cold > 0 ? "cold-0" : "warm-0"))) {
        files = walk.filter(f -> f.toString().endsWith(".java")).count();
      }
      System.out.printf(
          Locale.ROOT,
          "Generating the Stripe subset (%s, %d Java files): %d cores, Java %s, load average %.2f%n",
          spec.getFileName(),
          files,
          Runtime.getRuntime().availableProcessors(),
          System.getProperty("java.version"),
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
      for (int i = 0; i < coldTimes.size(); i++) {
        System.out.printf(
            Locale.ROOT, "cold run %d (new JVM): %.2f s wall%n", i + 1, coldTimes.get(i));
      }
      for (int i = 0; i < warmTimes.size(); i++) {
        System.out.printf(
            Locale.ROOT,
            "warm run %d (same JVM): %.2f s wall, %.2f s CPU%n",
            i + 1,
            warmTimes.get(i)[0],
            warmTimes.get(i)[1]);
      }
      double worst = coldTimes.stream().mapToDouble(Double::doubleValue).max().orElse(0);
      System.out.printf(
          Locale.ROOT,
          "target: under %.0f s; slowest cold run %.2f s: %s%n",
          TARGET_SECONDS,
          worst,
          worst < TARGET_SECONDS ? "met" : "NOT met");
    } finally {
      Scratch.delete(scratch);
    }
  }

  /** The Stripe client's configuration, as in sdk/clients/stripe/pom.xml. */
  private static List<String> cliArgs(Path spec, Path out) {
    return List.of(
        "--spec",
        spec.toString(),
        "--package",
        "dev.saferetry.stripe",
        "--client",
        "StripeClient",
        "--preset",
        "stripe",
        "--out",
        out.resolve("java").toString(),
        "--resources",
        out.resolve("resources").toString());
  }
}
