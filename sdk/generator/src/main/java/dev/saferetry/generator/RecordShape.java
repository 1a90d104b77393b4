package dev.saferetry.generator;

import com.palantir.javapoet.TypeName;
import java.util.List;

/**
 * What the generator knows of a record it wrote: its properties in order, each with the JSON name,
 * the Java name and type, and how it is sent.
 */
record RecordShape(List<Property> properties, String extraName) {
  record Property(
      String json,
      String member,
      TypeName type,
      boolean required,
      boolean tristate,
      boolean secret,
      boolean decimal,
      String description) {}

  Property byJson(String json) {
    for (Property p : properties) {
      if (p.json().equals(json)) {
        return p;
      }
    }
    return null;
  }
}
