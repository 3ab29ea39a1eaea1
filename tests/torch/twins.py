# SPDX-License-Identifier: Apache-2.0
"""The twins of the shared LiteRT models `resnet` and `kws` (MLPerf Tiny's ResNet-8 and DS-CNN) from the
other frontends, as their users make them: the network in torch.nn (resnet8.py's ResNet-8, and the DS-CNN
of examples/pytorch_custom_op/kws_dscnn.py without its channel shuffle: MLPerf Tiny's keyword-spotting
layer shapes), quantized to int8 with opbridge's PT2E
quantizer (a .pt2 program), and exported with `torch.onnx.export` then quantized with onnxruntime's
`quantize_static` (QDQ, int8 activations, per-channel int8 weights), each on seeded random calibration
data. Seeded random weights: the twins share the LiteRT models' layers, MACs and tensor sizes, not
their trained weights. The benchmarks compare the three forms of each network
(docs/graph_passes.md, "Parity").

    twins.py --dscnn-int8 dscnn_int8.pt2 --dscnn-qdq dscnn_int8_qdq.onnx --resnet8-qdq resnet8_int8_qdq.onnx
"""

import argparse
import pathlib
import sys
import tempfile
from collections.abc import Callable
from typing import Any

import kws_dscnn
import numpy as np
import resnet8
import torch
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
from onnxruntime.quantization.shape_inference import quant_pre_process
from opbridge.frontends.torch.quantizer import OpbridgeQuantizer, quantize_pt2e
from opbridge.registry import default_registry_context

SEED = 0


def build_dscnn() -> torch.nn.Module:
    """MLPerf Tiny's keyword-spotting DS-CNN: examples/pytorch_custom_op's, without its channel shuffle."""
    return kws_dscnn.build_model(SEED, shuffle_groups=0)


def pt2e_program(model: torch.nn.Module, example: tuple[torch.Tensor], calibration: list[tuple[torch.Tensor]]) -> Any:
    quantizer = OpbridgeQuantizer.for_context(default_registry_context())
    return torch.export.export(quantize_pt2e(model, example, calibration, quantizer), example)


class _Calibration(CalibrationDataReader):
    def __init__(self, batches: list[tuple[torch.Tensor]]) -> None:
        self.batches = iter([{"input": batch[0].numpy()} for batch in batches])

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self.batches, None)


def write_qdq_onnx(
    model: torch.nn.Module, example: tuple[torch.Tensor], calibration: list[tuple[torch.Tensor]], path: pathlib.Path
) -> None:
    """`model` through torch.onnx.export (batch norms folded) and onnxruntime's shape preprocessing and
    quantize_static: QDQ, int8 activations, int8 weights per output channel."""
    with tempfile.TemporaryDirectory() as scratch:
        exported, prepared = pathlib.Path(scratch, "float32.onnx"), pathlib.Path(scratch, "prepared.onnx")
        torch.onnx.export(
            model,
            example,
            str(exported),
            input_names=["input"],
            output_names=["output"],
            dynamo=False,
            opset_version=17,
        )
        quant_pre_process(str(exported), str(prepared))
        quantize_static(
            str(prepared),
            str(path),
            _Calibration(calibration),
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            activation_type=QuantType.QInt8,
            weight_type=QuantType.QInt8,
        )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dscnn-int8", type=pathlib.Path, required=True, help="the DS-CNN's PT2E program (.pt2)")
    parser.add_argument("--dscnn-qdq", type=pathlib.Path, required=True, help="the DS-CNN, ONNX QDQ")
    parser.add_argument("--resnet8-qdq", type=pathlib.Path, required=True, help="the ResNet-8, ONNX QDQ")
    arguments = parser.parse_args(argv)
    dscnn_example, dscnn_calibration = kws_dscnn.example_input(), kws_dscnn.calibration_data()
    torch.export.save(pt2e_program(build_dscnn(), dscnn_example, dscnn_calibration), str(arguments.dscnn_int8))
    writers: list[
        tuple[Callable[[], torch.nn.Module], tuple[torch.Tensor], list[tuple[torch.Tensor]], pathlib.Path]
    ] = [
        (build_dscnn, dscnn_example, dscnn_calibration, arguments.dscnn_qdq),
        (resnet8.build_model, resnet8.example_input(), resnet8.calibration_data(), arguments.resnet8_qdq),
    ]
    for build, example, calibration, path in writers:
        write_qdq_onnx(build(), example, calibration, path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
