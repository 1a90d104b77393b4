package dev.saferetry.internal.filestore.record;

import dev.saferetry.idempotency.IntentScope;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The log's dictionary of scopes: each (tenant, operation) is written once, as a scope record with
 * a number, and every intent record names its scope by that number. Numbers are dense, given in
 * order, and kept across compactions (a compacted log defines every scope first, with its number),
 * so records can be copied from one file to the next unchanged. Not thread-safe: the store's lock
 * guards it.
 */
public final class Scopes {
  private final List<IntentScope> byId = new ArrayList<>();
  private final Map<IntentScope, Integer> ids = new HashMap<>();

  /** The number of {@code scope}, or -1 if it has none yet. */
  public int idOf(IntentScope scope) {
    Integer id = ids.get(scope);
    return id == null ? -1 : id;
  }

  /** The number the next new scope gets. */
  public int nextId() {
    return byId.size();
  }

  /**
   * Records a scope read from the log or appended to it.
   *
   * @throws IllegalArgumentException if {@code id} is not the next number or the scope has one
   */
  public void define(int id, IntentScope scope) {
    if (id != byId.size() || ids.containsKey(scope)) {
      throw new IllegalArgumentException(
          "scope record " + id + " is out of order or repeats a scope");
    }
    byId.add(scope);
    ids.put(scope, id);
  }

  /**
   * The scope numbered {@code id}.
   *
   * @throws IllegalArgumentException if no scope record defined it
   */
  public IntentScope get(int id) {
    if (id < 0 || id >= byId.size()) {
      throw new IllegalArgumentException("a record names scope " + id + ", which is not defined");
    }
    return byId.get(id);
  }

  int size() {
    return byId.size();
  }

  /** A copy of the scopes in number order. */
  public List<IntentScope> list() {
    return List.copyOf(byId);
  }
}
