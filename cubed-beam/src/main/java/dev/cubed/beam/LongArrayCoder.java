package dev.cubed.beam;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.CoderException;

/**
 * Beam coder of a task key ({@code long[]}): the length as an int, then each value as 8 bytes,
 * big-endian. Deterministic (equal keys encode to equal bytes).
 */
final class LongArrayCoder extends AtomicCoder<long[]> {
  private static final long serialVersionUID = 1L;
  private static final LongArrayCoder INSTANCE = new LongArrayCoder();

  /** Longest key accepted when decoding (a corrupt length fails instead of allocating). */
  static final int MAX_RANK = 1024;

  private LongArrayCoder() {}

  static LongArrayCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(long[] value, OutputStream out) throws IOException {
    DataOutputStream d = new DataOutputStream(out);
    d.writeInt(value.length);
    for (long v : value) {
      d.writeLong(v);
    }
    d.flush();
  }

  @Override
  public long[] decode(InputStream in) throws IOException {
    DataInputStream d = new DataInputStream(in);
    int n = d.readInt();
    if (n < 0 || n > MAX_RANK) {
      throw new CoderException(
          "LongArrayCoder: key length "
              + n
              + " is outside [0, "
              + MAX_RANK
              + "]; the encoded key is corrupt");
    }
    long[] v = new long[n];
    for (int i = 0; i < n; i++) {
      v[i] = d.readLong();
    }
    return v;
  }

  @Override
  public boolean consistentWithEquals() {
    return false; // arrays compare by identity; structural values are the encoded bytes
  }

  private Object readResolve() {
    return INSTANCE;
  }
}
