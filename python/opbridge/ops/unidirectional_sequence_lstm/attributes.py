# SPDX-License-Identifier: Apache-2.0
import dataclasses
import enum


class CellGateActivation(enum.Enum):
    """The cell gate's activation (LiteRT's fused_activation_function code).

    TFLite Micro's kernel applies only tanh there (and sigmoid, which LiteRT's schema cannot express);
    the hidden state always uses tanh of the cell state, whatever this says.
    """

    TANH = 4


@dataclasses.dataclass(frozen=True)
class LstmAttributes:
    activation: CellGateActivation = CellGateActivation.TANH
    # The cell state is clamped to [-cell_clip, cell_clip] after each update when cell_clip > 0.
    cell_clip: float = 0.0
    # Clamp of the projection output: TFLite Micro has no projection, so it has no effect.
    proj_clip: float = 0.0
    # Input [time, batch, input_size] when true, [batch, time, input_size] otherwise.
    time_major: bool = False
