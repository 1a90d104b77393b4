package dev.saferetry.spring;

import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.jdbc.outbox.JdbcOutbox;
import dev.saferetry.jdbc.outbox.OutboxAdmin;
import dev.saferetry.jdbc.outbox.OutboxIntent;
import java.security.Principal;
import java.util.ConcurrentModificationException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * The Actuator endpoint {@code saferetryoutbox}: the outbox operator API over HTTP (or JMX).
 *
 * <ul>
 *   <li>{@code GET /actuator/saferetryoutbox?state=held&operation=...&limit=50} lists intents
 *       (state: held, queued, ended, abandoned or all), oldest first, without their request bodies
 *       or headers.
 *   <li>{@code POST /actuator/saferetryoutbox} with {@code action} (requeue, abandon, release-key),
 *       {@code tenant}, {@code operation}, {@code intentId}, {@code reason} and an optional {@code
 *       actionId} acts on one intent. Refused (403) unless {@code
 *       saferetry.outbox.operator.actions-enabled} is true and the request carries an authenticated
 *       principal, whose name is recorded in the outbox's audit as the actor; an anonymous request
 *       changes nothing.
 * </ul>
 *
 * Expose it with {@code management.endpoints.web.exposure.include} and protect it with the
 * application's security like any other Actuator endpoint.
 *
 * <p>This class is thread-safe.
 */
// Actuator is an optional dependency, not re-exported: an application with the endpoint has it.
@SuppressWarnings("exports")
@Endpoint(id = "saferetryoutbox")
public final class OutboxEndpoint {
  /** The audit name of reads (no read is audited; the admin view needs a name). */
  private static final String READER = "actuator";

  private final JdbcOutbox outbox;
  private final SafeRetryProperties.Operator properties;

  OutboxEndpoint(JdbcOutbox outbox, SafeRetryProperties.Operator properties) {
    this.outbox = outbox;
    this.properties = properties;
  }

  /**
   * Lists intents.
   *
   * @param state held, queued, ended, abandoned or all (default held)
   * @param operation only this operation, if given
   * @param limit the most to list, 1 to {@value OutboxAdmin#MAX_LIMIT} (default 50)
   * @return the intents and whether actions are enabled
   */
  @ReadOperation
  public Map<String, Object> intents(
      @Nullable String state, @Nullable String operation, @Nullable Integer limit) {
    OutboxAdmin admin = filter(outbox.admin(READER), state == null ? "held" : state);
    if (operation != null) {
      admin = admin.whereOperation(operation);
    }
    List<Map<String, Object>> rows =
        admin.list(limit == null ? 50 : limit).stream().map(OutboxEndpoint::view).toList();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("actionsEnabled", properties.isActionsEnabled());
    out.put("intents", rows);
    return out;
  }

  /**
   * Acts on one intent as the request's authenticated principal.
   *
   * @param security the request's security context
   * @param action requeue, abandon or release-key
   * @param tenant the intent's tenant
   * @param operation the intent's operation
   * @param intentId the intent's id
   * @param reason why (recorded in the audit)
   * @param actionId the action's id (a ticket), making a repeat harmless; default a new UUID
   * @return the intent after the action; 403 when actions are off or the request is anonymous, 404
   *     when no such intent, 409 when it changed meanwhile or the action does not apply
   */
  @WriteOperation
  public WebEndpointResponse<Map<String, Object>> act(
      SecurityContext security,
      String action,
      String tenant,
      String operation,
      String intentId,
      String reason,
      @Nullable String actionId) {
    if (!properties.isActionsEnabled()) {
      return refused(403, "actions are disabled (saferetry.outbox.operator.actions-enabled)");
    }
    String actor = actor(security.getPrincipal());
    if (actor == null) {
      return refused(403, "an authenticated principal is required");
    }
    OutboxAdmin admin = outbox.admin(actor);
    Optional<OutboxIntent> found = admin.find(new IntentScope(tenant, operation), intentId);
    if (found.isEmpty()) {
      return refused(404, "no such intent");
    }
    String id = actionId == null ? UUID.randomUUID().toString() : actionId;
    try {
      OutboxIntent after =
          switch (action.toLowerCase(Locale.ROOT)) {
            case "requeue" -> admin.requeue(found.get(), id, reason);
            case "abandon" -> admin.abandon(found.get(), id, reason);
            case "release-key" -> admin.releaseKey(found.get(), id, reason);
            default -> null;
          };
      if (after == null) {
        return refused(400, "unknown action: use requeue, abandon or release-key");
      }
      return new WebEndpointResponse<>(view(after), 200);
    } catch (ConcurrentModificationException | IllegalStateException e) {
      return refused(409, e.getMessage());
    } catch (IllegalArgumentException e) {
      return refused(400, e.getMessage());
    }
  }

  /** The principal's name, or null for none or an anonymous one. */
  static @Nullable String actor(@Nullable Principal principal) {
    if (principal == null || principal.getName() == null || principal.getName().isBlank()) {
      return null;
    }
    // Spring Security's anonymous token, should a filter chain hand it on.
    if (principal.getClass().getSimpleName().startsWith("Anonymous")) {
      return null;
    }
    return principal.getName();
  }

  private static OutboxAdmin filter(OutboxAdmin admin, String state) {
    return switch (state.toLowerCase(Locale.ROOT)) {
      case "held" -> admin.whereHeld();
      case "queued" -> admin.whereQueued();
      case "ended" -> admin.whereEnded();
      case "abandoned" -> admin.whereAbandoned();
      case "all" -> admin;
      default ->
          throw new IllegalArgumentException(
              "state must be held, queued, ended, abandoned or all: " + state);
    };
  }

  private static WebEndpointResponse<Map<String, Object>> refused(int status, String why) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("refused", why);
    return new WebEndpointResponse<>(body, status);
  }

  /** An intent without its request's body or headers (they may hold personal data). */
  static Map<String, Object> view(OutboxIntent i) {
    Map<String, Object> v = new LinkedHashMap<>();
    v.put("tenant", i.record().scope().tenant());
    v.put("operation", i.record().scope().operation());
    v.put("intentId", i.record().intentId());
    v.put("idempotencyKey", i.record().key().value());
    v.put(
        "state",
        i.isHeld() ? "held" : i.isQueued() ? "queued" : i.abandoned() ? "abandoned" : "ended");
    v.put("outcome", i.record().state().name().toLowerCase(Locale.ROOT));
    v.put("holdReason", i.reason() == null ? null : i.reason().name().toLowerCase(Locale.ROOT));
    v.put("attempts", i.attempts());
    v.put("dueAt", i.dueAt() == null ? null : i.dueAt().toString());
    v.put("orderingKey", i.orderingKey());
    v.put("leaseOwner", i.leaseOwner());
    v.put("note", i.note());
    v.put("version", i.version());
    return v;
  }
}
