package dev.saferetry.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.maven.model.Model;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The goal as Maven runs it: parameters set, executed against a project, run again. */
class GenerateMojoTest {
  @TempDir Path dir;
  private Path spec;
  private MavenProject project;

  @BeforeEach
  void copySpec() throws Exception {
    spec = dir.resolve("payments.yaml");
    Files.copy(Path.of("../generator/src/test/resources/specs/square-payments.yaml"), spec);
    project = new MavenProject(new Model());
  }

  private GenerateMojo mojo(Map<String, Object> params) throws Exception {
    GenerateMojo m = new GenerateMojo();
    set(m, "spec", spec.toFile());
    set(m, "packageName", "com.example.square");
    set(m, "preset", "none");
    set(m, "outputDirectory", dir.resolve("gen/java").toFile());
    set(m, "resourceDirectory", dir.resolve("gen/resources").toFile());
    set(m, "project", project);
    set(m, "classesDirectory", dir.resolve("classes").toFile());
    for (Map.Entry<String, Object> p : params.entrySet()) {
      set(m, p.getKey(), p.getValue());
    }
    return m;
  }

  private static void set(Object target, String name, Object value) throws Exception {
    Field f = GenerateMojo.class.getDeclaredField(name);
    f.setAccessible(true);
    f.set(target, value);
  }

  private Path payments() {
    return dir.resolve("gen/java/com/example/square/PaymentsApi.java");
  }

  @Test
  void generatesAndAddsTheSourcesAndResourcesToTheProject() throws Exception {
    mojo(Map.of()).execute();
    assertThat(payments()).exists();
    assertThat(project.getCompileSourceRoots()).contains(dir.resolve("gen/java").toString());
    assertThat(dir.resolve("classes/META-INF/saferetry/typed-clients.list"))
        .hasContent("com.example.square.SquareClient");
  }

  @Test
  void everyExecutionsClientJoinsOneListAndARenamedOneLeavesIt() throws Exception {
    mojo(Map.of()).execute();
    mojo(Map.of(
            "clientName", "Second",
            "outputDirectory", dir.resolve("gen2/java").toFile(),
            "resourceDirectory", dir.resolve("gen2/resources").toFile()))
        .execute();
    Path list = dir.resolve("classes/META-INF/saferetry/typed-clients.list");
    assertThat(list).hasContent("com.example.square.Second\ncom.example.square.SquareClient");
    mojo(Map.of("clientName", "Renamed")).execute();
    assertThat(list).hasContent("com.example.square.Renamed\ncom.example.square.Second");
  }

  @Test
  void aRunWithUnchangedInputsLeavesTheFilesAlone() throws Exception {
    mojo(Map.of()).execute();
    FileTime old = FileTime.from(Instant.parse("2020-01-01T00:00:00Z"));
    Files.setLastModifiedTime(payments(), old);
    Files.writeString(payments(), Files.readString(payments()) + "// edited\n");
    Files.setLastModifiedTime(payments(), old);
    mojo(Map.of()).execute();
    assertThat(Files.readString(payments())).endsWith("// edited\n");
    assertThat(project.getCompileSourceRoots()).contains(dir.resolve("gen/java").toString());
  }

  @Test
  void aChangedDocumentOrConfigurationRegenerates() throws Exception {
    mojo(Map.of()).execute();
    Files.writeString(payments(), "// edited\n");
    mojo(Map.of("keyPlacements", Map.of("ListPayments", "none"))).execute();
    assertThat(Files.readString(payments())).contains("class PaymentsApi");
    Files.writeString(payments(), "// edited\n");
    Files.writeString(spec, Files.readString(spec).replace("CreatePayment", "CreatePayment2"));
    mojo(Map.of()).execute();
    assertThat(Files.readString(payments())).contains("CreatePayment2");
  }

  @Test
  void filesOfSchemasNoLongerInTheDocumentAreRemoved() throws Exception {
    mojo(Map.of()).execute();
    Path stale = dir.resolve("gen/java/com/example/square/Removed.java");
    Files.writeString(stale, "class Removed {}");
    mojo(Map.of("includeOperations", List.of("CreatePayment"))).execute();
    assertThat(stale).doesNotExist();
    assertThat(dir.resolve("gen/java/com/example/square/ListPaymentsResponse.java")).doesNotExist();
  }

  @Test
  void aBadConfigurationFailsTheBuildSayingWhat() throws Exception {
    assertThatThrownBy(() -> mojo(Map.of("packageName", "Bad Package")).execute())
        .isInstanceOf(MojoFailureException.class)
        .hasMessageContaining("packageName");
    assertThatThrownBy(() -> mojo(Map.of("preset", "paypal")).execute())
        .isInstanceOf(MojoFailureException.class)
        .hasMessageContaining("preset");
    assertThatThrownBy(() -> mojo(Map.of("spec", new File(dir.toFile(), "missing.yaml"))).execute())
        .hasMessageContaining("missing.yaml");
  }

  @Test
  void anIncludeThatMatchesNothingInTheDocumentFailsTheBuildNamingIt() {
    assertThatThrownBy(() -> mojo(Map.of("includeTags", List.of("Payments", "Charges"))).execute())
        .isInstanceOf(MojoFailureException.class)
        .hasMessageContaining(
            "includeTags: 'Charges' matches no tag of payments.yaml; its tags: Payments")
        .hasMessageNotContaining("'Payments'");
    assertThat(payments()).doesNotExist();
  }
}
