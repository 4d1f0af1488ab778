"""Exceptions raised for errors reported by the JVM: each carries the Java class name and message.

Every message has the credentials of URLs in it hidden (``scheme://user:password@host`` becomes
``scheme://***@host``): see ``redact``."""
import re

#: scheme "://" user information "@" (the user information has no '/', whitespace, quote or '@')
_USERINFO = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*://)[^/\s@'\"<>]+@")


def redact(text):
    """``text`` with the user information of every URL in it (``user:password@``, or a token as
    the user name) replaced by ``***``; text without such URLs is returned unchanged."""
    return _USERINFO.sub(r"\1***@", text) if isinstance(text, str) else text


class BridgeError(RuntimeError):
    """The JVM could not be started or reached, or it stopped."""

    def __init__(self, message):
        super().__init__(redact(message))


class JavaError(Exception):
    """An exception thrown on the Java side; str() is the Java message."""

    java_class = "java.lang.Exception"

    def __init__(self, message, java_class=None):
        super().__init__(redact(message))
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
    """The JVM ran out of heap (OutOfMemoryError) during one call. The call's objects are
    garbage afterwards, so the session and its arrays go on; the message says what to do (a
    bigger heap with CUBED_JAVA_OPTS=-Xmx..., a smaller allowed_mem, or a smaller result)."""

    def __init__(self, message, java_class=None):
        if java_class is not None:  # from the JVM: its own words, in a sentence that helps
            message = (
                f"the cubed_java JVM ran out of heap memory during this call ({java_class}:"
                f" {message}). The session is still alive: arrays made before can be used."
                f" Give the JVM a bigger heap (CUBED_JAVA_OPTS='-Xmx8g -XX:+UseParallelGC', then"
                f" cubed_java.restart(); the default is -Xmx4g), let tasks use less memory"
                f" (cubed_java.configure(allowed_mem=...) well below the heap), or compute a"
                f" smaller result at once (a slice, or to_zarr instead of compute)")
        super().__init__(message, java_class)


class JavaOSError(JavaError, OSError):
    """A store could not be read or written: an unreachable server, a failing disk, a service
    that kept failing after the store's own retries (Java's IOException/UncheckedIOException)."""


class MalformedFrameError(JavaError):
    """The JVM refused a message that does not follow the bridge protocol."""


#: The error kind byte of an error reply (BridgeMain.ERR_* on the Java side; the two lists are
#: compared by tests/test_bridge_names.py).
ERR_OTHER = 0
ERR_ARGUMENT = 1
ERR_UNSUPPORTED = 2
ERR_INDEX = 3
ERR_ARITHMETIC = 4
ERR_MEMORY = 5
ERR_MALFORMED = 6
ERR_IO = 7

_BY_KIND = {ERR_OTHER: JavaError, ERR_ARGUMENT: JavaValueError,
            ERR_UNSUPPORTED: JavaNotImplementedError, ERR_INDEX: JavaIndexError,
            ERR_ARITHMETIC: JavaArithmeticError, ERR_MEMORY: JavaMemoryError,
            ERR_MALFORMED: MalformedFrameError, ERR_IO: JavaOSError}


#: The Java API's way to raise the memory budget in the engine's refusal, and Python's way.
_JAVA_ALLOWED_MEM = "Spec.builder().allowedMem(...)"
_PYTHON_ALLOWED_MEM = "cubed_java.configure(allowed_mem=...)"


def from_java(kind, java_class, message):
    """The Python exception for an error reply (kind: the bridge's error kind byte). The engine's
    memory refusal (MemoryBudgetExceededException) names the Python setting, not the Java one."""
    if isinstance(message, str) and str(java_class).endswith("MemoryBudgetExceededException"):
        message = message.replace(_JAVA_ALLOWED_MEM, _PYTHON_ALLOWED_MEM)
    return _BY_KIND.get(kind, JavaError)(message, java_class)
