package dev.saferetry.conformance;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import okhttp3.Call;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;

/**
 * The server under test as one case sees it: raw HTTP helpers that also record evidence, the
 * configured API shape and the declared hooks. One instance per case; thread-safe.
 */
public final class Target {
  static final ObjectMapper MAPPER = new ObjectMapper();
  private static final MediaType JSON = MediaType.get("application/json");
  final Session session;
  final SuiteConfig cfg;
  final Evidence evidence;

  Target(Session session, Evidence evidence) {
    this.session = session;
    this.cfg = session.config;
    this.evidence = evidence;
  }

  /** A fresh idempotency key, unique to this run. */
  public String newKey() {
    return session.unique("sr-key");
  }

  /** A fresh create payload whose {@code ${marker}} is unique to this run. */
  public Payload newPayload() {
    String marker = session.unique("conformance");
    String template = cfg.get("create.payload");
    if (!template.contains("${marker}")
        && Target.parse(template) instanceof com.fasterxml.jackson.databind.node.ObjectNode o
        && !o.has("metadata")) {
      // Each case needs its own payload: tag it where Stripe-like APIs accept free data.
      o.putObject("metadata").put("saferetry_marker", marker);
      return new Payload(marker, o.toString());
    }
    return new Payload(marker, fill(template, marker, ""));
  }

  /** A create request with a raw key header value (null: no header), as tenant 1. */
  public Response create(String key, String json) {
    return post("create", cfg.get("create.path"), json, key, tenant1());
  }

  /** Sends a POST and records status and id as evidence. */
  public Response post(
      String label, String path, String json, String key, Map<String, String> headers) {
    try (okhttp3.Response r = call(request(path, json, key, headers)).execute()) {
      Response response = Response.of(r, readBody(r));
      evidence.note(label + "→" + response.status() + idNote(response));
      return response;
    } catch (IOException e) {
      evidence.note(label + "→" + e.getClass().getSimpleName());
      throw new UncheckedIOException(e);
    }
  }

  Request request(String path, String json, String key, Map<String, String> headers) {
    Request.Builder b = new Request.Builder().url(url(path)).post(RequestBody.create(json, JSON));
    headers.forEach(b::header);
    if (key != null) {
      b.header(cfg.get("key.header"), key);
    }
    return b.build();
  }

  Call call(Request request) {
    return session.http.newCall(request);
  }

  OkHttpClient http() {
    return session.http;
  }

  /** The resource id at the configured JSON pointer, or null. */
  public String id(Response response) {
    if (response.json() == null) {
      return null;
    }
    JsonNode id = response.json().at(JsonPointer.compile(cfg.get("id.pointer")));
    return id.isMissingNode() || id.isNull() ? null : id.asText();
  }

  private String idNote(Response response) {
    String id = response.ok() ? id(response) : null;
    return id == null ? "" : "(" + id + ")";
  }

  /** Replaces {@code ${marker}} and {@code ${id}} in a template. */
  static String fill(String template, String marker, String id) {
    return template.replace("${marker}", marker).replace("${id}", id == null ? "" : id);
  }

  /** Absolute URL of a configured path or URL. */
  String url(String pathOrUrl) {
    return pathOrUrl.startsWith("http") ? pathOrUrl : session.baseUrl + pathOrUrl;
  }

  /** Tenant 1's extra headers (e.g. Authorization). */
  public Map<String, String> tenant1() {
    return cfg.withPrefix("headers.");
  }

  /** Tenant 2's headers; empty when the server has no tenants configured. */
  public Map<String, String> tenant2() {
    return cfg.withPrefix("tenant2.headers.");
  }

  /** The configured value of {@code key}. */
  public String config(String key) {
    return cfg.get(key);
  }

  /** Declared server cooperation. */
  public Hooks hooks() {
    return new Hooks(this);
  }

  static String readBody(okhttp3.Response r) throws IOException {
    return r.body() == null ? "" : r.body().string();
  }

  static JsonNode parse(String body) {
    try {
      return body == null || body.isBlank() ? null : MAPPER.readTree(body);
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * A create payload.
   *
   * @param marker unique marker (counts side effects of this payload)
   * @param json the body
   */
  public record Payload(String marker, String json) {}

  /**
   * An HTTP response as observed.
   *
   * @param status HTTP status
   * @param body raw body
   * @param json parsed body or null
   * @param headers response headers
   */
  public record Response(int status, String body, JsonNode json, okhttp3.Headers headers) {
    static Response of(okhttp3.Response r, String body) {
      return new Response(r.code(), body, parse(body), r.headers());
    }

    /** Whether the status is 2xx. */
    public boolean ok() {
      return status >= 200 && status < 300;
    }

    /** A header value or null. */
    public String header(String name) {
      return headers.get(name);
    }
  }
}
