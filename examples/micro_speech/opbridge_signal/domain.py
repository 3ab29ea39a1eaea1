# SPDX-License-Identifier: Apache-2.0
"""The opset domain of TFLM's Signal operators, and what their schemas share."""

from collections.abc import Callable
from typing import Any, TypeVar

from opbridge.schemas.opsets import OpsetDomain
from opbridge.schemas.schema import InferenceContext

SIGNAL_DOMAIN = "tflm.signal"
SIGNAL_OPSET = OpsetDomain(
    SIGNAL_DOMAIN, 1, 1, "TFLite Micro's audio front end operators (signal/micro/kernels), by their custom codes"
)

T = TypeVar("T")


def checked(ctx: InferenceContext, check: Callable[..., T], *args: Any) -> T:
    """One of the operator's own shape checks (which raise ValueError) as a ShapeInferenceError naming the node."""
    try:
        return check(*args)
    except ValueError as error:
        raise ctx.fail(str(error), hint="the shapes or attributes are ones TFLite Micro cannot run") from None


def known(*shapes: tuple[int, ...]) -> bool:
    """No size is -1 (known only at run time): the operator's checks can run on these shapes."""
    return all(-1 not in shape for shape in shapes)
