package dev.saferetry.spring;

import java.util.regex.Pattern;
import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;

/**
 * Masks SafeRetry's secrets in Actuator's {@code env} and {@code configprops} endpoints, whatever
 * {@code show-values} says: every property under {@code saferetry.clients.<name>.credentials} and
 * every webhook secret under {@code saferetry.}; in {@code configprops}, which names the field
 * only, every {@code apiKey} and {@code secret}.
 *
 * <p>This class is thread-safe.
 */
final class CredentialsSanitizer implements SanitizingFunction {
  private static final Pattern SECRET =
      Pattern.compile(
          "saferetry\\.clients\\.[^.]+\\.credentials(\\..*|\\[.*)?"
              + "|saferetry\\..*(secret|api-?key|password|token).*"
              // configprops names the leaf only
              + "|api-?key|secrets?",
          Pattern.CASE_INSENSITIVE);

  @Override
  public SanitizableData apply(SanitizableData data) {
    String key = data.getKey();
    if (key != null && SECRET.matcher(key).matches()) {
      return data.withSanitizedValue();
    }
    return data;
  }
}
