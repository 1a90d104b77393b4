package dev.saferetry.spring;

import dev.saferetry.SafeRetryClient;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;

/**
 * Makes a generated typed client facade through its public {@code (SafeRetryClient)} constructor.
 */
final class TypedClients {
  private TypedClients() {}

  static Object create(Class<?> type, SafeRetryClient client) {
    Constructor<?> constructor;
    try {
      constructor = type.getConstructor(SafeRetryClient.class);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(
          type.getName() + " has no public constructor taking a SafeRetryClient", e);
    }
    try {
      return constructor.newInstance(client);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(
          type.getName() + "'s constructor failed: " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot create " + type.getName(), e);
    }
  }
}
