package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * A JUnit XML report as a CI server reads it: the counts on {@code testsuite}, and each test case
 * with whether it failed, errored or was skipped.
 *
 * @param tests the {@code tests} count
 * @param failures the {@code failures} count
 * @param errors the {@code errors} count
 * @param skipped the {@code skipped} count
 * @param exitStatus the {@code exit.status} property
 * @param cases each test case by name: {@code failure}, {@code error}, {@code skipped} or {@code
 *     pass}
 * @param verdictMessage the message of the {@code verdict} case's failure or error, or ""
 */
record JunitXml(
    int tests,
    int failures,
    int errors,
    int skipped,
    int exitStatus,
    Map<String, String> cases,
    String verdictMessage) {

  static JunitXml read(Path file) throws Exception {
    Document xml = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
    Element suite = xml.getDocumentElement();
    Map<String, String> cases = new LinkedHashMap<>();
    String verdict = "";
    NodeList testcases = suite.getElementsByTagName("testcase");
    for (int i = 0; i < testcases.getLength(); i++) {
      Element c = (Element) testcases.item(i);
      String state = "pass";
      for (String s : new String[] {"failure", "error", "skipped"}) {
        NodeList found = c.getElementsByTagName(s);
        if (found.getLength() > 0) {
          state = s;
          if (c.getAttribute("name").equals("verdict")) {
            verdict = ((Element) found.item(0)).getAttribute("message");
          }
        }
      }
      cases.put(c.getAttribute("name"), state);
    }
    String exit = "";
    NodeList props = suite.getElementsByTagName("property");
    for (int i = 0; i < props.getLength(); i++) {
      Element p = (Element) props.item(i);
      if (p.getParentNode().getParentNode() == suite
          && p.getAttribute("name").equals("exit.status")) {
        exit = p.getAttribute("value");
      }
    }
    return new JunitXml(
        Integer.parseInt(suite.getAttribute("tests")),
        Integer.parseInt(suite.getAttribute("failures")),
        Integer.parseInt(suite.getAttribute("errors")),
        Integer.parseInt(suite.getAttribute("skipped")),
        Integer.parseInt(exit),
        cases,
        verdict);
  }

  /** Whether a CI server that reads only the counts shows the run as green. */
  boolean green() {
    return failures == 0 && errors == 0;
  }

  /**
   * Asserts that the report says what the run says: green exactly when the exit status is 0, the
   * counts match the test cases, and the {@code verdict} case carries the exit status.
   */
  static JunitXml assertAgreesWith(RunResult run) throws Exception {
    JunitXml xml = read(run.junitXml());
    int exit = run.exitStatus().code();
    assertThat(xml.exitStatus()).isEqualTo(exit);
    assertThat(xml.green())
        .as("green in a CI exactly when the exit status is 0")
        .isEqualTo(exit == 0);
    assertThat(xml.tests()).isEqualTo(xml.cases().size());
    assertThat(xml.failures()).isEqualTo(count(xml, "failure"));
    assertThat(xml.errors()).isEqualTo(count(xml, "error"));
    assertThat(xml.skipped()).isEqualTo(count(xml, "skipped"));
    assertThat(xml.cases().get("verdict"))
        .isEqualTo(exit == 0 ? "pass" : exit == 2 ? "error" : "failure");
    for (CaseResult r : run.results()) {
      String expected =
          r.mustFailed()
              ? "failure"
              : r.level() == Level.MUST && r.verdict() == Verdict.ERROR
                  ? "error"
                  : r.verdict() == Verdict.PASS ? "pass" : "skipped";
      assertThat(xml.cases().get(r.id())).as(r.id()).isEqualTo(expected);
    }
    return xml;
  }

  private static int count(JunitXml xml, String state) {
    return (int) xml.cases().values().stream().filter(state::equals).count();
  }
}
