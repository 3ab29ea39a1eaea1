# SPDX-License-Identifier: Apache-2.0
import dataclasses


@dataclasses.dataclass(frozen=True)
class SoftmaxAttributes:
    beta: float = 1.0
    # An int8 input written as int16 (TFLite's int8 -> int16 softmax: output scale 1/65536, zero point -32768).
    # In a LiteRT model it is the output tensor's own type, which the LiteRT parser copies here (SoftmaxOptions has
    # no field for it), so that the schema can infer the output dtype from the node alone (as QUANTIZE's).
    int16_output: bool = False
