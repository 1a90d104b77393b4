package dev.saferetry.internal.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.util.JsonGeneratorDelegate;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;

/**
 * What both codecs write through: checks every number ({@link Numbers}) and refuses an object that
 * would hold one field name twice (a map key serialized like a property, an any-getter entry named
 * like a field, two keys with one text: a server would keep either). Everything the serializers
 * write passes here, including values written as trees, copied from parsers, or replayed from a
 * buffer; primitive arrays are taken element by element so none slips past.
 *
 * <p>Remembers the field names of the top-level object, so a codec can add a field to a body
 * without reading it back. One per encoding; not thread-safe.
 */
final class CheckedGenerator extends JsonGeneratorDelegate {
  // Stands for an open array on the stack of open containers: it has no names.
  private static final Set<String> ARRAY = Collections.emptySet();

  private final Deque<Set<String>> open = new ArrayDeque<>();
  private Set<String> topLevelNames;

  CheckedGenerator(JsonGenerator target) {
    super(target, false); // tree and copy methods call back into this, so they are checked too
  }

  /** The names of the top-level object's fields; empty if the value was not an object. */
  Set<String> topLevelNames() {
    return topLevelNames == null ? Set.of() : topLevelNames;
  }

  private final Where where = () -> Where.of(getOutputContext());

  private void openObject() {
    Set<String> names = new HashSet<>();
    if (open.isEmpty() && topLevelNames == null) {
      topLevelNames = names;
    }
    open.push(names);
  }

  @Override
  public void writeStartObject() throws IOException {
    openObject();
    super.writeStartObject();
  }

  @Override
  public void writeStartObject(Object forValue) throws IOException {
    openObject();
    super.writeStartObject(forValue);
  }

  @Override
  public void writeStartObject(Object forValue, int size) throws IOException {
    openObject();
    super.writeStartObject(forValue, size);
  }

  @Override
  public void writeEndObject() throws IOException {
    open.poll();
    super.writeEndObject();
  }

  @Override
  public void writeStartArray() throws IOException {
    open.push(ARRAY);
    super.writeStartArray();
  }

  @Override
  public void writeStartArray(int size) throws IOException {
    open.push(ARRAY);
    super.writeStartArray(size);
  }

  @Override
  public void writeStartArray(Object forValue) throws IOException {
    open.push(ARRAY);
    super.writeStartArray(forValue);
  }

  @Override
  public void writeStartArray(Object forValue, int size) throws IOException {
    open.push(ARRAY);
    super.writeStartArray(forValue, size);
  }

  @Override
  public void writeEndArray() throws IOException {
    open.poll();
    super.writeEndArray();
  }

  @Override
  public void writeFieldName(String name) throws IOException {
    checkName(name);
    super.writeFieldName(name);
  }

  @Override
  public void writeFieldName(SerializableString name) throws IOException {
    checkName(name.getValue());
    super.writeFieldName(name);
  }

  @Override
  public void writeFieldId(long id) throws IOException {
    writeFieldName(Long.toString(id));
  }

  private void checkName(String name) {
    Set<String> names = open.peek();
    if (names != null && names != ARRAY && !names.add(name)) {
      throw new BodyRefusal(
          "the body would hold field "
              + Where.field(getOutputContext(), name)
              + " twice (two map keys with the same text, or a map entry named like a property);"
              + " a server would keep only one of them");
    }
  }

  @Override
  public void writeNumber(BigDecimal value) throws IOException {
    if (value != null) {
      Numbers.check(value, where);
    }
    super.writeNumber(value);
  }

  @Override
  public void writeNumber(BigInteger value) throws IOException {
    if (value != null) {
      Numbers.check(value, where);
    }
    super.writeNumber(value);
  }

  @Override
  public void writeNumber(double value) throws IOException {
    Numbers.check(value, where);
    super.writeNumber(value);
  }

  @Override
  public void writeNumber(float value) throws IOException {
    Numbers.check(value, where);
    super.writeNumber(value);
  }

  @Override
  public void writeNumber(String encodedValue) throws IOException {
    if (encodedValue != null) {
      Numbers.check(encodedValue, where);
    }
    super.writeNumber(encodedValue);
  }

  @Override
  public void writeNumber(char[] encodedValue, int offset, int length) throws IOException {
    writeNumber(new String(encodedValue, offset, length));
  }

  @Override
  public void writeArray(double[] array, int offset, int length) throws IOException {
    writeStartArray(array, length);
    for (int i = offset; i < offset + length; i++) {
      writeNumber(array[i]);
    }
    writeEndArray();
  }

  @Override
  public void writeArray(int[] array, int offset, int length) throws IOException {
    writeStartArray(array, length);
    for (int i = offset; i < offset + length; i++) {
      writeNumber(array[i]);
    }
    writeEndArray();
  }

  @Override
  public void writeArray(long[] array, int offset, int length) throws IOException {
    writeStartArray(array, length);
    for (int i = offset; i < offset + length; i++) {
      writeNumber(array[i]);
    }
    writeEndArray();
  }

  @Override
  public void writeArray(String[] array, int offset, int length) throws IOException {
    writeStartArray(array, length);
    for (int i = offset; i < offset + length; i++) {
      writeString(array[i]);
    }
    writeEndArray();
  }
}
