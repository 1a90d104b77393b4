package dev.saferetry.conformance;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A create payload made from the configured template.
 *
 * @param marker the value unique to this payload ({@code ${marker}}), by which effects are counted
 * @param json the body
 */
record Payload(String marker, String json) {

  /**
   * Fills {@code ${marker}} in the template; a template without one gets a {@code metadata} object
   * carrying the marker, where Stripe-like APIs accept free data.
   */
  static Payload of(String template, String marker) {
    if (!template.contains("${marker}")
        && Answer.parse(template) instanceof ObjectNode o
        && !o.has("metadata")) {
      o.putObject("metadata").put("saferetry_marker", marker);
      return new Payload(marker, o.toString());
    }
    return new Payload(marker, fill(template, marker, ""));
  }

  /** Replaces {@code ${marker}} and {@code ${id}} in a template. */
  static String fill(String template, String marker, String id) {
    return template.replace("${marker}", marker).replace("${id}", id == null ? "" : id);
  }
}
