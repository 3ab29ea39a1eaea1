# SPDX-License-Identifier: Apache-2.0
"""ARG_MAX's and ARG_MIN's attributes."""

import dataclasses

from opbridge.ir import DType


@dataclasses.dataclass(frozen=True)
class ArgMinMaxAttributes:
    """The index type of the output, int32 or int64.

    TFLite Micro writes the indices in the output tensor's own type (it reads
    no ArgMaxOptions), so the LiteRT parser copies that type here, as CAST's
    does; ONNX ArgMax and ArgMin give int64. It is an attribute so that the
    schema can infer the output dtype from the node alone.
    """

    output_type: DType = DType.INT32
