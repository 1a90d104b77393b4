package dev.saferetry.generator;

import com.palantir.javapoet.ClassName;

/** The classes generated code refers to: saferetry-core's and Jackson's annotations. */
final class Types {
  private Types() {}

  private static final String ANN = "com.fasterxml.jackson.annotation";
  static final ClassName JSON_PROPERTY = ClassName.get(ANN, "JsonProperty");
  static final ClassName JSON_INCLUDE = ClassName.get(ANN, "JsonInclude");
  static final ClassName JSON_INCLUDE_KIND = ClassName.get(ANN, "JsonInclude", "Include");
  static final ClassName JSON_ANY_SETTER = ClassName.get(ANN, "JsonAnySetter");
  static final ClassName JSON_ANY_GETTER = ClassName.get(ANN, "JsonAnyGetter");
  static final ClassName JSON_CREATOR = ClassName.get(ANN, "JsonCreator");
  static final ClassName JSON_VALUE = ClassName.get(ANN, "JsonValue");
  static final ClassName JSON_TYPE_INFO = ClassName.get(ANN, "JsonTypeInfo");
  static final ClassName JSON_TYPE_INFO_ID = ClassName.get(ANN, "JsonTypeInfo", "Id");
  static final ClassName JSON_TYPE_INFO_AS = ClassName.get(ANN, "JsonTypeInfo", "As");
  static final ClassName JSON_SUB_TYPES = ClassName.get(ANN, "JsonSubTypes");
  static final ClassName JSON_SUB_TYPE = ClassName.get(ANN, "JsonSubTypes", "Type");
  static final ClassName JSON_FORMAT = ClassName.get(ANN, "JsonFormat");
  static final ClassName JSON_FORMAT_SHAPE = ClassName.get(ANN, "JsonFormat", "Shape");
  static final ClassName JSON_PROPERTY_ACCESS = ClassName.get(ANN, "JsonProperty", "Access");

  static final ClassName CLIENT = ClassName.get("dev.saferetry", "SafeRetryClient");
  static final ClassName OPERATION = ClassName.get("dev.saferetry", "Operation");
  static final ClassName REQUEST_OPTIONS = ClassName.get("dev.saferetry", "RequestOptions");
  static final ClassName CALL_RESULT = ClassName.get("dev.saferetry", "CallResult");
  static final ClassName TYPE_REF = ClassName.get("dev.saferetry.codec", "TypeRef");
  static final ClassName BODY_CODEC = ClassName.get("dev.saferetry.codec", "BodyCodec");
  static final ClassName FORM_STYLE = ClassName.get("dev.saferetry.codec", "FormStyle");
  static final ClassName QUERY_PARAMS = ClassName.get("dev.saferetry.codec", "QueryParams");
  static final ClassName KEY_PLACEMENT = ClassName.get("dev.saferetry.idempotency", "KeyPlacement");
  static final ClassName PAGE_STYLE = ClassName.get("dev.saferetry.pagination", "PageStyle");
  static final ClassName PAGED_ITERABLE =
      ClassName.get("dev.saferetry.pagination", "PagedIterable");
  static final ClassName EXPANDABLE = ClassName.get("dev.saferetry.model", "Expandable");
  static final ClassName FIELD_VALUE = ClassName.get("dev.saferetry.model", "FieldValue");
  static final ClassName UNIX_TIME = ClassName.get("dev.saferetry.model", "UnixTime");
}
