"""Shape rules shared by several operators' inference functions."""

from opbridge.schemas.schema import InferenceContext


def broadcast(ctx: InferenceContext, first: tuple[int, ...], second: tuple[int, ...]) -> tuple[int, ...]:
    """NumPy broadcasting of two shapes (sizes equal, or one of them 1; -1 stays unknown)."""
    rank = max(len(first), len(second))
    a = (1,) * (rank - len(first)) + tuple(first)
    b = (1,) * (rank - len(second)) + tuple(second)
    result = []
    for axis, (x, y) in enumerate(zip(a, b, strict=True)):
        if x == y or y == 1:
            result.append(x)
        elif x == 1:
            result.append(y)
        elif x == -1 or y == -1:
            result.append(max(x, y))
        else:
            raise ctx.fail(
                f"shapes {list(first)} and {list(second)} do not broadcast (axis {axis}: {x} vs {y})",
                hint="sizes must be equal or 1 on every axis, counted from the last",
            )
    return tuple(result)
