package dev.cubed.runtime.processes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;

/** The allow-lists and limits of {@link DeserializationFilters}. */
class DeserializationFiltersTest {
  private static byte[] write(Object o) throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(b)) {
      out.writeObject(o);
    }
    return b.toByteArray();
  }

  private static Object read(byte[] b, LongFunction<ObjectInputFilter> filter) throws Exception {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b))) {
      in.setObjectInputFilter(filter.apply(b.length));
      return in.readObject();
    }
  }

  /** A user's class (not of the JDK, not of dev.cubed... by name). */
  record UserFunction(double k) implements Serializable {}

  @Test
  void tasksAllowUserClassesAndLambdasButNoOtherJdkPackage() throws Exception {
    Function<Double, Double> f =
        (Function<Double, Double> & Serializable) v -> v * new UserFunction(2).k();
    @SuppressWarnings("unchecked")
    Function<Double, Double> back =
        (Function<Double, Double>) read(write(f), DeserializationFilters::tasks);
    assertThat(back.apply(3.0)).isEqualTo(6.0);
    assertThat(
            read(
                write(new java.util.HashMap<>(java.util.Map.of("a", 1))),
                DeserializationFilters::tasks))
        .isEqualTo(java.util.Map.of("a", 1));
    // a JDK class outside the allowed ones (javax.management: a classic gadget chain's start)
    Object gadget = new javax.management.BadAttributeValueExpException("x");
    assertThatThrownBy(() -> read(write(gadget), DeserializationFilters::tasks))
        .isInstanceOf(InvalidClassException.class)
        .hasMessageContaining("REJECTED");
  }

  @Test
  void plansAllowOnlyTheEngineAndAFewJdkTypes() throws Exception {
    assertThat(
            read(
                write(new java.util.TreeMap<>(java.util.Map.of("a", 1L))),
                DeserializationFilters::plans))
        .isEqualTo(java.util.Map.of("a", 1L));
    for (Object o :
        List.of(
            new java.util.HashSet<>(List.of(1)),
            new java.util.HashMap<>(),
            new java.util.LinkedList<>())) {
      assertThatThrownBy(() -> read(write(o), DeserializationFilters::plans))
          .as(o.getClass().getName())
          .isInstanceOf(InvalidClassException.class);
    }
  }

  @Test
  void anArrayLongerThanThePayloadIsRefusedBeforeItIsAllocated() throws Exception {
    byte[] b = write(new long[3]);
    java.nio.ByteBuffer.wrap(b).putInt(b.length - 3 * 8 - 4, Integer.MAX_VALUE - 8);
    for (LongFunction<ObjectInputFilter> f :
        List.<LongFunction<ObjectInputFilter>>of(
            DeserializationFilters::plans, DeserializationFilters::tasks)) {
      assertThatThrownBy(() -> read(b, f)).isInstanceOf(InvalidClassException.class);
    }
  }
}
