package dev.saferetry.internal.codec;

import com.fasterxml.jackson.core.JsonStreamContext;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Names the place in a body a codec is writing, for an error message: {@code metadata[rates][2]} in
 * the bracket style both codecs use, or {@code the body} at the top. Built only when a message
 * needs it.
 */
@FunctionalInterface
interface Where {
  /** The longest path a message quotes; field names are the caller's text and may be huge. */
  int MAX_LENGTH = 200;

  /** Returns the place, e.g. {@code items[0][amount]}. */
  String describe();

  /**
   * Returns the place of the value about to be written in {@code context}: an array's next index,
   * an object's current field name.
   */
  static String of(JsonStreamContext context) {
    return render(parts(context, true));
  }

  /** Returns the place of field {@code name} of the object being written in {@code context}. */
  static String field(JsonStreamContext context, String name) {
    Deque<String> parts = parts(context.getParent(), false);
    parts.addLast(name);
    return render(parts);
  }

  private static Deque<String> parts(JsonStreamContext context, boolean innermostIsNext) {
    Deque<String> parts = new ArrayDeque<>();
    boolean innermost = innermostIsNext;
    for (JsonStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
      if (c.inArray()) {
        parts.push(Integer.toString(innermost ? c.getEntryCount() : c.getCurrentIndex()));
      } else {
        parts.push(c.getCurrentName() == null ? "?" : c.getCurrentName());
      }
      innermost = false;
    }
    return parts;
  }

  private static String render(Deque<String> parts) {
    if (parts.isEmpty()) {
      return "the body";
    }
    StringBuilder b = new StringBuilder();
    for (String part : parts) {
      if (b.length() == 0) {
        b.append(part);
      } else {
        b.append('[').append(part).append(']');
      }
    }
    return printable(b);
  }

  // Control characters escaped, so a name cannot forge lines in a log; long paths cut.
  private static String printable(CharSequence path) {
    StringBuilder b = new StringBuilder(Math.min(path.length(), MAX_LENGTH) + 8);
    for (int i = 0; i < path.length(); i++) {
      if (b.length() >= MAX_LENGTH) {
        return b.append("...").toString();
      }
      char c = path.charAt(i);
      if (Character.isISOControl(c) || Character.isSurrogate(c)) {
        b.append(String.format("\\u%04X", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }
}
