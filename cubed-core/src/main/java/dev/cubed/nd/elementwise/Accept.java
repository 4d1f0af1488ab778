package dev.cubed.nd.elementwise;

import dev.cubed.nd.DType;
import java.util.function.Predicate;

/**
 * The dtype categories of the standard an elementwise function accepts, with the checks that throw
 * the library's IllegalArgumentExceptions (function name, dtypes, rule). Java scalar operands
 * become 0-d arrays through {@link dev.cubed.nd.DataTypes#scalarOperand}.
 */
enum Accept {
  ANY("any dtype", d -> true),
  BOOL("bool", DType::isBool),
  NUMERIC("numeric dtypes (integer, real or complex floating)", DType::isNumeric),
  REAL_NUMERIC("real numeric dtypes (integer or real floating)", DType::isRealNumeric),
  INTEGER("integer dtypes", DType::isInteger),
  INTEGER_OR_BOOL("integer or bool dtypes", d -> d.isInteger() || d.isBool()),
  FLOATING("floating-point dtypes (real or complex)", DType::isFloating),
  REAL_FLOATING("real floating-point dtypes (float32, float64)", DType::isRealFloating);

  private final String description;
  private final Predicate<DType> test;

  Accept(String description, Predicate<DType> test) {
    this.description = description;
    this.test = test;
  }

  String description() {
    return description;
  }

  boolean accepts(DType d) {
    return test.test(d);
  }

  /** Throws unless {@code computed} is accepted; the message names the input dtypes. */
  void check(String fn, DType computed, DType... inputs) {
    if (accepts(computed)) {
      return;
    }
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < inputs.length; i++) {
      b.append(i == 0 ? "" : " and ").append(inputs[i]);
    }
    String promoted =
        (inputs.length > 1 || inputs[0] != computed) ? " (promoted to " + computed + ")" : "";
    throw new IllegalArgumentException(
        fn
            + ": dtype "
            + b
            + promoted
            + " is not supported: "
            + fn
            + " is defined for "
            + description);
  }
}
