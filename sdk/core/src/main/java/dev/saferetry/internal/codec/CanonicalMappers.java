package dev.saferetry.internal.codec;

import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.DateSerializer;
import java.text.DateFormatSymbols;
import java.text.SimpleDateFormat;
import java.util.Locale;
import java.util.TimeZone;

/**
 * The configuration both codecs add to the caller's mapper so that a value is written as the same
 * bytes in every process, whatever its default locale, time zone or JDK:
 *
 * <ul>
 *   <li>map entries in key order, sets sorted, collections without an order refused ({@link
 *       CanonicalOrder});
 *   <li>floating-point numbers in Jackson's shortest form, which does not change with the JDK;
 *   <li>{@link Locale#US} for anything Jackson formats with a locale (a date pattern's month and
 *       day names: {@code Thursday}, as protocol dates are written), instead of the JVM's default
 *       locale, which Jackson takes by default, and instead of a locale set on the mapper;
 *   <li>{@code java.sql.Date} and {@code java.sql.Time} as instants, like {@code java.util.Date} (a
 *       timestamp, or text in the mapper's time zone, UTC unless set): Jackson writes them as text
 *       in the JVM's default time zone.
 * </ul>
 *
 * The mapper's own time zone stays as the caller set it (Jackson's default is UTC in every JVM).
 */
final class CanonicalMappers {
  private CanonicalMappers() {}

  /** Configures {@code copy}, a copy of the caller's mapper that the codec owns; returns it. */
  static ObjectMapper configure(ObjectMapper copy) {
    copy.enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
    copy.getFactory().enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER.mappedFeature());
    copy.setLocale(Locale.US);
    SimpleModule module = new SimpleModule("saferetry-canonical-bodies");
    module.setSerializerModifier(new CanonicalOrder());
    module.addSerializer(java.sql.Date.class, new DateSerializer());
    module.addSerializer(java.sql.Time.class, new DateSerializer());
    copy.registerModule(module);
    withoutJvmDefaults(copy);
    return copy;
  }

  private static void withoutJvmDefaults(ObjectMapper copy) {
    if (!(copy.getSerializationConfig().getDateFormat() instanceof SimpleDateFormat format)) {
      return; // Jackson's own format: the mapper's time zone, no names
    }
    SimpleDateFormat fixed = (SimpleDateFormat) format.clone();
    if (format.getDateFormatSymbols().equals(DateFormatSymbols.getInstance())) {
      fixed = new SimpleDateFormat(format.toPattern(), Locale.US);
      fixed.setLenient(format.isLenient());
    }
    TimeZone zone = format.getTimeZone();
    fixed.setTimeZone(
        zone.equals(TimeZone.getDefault()) ? copy.getSerializationConfig().getTimeZone() : zone);
    copy.setDateFormat(fixed);
  }
}
