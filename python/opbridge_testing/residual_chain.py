# SPDX-License-Identifier: Apache-2.0
"""Int8 residual chains of any length as LiteRT models, for timing conversion.

A 1x1 stem convolution, then MobileNet-v2 inverted residual blocks (1x1
expanding convolution, 3x3 depthwise convolution, 1x1 projecting
convolution, ADD of the block's input): four nodes each. Nodes left over
when `nodes - 1` is not a multiple of four are 3x3 depthwise convolutions at
the end. Quantized as TFLite's converter does (per-channel symmetric
weights, int32 biases at input scale x weight scale, asymmetric
activations), with seeded random weights; written with LiteRT's own schema
bindings (mobilenet.ModelWriter), so no TensorFlow is needed.

Each depthwise convolution may run in place, so a chain of N nodes asks the
memory planner about N / 4 in-place candidates: the case that made
conversion time grow faster than the model (tests/benchmarks/conversion_time.py).
"""

import numpy as np
from ai_edge_litert import schema_py_generated as schema

from opbridge_testing.mobilenet import Activation, ModelWriter, convolution


def residual_chain(nodes: int, size: int = 8, channels: int = 8, expansion: int = 4, seed: int = 0) -> bytes:
    """The .tflite bytes of a chain of `nodes` operators (at least 1); same arguments, same bytes."""
    if nodes < 1:
        raise ValueError(f"a residual chain needs at least one node, got {nodes}")
    rng = np.random.default_rng(seed)
    writer = ModelWriter()
    shape = [1, size, size, channels]
    image = Activation(writer.tensor("input", shape, schema.TensorType.INT8, [1 / 128], [0]), shape, 1 / 128, 0, 0.577)
    x = convolution(writer, rng, "stem", image, channels, 1, 1, depthwise=False)
    stem_spread = x.spread
    blocks, left = divmod(nodes - 1, 4)
    for block in range(blocks):
        expanded = convolution(writer, rng, f"block_{block}/expand", x, channels * expansion, 1, 1, depthwise=False)
        filtered = convolution(writer, rng, f"block_{block}/depthwise", expanded, 0, 3, 1, depthwise=True)
        projected = convolution(writer, rng, f"block_{block}/project", filtered, channels, 1, 1, False, relu=False)
        x = _add(writer, x, projected, stem_spread)
    for extra in range(left):
        x = convolution(writer, rng, f"tail_{extra}/depthwise", x, 0, 3, 1, depthwise=True)
    description = f"opbridge int8 residual chain of {nodes} nodes, random weights (seed {seed})"
    return writer.finish([image.index], [x.index], description)


def _add(writer: ModelWriter, first: Activation, second: Activation, spread: float) -> Activation:
    """ADD of the block's input and its projection, into a tensor scaled for the sum of two
    independent terms; the next block takes it as having the stem's `spread` (each block
    restarts from one spread, so the scales stay the same however long the chain)."""
    scale = 8.0 * float(np.hypot(first.spread, second.spread)) / 255.0
    output = writer.tensor("sum", first.shape, schema.TensorType.INT8, [scale], [0])
    options = schema.AddOptionsT()
    options.fusedActivationFunction = schema.ActivationFunctionType.NONE
    writer.operator(
        schema.BuiltinOperator.ADD, 1, [first.index, second.index], [output], schema.BuiltinOptions.AddOptions, options
    )
    return Activation(output, first.shape, scale, 0, spread)


def main() -> None:
    import argparse
    import pathlib

    parser = argparse.ArgumentParser(description="Writes an int8 residual chain of N nodes as a .tflite file.")
    parser.add_argument("nodes", type=int)
    parser.add_argument("output", type=pathlib.Path)
    arguments = parser.parse_args()
    arguments.output.write_bytes(residual_chain(arguments.nodes))


if __name__ == "__main__":
    main()
