package dev.cubed.runtime.processes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cubed.runtime.Operation;
import dev.cubed.runtime.TaskFunction;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * {@link FunctionShipping#shippable}, as Spark and Beam use it: the functions are serialized once
 * with client data replaced by its stand-in, the executor's own serialization then carries only
 * those bytes, and the function runs after deserialization; what cannot be shipped is refused
 * naming the op.
 */
class FunctionShippingTest {
  static final List<String> RAN = new CopyOnWriteArrayList<>();

  interface Source extends Serializable {
    String describe();
  }

  /** Client data: 8 MB that must not travel. */
  static final class Held implements Source, ClientData {
    final byte[] big = new byte[8 << 20];

    @Override
    public String describe() {
      return "the held array";
    }

    @Override
    public Serializable shippedForm() {
      return new StandIn(big.length);
    }
  }

  record StandIn(int bytes) implements Source {
    @Override
    public String describe() {
      return "a stand-in for " + bytes + " bytes";
    }
  }

  record Reads(Source source) implements TaskFunction {
    @Override
    public void run(long[] key) {
      RAN.add(key[0] + ": " + source.describe());
    }
  }

  static final class NotSerializable {}

  @Test
  void clientDataTravelsAsItsStandInInsideTheExecutorsOwnSerialization() throws Exception {
    Operation op = new Operation("read", List.of(new long[] {3}), new Reads(new Held()), 0);
    Operation shipped = FunctionShipping.shippable(List.of(op), "spark", "Spark executors").get(0);
    assertThat(shipped.name()).isEqualTo("read");
    assertThat(shipped.keys()).isSameAs(op.keys());
    ByteArrayOutputStream bo = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bo)) {
      out.writeObject(shipped.function()); // as Spark or Beam would
    }
    assertThat(bo.size()).as("serialized function without the 8 MB").isLessThan(4096);
    TaskFunction back;
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bo.toByteArray()))) {
      back = (TaskFunction) in.readObject();
    }
    RAN.clear();
    back.run(new long[] {3});
    back.run(new long[] {4});
    assertThat(RAN)
        .containsExactly("3: a stand-in for 8388608 bytes", "4: a stand-in for 8388608 bytes");
  }

  @Test
  void whatCannotBeShippedIsRefusedNamingTheOp() {
    NotSerializable captured = new NotSerializable();
    TaskFunction bad = key -> captured.hashCode();
    Operation op = new Operation("bad-op", List.of(new long[] {0}), bad, 0);
    assertThatThrownBy(() -> FunctionShipping.shippable(List.of(op), "beam", "Beam workers"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("beam executor")
        .hasMessageContaining("bad-op")
        .hasMessageContaining(NotSerializable.class.getName());
  }
}
