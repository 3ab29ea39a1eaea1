# SPDX-License-Identifier: Apache-2.0
"""LiteRT option values the operators' importers share."""

from opbridge.errors import UnsupportedOperatorError
from opbridge.ir.attribute_types import Activation


def litert_activation(code: int) -> Activation:
    """A LiteRT fused-activation code; TANH and SIGN_BIT fused into an op are not supported."""
    try:
        return Activation(code)
    except ValueError:
        raise UnsupportedOperatorError(
            f"fused activation {code} is not supported (supported: NONE, RELU, RELU_N1_TO_1, RELU6)",
            hint="export the model with the activation as a separate operator",
        ) from None
