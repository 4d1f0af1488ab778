"""Exceptions raised for errors reported by the JVM: each carries the Java class name and message."""


class BridgeError(RuntimeError):
    """The JVM could not be started or reached, or it stopped."""


class JavaError(Exception):
    """An exception thrown on the Java side; str() is the Java message."""

    java_class = "java.lang.Exception"

    def __init__(self, message, java_class=None):
        super().__init__(message)
        if java_class is not None:
            self.java_class = java_class


class JavaValueError(JavaError, ValueError):
    """IllegalArgumentException (and its subclasses): an argument was wrong."""


class JavaNotImplementedError(JavaError, NotImplementedError):
    """UnsupportedOperationException: the engine does not have this yet."""


class JavaIndexError(JavaError, IndexError):
    """IndexOutOfBoundsException."""


class JavaArithmeticError(JavaError, ArithmeticError):
    """ArithmeticException (for example an integer overflow of a shape)."""


class JavaMemoryError(JavaError, MemoryError):
    """OutOfMemoryError in the JVM (raise its heap with CUBED_JAVA_OPTS=-Xmx...)."""


class MalformedFrameError(JavaError):
    """The JVM refused a message that does not follow the bridge protocol."""


_BY_KIND = {1: JavaValueError, 2: JavaNotImplementedError, 3: JavaIndexError,
            4: JavaArithmeticError, 5: JavaMemoryError, 6: MalformedFrameError}


def from_java(kind, java_class, message):
    """The Python exception for an error reply (kind: the bridge's error kind byte)."""
    return _BY_KIND.get(kind, JavaError)(message, java_class)
