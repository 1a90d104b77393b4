package dev.saferetry.conformance;

import java.util.List;
import java.util.Objects;

/**
 * One HTTP exchange a case made, as evidence: the request sent and the response seen, already
 * redacted (credentials, cookies, tokens and their values anywhere in the text become {@code ***})
 * and cut to a readable length.
 *
 * <p>Immutable and thread-safe.
 *
 * @param label what the request was for, e.g. {@code retry} or {@code hook fault.hang}
 * @param method request method
 * @param url request URL
 * @param requestHeaders request headers as {@code Name: value} lines
 * @param requestBody request body (cut), empty when none
 * @param status response status, or 0 when no response arrived
 * @param responseHeaders response headers as {@code Name: value} lines
 * @param responseBody response body (cut)
 * @param error why no response arrived (e.g. {@code SocketTimeoutException}), or empty
 * @param millis time from sending to the end of the response (or the error)
 */
public record Exchange(
    String label,
    String method,
    String url,
    List<String> requestHeaders,
    String requestBody,
    int status,
    List<String> responseHeaders,
    String responseBody,
    String error,
    long millis) {

  /**
   * Creates an exchange, copying the header lists; a null body or error becomes empty.
   *
   * @param label what the request was for, e.g. {@code retry} or {@code hook fault.hang}
   * @param method request method
   * @param url request URL
   * @param requestHeaders request headers as {@code Name: value} lines
   * @param requestBody request body (cut), empty or null when none
   * @param status response status, or 0 when no response arrived
   * @param responseHeaders response headers as {@code Name: value} lines
   * @param responseBody response body (cut), empty or null when none
   * @param error why no response arrived (e.g. {@code SocketTimeoutException}), or empty or null
   * @param millis time from sending to the end of the response (or the error)
   * @throws NullPointerException if {@code label}, {@code method}, {@code url} or a header list is
   *     null
   */
  public Exchange {
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(url, "url");
    requestHeaders = List.copyOf(requestHeaders);
    requestBody = Objects.requireNonNullElse(requestBody, "");
    responseHeaders = List.copyOf(responseHeaders);
    responseBody = Objects.requireNonNullElse(responseBody, "");
    error = Objects.requireNonNullElse(error, "");
  }

  /**
   * {@return one line for a failure message: label, method and URL, then the status or why no
   * response arrived}
   */
  public String summary() {
    String outcome = status > 0 ? Integer.toString(status) : "no response (" + error + ")";
    return label + ": " + method + " " + url + " -> " + outcome;
  }
}
