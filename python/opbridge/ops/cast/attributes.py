# SPDX-License-Identifier: Apache-2.0
import dataclasses

from opbridge.ir import DType


@dataclasses.dataclass(frozen=True)
class CastAttributes:
    """CAST's target type.

    In a LiteRT model the target is the output tensor's own type: TFLite Micro
    reads no CastOptions, and models often carry none (the audio front end's
    four CASTs do not), so the LiteRT parser copies the output tensor's type
    here. It is an attribute so that the schema can infer the output dtype from
    the node alone, as ONNX's Cast does with its `to`.
    """

    out_data_type: DType
