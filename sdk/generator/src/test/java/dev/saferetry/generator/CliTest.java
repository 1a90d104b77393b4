package dev.saferetry.generator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliTest {
  @TempDir Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Cli.run(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void writesTheSourcesAndTheClientList() throws Exception {
    int status =
        run(
            "--spec", Specs.of("square-payments.yaml").toString(),
            "--package", "com.example.square",
            "--out", dir.resolve("java").toString(),
            "--resources", dir.resolve("resources").toString(),
            "--client", "Square");
    assertThat(status).isZero();
    assertThat(dir.resolve("java/com/example/square/Square.java")).exists();
    assertThat(Files.readString(dir.resolve("resources/META-INF/saferetry/typed-clients.list")))
        .isEqualTo("com.example.square.Square\n");
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("com.example.square");
  }

  @Test
  void aBadCommandLineExitsWithTwoAndSaysWhy() {
    assertThat(run("--spec", "x.yaml", "--package", "Not.A.Package", "--out", "o")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("packageName").contains("usage:");
    assertThat(run("--frobnicate", "1")).isEqualTo(2);
  }

  @Test
  void aDocumentThatCannotBeUsedExitsWithOne() {
    assertThat(
            run(
                "--spec", dir.resolve("missing.yaml").toString(),
                "--package", "p",
                "--out", dir.toString()))
        .isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("missing.yaml");
  }

  @Test
  void anIncludeThatMatchesNothingExitsWithTwoNamingIt() {
    assertThat(
            run(
                "--spec",
                Specs.of("square-payments.yaml").toString(),
                "--package",
                "p",
                "--out",
                dir.toString(),
                "--operations",
                "CreatePayment,NoSuchOperation"))
        .isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains(
            "includeOperations: 'NoSuchOperation' matches no operation of square-payments.yaml")
        .contains("CreatePayment");
    assertThat(dir.resolve("p")).doesNotExist();
  }

  @Test
  void includedOperationsLimitWhatIsWritten() throws Exception {
    run(
        "--spec",
        Specs.of("square-payments.yaml").toString(),
        "--package",
        "p",
        "--out",
        dir.toString(),
        "--operations",
        "CreatePayment");
    String api = Files.readString(dir.resolve("p/PaymentsApi.java"));
    assertThat(api).contains(" CREATE = ").doesNotContain(" LIST = ");
    assertThat(dir.resolve("p/ListPaymentsResponse.java")).doesNotExist();
  }

  @Test
  void aReferenceToAnUndefinedSchemaIsReadAsRawJsonWithAWarning() throws Exception {
    int status =
        run(
            "--spec", Specs.of("dangling-ref.yaml").toString(),
            "--package", "p",
            "--out", dir.toString());
    assertThat(status).isZero();
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("warning: ")
        .contains("CatalogModifierToggleOverrideType");
    assertThat(Files.readString(dir.resolve("p/Item.java")))
        .contains("@JsonProperty(\"allow_quantities\") Object allowQuantities");
  }
}
