package dev.cubed.bridge;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamException;
import java.io.Serial;
import java.io.Serializable;
import java.util.List;

/**
 * What a pickled plan's immutable lists ({@code List.of}, written by the JDK as {@code
 * java.util.CollSer}) are read as ({@link PlanBytes}' reader resolves that class to this one: same
 * simple name, serial version and form). Only lists are accepted: the JDK's class also carries
 * immutable sets and maps, whose reading hashes every element, so a few KB of nested sets would
 * make it hash 2^n of them; plans hold none, and a payload naming one is refused.
 */
final class CollSer implements Serializable {
  @Serial private static final long serialVersionUID = 6309168927139932177L;

  private static final int IMM_LIST = 1;
  private static final int IMM_LIST_NULLS = 4;

  private final int tag;
  private transient Object[] array;

  private CollSer(int tag) {
    this.tag = tag;
  }

  @Serial
  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    int kind = tag & 0xff;
    if (kind != IMM_LIST && kind != IMM_LIST_NULLS) {
      throw new InvalidObjectException(
          "an immutable set or map (java.util.CollSer kind "
              + kind
              + ") in a pickled plan: plans hold none, refused");
    }
    int len = in.readInt();
    if (len < 0) {
      throw new InvalidObjectException("immutable list of negative length " + len);
    }
    Object[] a = new Object[Math.min(len, 1 << 16)];
    for (int i = 0; i < len; i++) {
      if (i == a.length) {
        a = java.util.Arrays.copyOf(a, Math.min(len, a.length * 2));
      }
      a[i] = in.readObject();
    }
    array = a;
  }

  @Serial
  private Object readResolve() throws ObjectStreamException {
    return (tag & 0xff) == IMM_LIST_NULLS
        ? java.util.Collections.unmodifiableList(java.util.Arrays.asList(array))
        : List.of(array);
  }
}
