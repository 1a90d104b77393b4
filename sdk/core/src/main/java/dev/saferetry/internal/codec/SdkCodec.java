package dev.saferetry.internal.codec;

/**
 * A body codec whose encoding is one of the SDK's own {@link Encoder}s: canonical, so that a call
 * encodes its body once, for the wire and its fingerprint alike.
 */
public interface SdkCodec {
  /** {@return the encoder that writes this codec's bodies} */
  Encoder encoder();
}
