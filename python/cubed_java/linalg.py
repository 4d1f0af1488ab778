"""The Array API ``linalg`` extension: matmul, tensordot, vecdot and matrix_transpose run in the
engine; the rest raise NotImplementedError naming the function until dev.cubed.Xp has them
(:data:`NOT_YET` maps each name to the Java method it will call)."""
from .array_api import _wire, matmul, matrix_transpose, tensordot, vecdot  # noqa: F401

NOT_YET = {n: "XpLinalg." + n for n in (
    "cholesky", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv",
    "matrix_norm", "matrix_power", "matrix_rank", "outer", "pinv", "qr", "slogdet", "solve",
    "svd", "svdvals", "trace", "vector_norm")}
_wire(NOT_YET, globals())
