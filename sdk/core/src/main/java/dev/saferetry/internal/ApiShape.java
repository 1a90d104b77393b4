package dev.saferetry.internal;

import dev.saferetry.codec.BodyCodec;
import dev.saferetry.provider.ApiKeyStyle;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * How a client writes requests and reads answers beyond the HTTP basics: the default body codec,
 * where the API key goes, headers sent on every request, headers that belong to an intent's
 * identity, the {@code User-Agent}, and the provider's rules for reading answers.
 *
 * @param codec the body codec of operations that name none
 * @param apiKeyStyle where and how the API key is sent
 * @param defaultHeaders headers sent on every request, in order (a call's own headers win)
 * @param identityHeaders header names that belong to every keyed intent's identity (any case)
 * @param userAgent the {@code User-Agent} value
 * @param rules how answers are read
 * @param keyMaxLength the longest key the provider accepts, or 0 for no limit
 * @param presetName the preset the client was built with, or null
 */
public record ApiShape(
    BodyCodec codec,
    ApiKeyStyle apiKeyStyle,
    Map<String, String> defaultHeaders,
    Set<String> identityHeaders,
    String userAgent,
    ResponseRules rules,
    int keyMaxLength,
    String presetName) {

  /** The SDK's own {@code User-Agent} product token. */
  public static final String SDK_AGENT = "saferetry-java/0.1";

  /** Copies the header maps; identity header names compare ignoring case. */
  public ApiShape {
    defaultHeaders = Collections.unmodifiableMap(new LinkedHashMap<>(defaultHeaders));
    Set<String> names = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    names.addAll(identityHeaders);
    identityHeaders = Collections.unmodifiableSet(names);
  }
}
