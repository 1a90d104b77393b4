package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * What an embedding build receives with the suite: its own HTTP and JSON libraries, never the
 * reference server's database drivers, a logging binding or a JUnit version of ours.
 */
class EmbeddingDependenciesTest {

  @Test
  void driversLoggingBindingsAndJunitAreNeverPassedOnToUsers() throws Exception {
    NodeList deps =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(Path.of("pom.xml").toFile())
            .getElementsByTagName("dependency");
    List<String> transitive = new ArrayList<>();
    for (int i = 0; i < deps.getLength(); i++) {
      Element d = (Element) deps.item(i);
      String scope = text(d, "scope");
      boolean optional = "true".equals(text(d, "optional"));
      if (!optional && !"test".equals(scope) && !"provided".equals(scope)) {
        transitive.add(text(d, "groupId") + ":" + text(d, "artifactId"));
      }
    }

    assertThat(transitive)
        .containsExactlyInAnyOrder(
            "com.squareup.okhttp3:okhttp-jvm",
            "com.fasterxml.jackson.core:jackson-databind",
            "org.slf4j:slf4j-api");
  }

  private static String text(Element e, String tag) {
    NodeList n = e.getElementsByTagName(tag);
    return n.getLength() == 0 ? null : n.item(0).getTextContent().strip();
  }
}
