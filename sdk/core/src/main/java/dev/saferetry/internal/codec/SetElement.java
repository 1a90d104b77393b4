package dev.saferetry.internal.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.util.RawValue;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * One element of a set as written, with the order sets are written in: token by token, scalars
 * before containers (null, false, true, numbers, text, binary and raw JSON, then arrays and
 * objects), numbers by value (then by type and text: {@code 1.0} before {@code 1.00}), text by
 * {@link String#compareTo}, a shorter array or object before a longer one that starts alike. Two
 * elements compare equal only when every token is the same, so they are written as the same bytes:
 * the order never depends on the order the set handed them out. Immutable.
 */
record SetElement(TokenBuffer tokens, List<Token> key) implements Comparable<SetElement> {

  /** One token of the key: its rank, and for scalars and names its value. */
  record Token(int rank, BigDecimal number, int numberType, String text)
      implements Comparable<Token> {
    @Override
    public int compareTo(Token o) {
      int c = Integer.compare(rank, o.rank);
      if (c == 0 && number != null && o.number != null) {
        c = number.compareTo(o.number);
        if (c == 0) {
          c = Integer.compare(numberType, o.numberType);
        }
      }
      if (c == 0 && text != null && o.text != null) {
        c = text.compareTo(o.text);
      }
      return c;
    }
  }

  /** Reads the element's tokens; refuses a number outside the codecs' bound before formatting. */
  static SetElement of(TokenBuffer tokens, Where where) throws IOException {
    List<Token> key = new ArrayList<>();
    try (JsonParser p = tokens.asParser()) {
      for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
        key.add(token(p, t, where));
      }
    }
    return new SetElement(tokens, key);
  }

  private static Token token(JsonParser p, JsonToken t, Where where) throws IOException {
    switch (t) {
      case END_ARRAY:
      case END_OBJECT:
        return new Token(0, null, 0, null);
      case VALUE_NULL:
        return new Token(1, null, 0, null);
      case VALUE_FALSE:
        return new Token(2, null, 0, null);
      case VALUE_TRUE:
        return new Token(3, null, 0, null);
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        return number(p, where);
      case VALUE_STRING:
        return new Token(5, null, 0, p.getText());
      case VALUE_EMBEDDED_OBJECT:
        Object o = p.getEmbeddedObject();
        String text =
            o instanceof byte[] bytes
                ? Base64.getEncoder().encodeToString(bytes)
                : o instanceof RawValue raw ? String.valueOf(raw.rawValue()) : String.valueOf(o);
        return new Token(6, null, 0, text);
      case FIELD_NAME:
        return new Token(7, null, 0, p.currentName());
      case START_ARRAY:
        return new Token(8, null, 0, null);
      default:
        return new Token(9, null, 0, null); // START_OBJECT
    }
  }

  private static Token number(JsonParser p, Where where) throws IOException {
    JsonParser.NumberType type;
    try {
      type = p.getNumberType();
    } catch (RuntimeException e) {
      return new Token(4, null, 0, p.getText()); // number text Jackson cannot read back
    }
    switch (type) {
      case INT:
      case LONG:
        long l = p.getLongValue();
        return new Token(4, BigDecimal.valueOf(l), type.ordinal(), Long.toString(l));
      case BIG_INTEGER:
        BigInteger i = p.getBigIntegerValue();
        Numbers.check(i, where);
        return new Token(4, new BigDecimal(i), type.ordinal(), i.toString());
      case BIG_DECIMAL:
        BigDecimal d = p.getDecimalValue();
        Numbers.check(d, where);
        return new Token(4, d, type.ordinal(), d.toString());
      case FLOAT:
        float f = p.getFloatValue();
        Numbers.check(f, where);
        return new Token(4, new BigDecimal(Numbers.text(f)), type.ordinal(), Numbers.text(f));
      default:
        double v = p.getDoubleValue();
        Numbers.check(v, where);
        return new Token(4, new BigDecimal(Numbers.text(v)), type.ordinal(), Numbers.text(v));
    }
  }

  @Override
  public int compareTo(SetElement o) {
    int n = Math.min(key.size(), o.key.size());
    for (int i = 0; i < n; i++) {
      int c = key.get(i).compareTo(o.key.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(key.size(), o.key.size());
  }
}
