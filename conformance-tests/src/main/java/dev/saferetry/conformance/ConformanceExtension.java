package dev.saferetry.conformance;

import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Wires suite cases to the target: resolves a {@link Target} parameter per case (the run's {@link
 * Session} lives in the root store and is closed when the run ends) and publishes the case's
 * evidence as a report entry named {@code evidence}. Thread-safe.
 */
public final class ConformanceExtension implements ParameterResolver, AfterTestExecutionCallback {
  private static final ExtensionContext.Namespace NS =
      ExtensionContext.Namespace.create(ConformanceExtension.class);

  @Override
  public boolean supportsParameter(ParameterContext p, ExtensionContext c) {
    return p.getParameter().getType() == Target.class;
  }

  @Override
  public Object resolveParameter(ParameterContext p, ExtensionContext c) {
    Session session =
        c.getRoot()
            .getStore(NS)
            .computeIfAbsent(
                Session.class,
                k ->
                    new Session(
                        SuiteConfig.fromLauncher(
                            key -> c.getConfigurationParameter(key).orElse(null))),
                Session.class);
    Evidence evidence = new Evidence();
    c.getStore(NS).put(Evidence.class, evidence);
    return new Target(session, evidence);
  }

  @Override
  public void afterTestExecution(ExtensionContext c) {
    Evidence evidence = c.getStore(NS).get(Evidence.class, Evidence.class);
    if (evidence != null && !evidence.toString().isEmpty()) {
      c.publishReportEntry("evidence", evidence.toString());
    }
  }
}
