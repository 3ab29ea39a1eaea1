# SPDX-License-Identifier: Apache-2.0
"""PT2E int8 quantization the way TFLite's converter quantizes, for TFLite Micro's int8 kernels.

`OpbridgeQuantizer` annotates a graph captured with `torch.export.export(model, inputs).module()`;
torchao's `prepare_pt2e` / `convert_pt2e` then insert observers and quantize / dequantize nodes
where it says. The annotation mirrors what TFLite's int8 converter produces, because opbridge maps the
converted graph onto TFLite-Micro-compatible int8 kernels and must be bit-exact with them:

- conv1d / conv2d (grouped and depthwise too) and linear: int8 weights, symmetric per output channel
  (axis 0) in [-127, 127]; the bias int32 with scale input_scale * weight_scale and zero point 0, as
  the converter quantizes it (a DerivedQuantizationSpec: torch's convert_pt2e model then adds the
  bias the microcontroller adds). A relu / relu6 right after is fused: TFLite
  clamps in the kernel, so there is no quantize between the op and its activation;
- activations: int8 per tensor, affine, [-128, 127], observed on calibration data (MinMaxObserver
  by default: the converter takes the calibration min / max);
- add / sub / mul of two tensors (optionally fused with a relu / relu6), mean, hardswish, leaky relu:
  inputs and output with parameters of their own (their int8 kernels rescale); with a Python number
  as an operand they stay float;
- data movement (max pool, average pools, reshape, permute, pad with 0, ...) and standalone relu /
  relu6 / clamp to (0, 6) or (0, inf): the output shares the input's parameters (TFLite's int8
  AVERAGE_POOL_2D keeps them too), so the op runs on the raw int8 values; other clamps stay float;
- concatenation: inputs and output share one set of parameters (TFLM's int8 CONCATENATION copies);
- softmax, sigmoid (scale 1/256, zero point -128) and tanh (1/128, 0): TFLite's fixed output
  parameters, which its int8 kernels assume;
- plugin ops: as their `TorchOp.quantization` (`spec.OutputQuantization`) declares, when their schema
  takes int8 (for_context); else float;
- anything else stays float32 between a dequantize and a quantize, and `report()` says which.

`quantize_pt2e` runs the whole export -> prepare -> calibrate -> convert sequence.
"""

import logging
import operator
import types
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import torch
from torch.fx import GraphModule, Node

from opbridge.errors import ConfigError, InvalidInputError
from opbridge.frontends.torch.program import export_program
from opbridge.frontends.torch.spec import FLOAT as FLOAT_QUANTIZATION
from opbridge.frontends.torch.spec import OutputQuantization, QuantizationKind
from opbridge.ops.definition import SOFTMAX_OUTPUT as FIXED_SOFTMAX_OUTPUT
from opbridge.ops.definition import TANH_OUTPUT as FIXED_TANH_OUTPUT
from opbridge.ops.definition import is_elementwise, output_quantization, takes_int8

if TYPE_CHECKING:
    from opbridge.registry_context import RegistryContext

# torchao logs at import time on torch 2.13: a pytree deprecation warning for its Enum constants and,
# where a wheel ships GPU / other-Python extensions, "Failed to load _C_*.so". Neither matters for
# PT2E on CPU, and opbridge's CLI should not print them on every run.
_NOISY_LOGGERS = [logging.getLogger(name) for name in ("torchao", "torch.utils._pytree")]
_LEVELS = [logger.level for logger in _NOISY_LOGGERS]
for _logger in _NOISY_LOGGERS:
    _logger.setLevel(logging.ERROR)
try:
    from torchao.quantization.pt2e import (
        MinMaxObserver,
        ObserverOrFakeQuantizeConstructor,
        PerChannelMinMaxObserver,
        move_exported_model_to_eval,
    )
    from torchao.quantization.pt2e.export_utils import model_is_exported
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
    from torchao.quantization.pt2e.quantizer import (
        DerivedQuantizationSpec,
        FixedQParamsQuantizationSpec,
        QuantizationAnnotation,
        QuantizationSpec,
        QuantizationSpecBase,
        Quantizer,
        SharedQuantizationSpec,
    )
finally:
    for _logger, _level in zip(_NOISY_LOGGERS, _LEVELS, strict=True):
        _logger.setLevel(_level)

__all__ = ["OpbridgeQuantizer", "quantize_pt2e"]

ANNOTATION_KEY = "quantization_annotation"

INT8_MIN, INT8_MAX = -128, 127


def _parameters(quantization: OutputQuantization) -> tuple[float, int]:
    assert quantization.scale is not None and quantization.zero_point is not None
    return quantization.scale, quantization.zero_point


# TFLite's int8 weights are symmetric in [-127, 127], so that -w is representable and the kernels
# need no weight zero point.
WEIGHT_MIN, WEIGHT_MAX = -127, 127

# Ops with a per-channel int8 weight (argument 1) and an int32 bias (argument 2).
WEIGHTED_OPS = frozenset(
    {"aten.conv1d.default", "aten.conv1d.padding", "aten.conv2d.default", "aten.conv2d.padding", "aten.linear.default"}
)
# Elementwise ops whose int8 kernels rescale each input and the output (own parameters each).
BINARY_OPS = frozenset(
    {
        "aten.add.Tensor",
        "aten.add_.Tensor",
        "aten.sub.Tensor",
        "aten.sub_.Tensor",
        "aten.mul.Tensor",
        "aten.mul_.Tensor",
    }
)
RELU_OPS = frozenset({"aten.relu.default", "aten.relu_.default"})
CLAMP_OPS = frozenset(
    {
        "aten.hardtanh.default",
        "aten.hardtanh_.default",
        "aten.clamp.default",
        "aten.clamp_.default",
        "aten.relu6.default",
        "aten.relu6_.default",
    }
)
# Activations TFLite fuses into CONV_2D / FULLY_CONNECTED / ADD / MUL and opbridge's QDQ fusion
# recognizes: RELU, and RELU6 as a (0, 6) clamp.
FUSED_CLAMP_BOUNDS = (0.0, 6.0)
# Clamps with an int8 kernel (RELU, RELU6: they keep the input's parameters); others stay float.
INT8_CLAMP_BOUNDS = ((0.0, None), (0.0, 6.0), (0.0, float("inf")))
# One activation input, output observed with its own parameters (TFLite's AVERAGE_POOL_2D, MEAN
# and HARD_SWISH int8 kernels take different input and output parameters).
OWN_OUTPUT_OPS = frozenset(
    {
        "aten.mean.dim",
        "aten.leaky_relu.default",
        "aten.hardswish.default",
        "aten.hardswish_.default",
    }
)
# TFLite's int8 SOFTMAX, LOGISTIC and TANH kernels assume these output parameters (the operators'
# OperatorDefinition.quantization).
SOFTMAX_OUTPUT = _parameters(FIXED_SOFTMAX_OUTPUT)
TANH_OUTPUT = _parameters(FIXED_TANH_OUTPUT)
FIXED_OUTPUT_OPS: dict[str, tuple[float, int]] = {
    "aten.softmax.int": SOFTMAX_OUTPUT,
    "aten._softmax.default": SOFTMAX_OUTPUT,
    "aten.sigmoid.default": SOFTMAX_OUTPUT,
    "aten.sigmoid_.default": SOFTMAX_OUTPUT,
    "aten.tanh.default": TANH_OUTPUT,
    "aten.tanh_.default": TANH_OUTPUT,
}
# Ops that move, select or clamp values: on int8 they are exact with the input's parameters.
SHARED_OUTPUT_OPS = frozenset(
    {
        "aten.max_pool1d.default",
        "aten.max_pool2d.default",
        # TFLite's int8 AVERAGE_POOL_2D keeps its input's scale and zero point.
        "aten.avg_pool1d.default",
        "aten.avg_pool2d.default",
        "aten.adaptive_avg_pool1d.default",
        "aten.adaptive_avg_pool2d.default",
        "aten.t.default",
        "aten.flatten.using_ints",
        "aten.view.default",
        "aten.reshape.default",
        "aten._unsafe_view.default",
        "aten.permute.default",
        "aten.transpose.int",
        "aten.squeeze.default",
        "aten.squeeze.dim",
        "aten.squeeze.dims",
        "aten.unsqueeze.default",
        "aten.slice.Tensor",
        "aten.dropout.default",
        "aten.clone.default",
        "aten.contiguous.default",
        *RELU_OPS,
        *CLAMP_OPS,
    }
)
# Padding shares the input's parameters only when it pads with 0.0 (TFLite's PAD pads with the zero point).
PAD_OPS = frozenset({"aten.pad.default", "aten.constant_pad_nd.default"})
CAT_OPS = frozenset({"aten.cat.default"})

BUILTIN_TARGETS = (
    WEIGHTED_OPS | BINARY_OPS | OWN_OUTPUT_OPS | frozenset(FIXED_OUTPUT_OPS) | SHARED_OUTPUT_OPS | PAD_OPS | CAT_OPS
)

_NO_CUSTOM_OPS: Mapping[str, OutputQuantization] = types.MappingProxyType({})


def _no_int8_reason(key: str, declared: OutputQuantization, definition: Any) -> str:
    """Why a plugin op declared int8 (OWN, SAME_AS_INPUT, fixed) stays float: its schema takes no int8."""
    schema = None if definition is None else definition.schema
    if schema is None or not schema.inputs:
        takes = "has no schema input"
    else:
        first = schema.inputs[0]
        allowed = ", ".join(dtype.value for dtype in schema.constraint(first.type_var).allowed)
        takes = f"takes {allowed} as its first input {first.name!r}, no int8"
    return (
        f"declared {declared.kind.name} but the schema of operator {key} {takes}; add int8 to the input's "
        "type constraint (and an int8 kernel) to run it in int8"
    )


def _is_float_tensor(value: object) -> bool:
    """Whether `value` is a node producing one float32 tensor (the only thing observers measure)."""
    if not isinstance(value, Node):
        return False
    meta = value.meta.get("val")
    return isinstance(meta, torch.Tensor) and meta.dtype == torch.float32


def _is_annotated(node: Node) -> bool:
    annotation = node.meta.get(ANNOTATION_KEY)
    return annotation is not None and annotation._annotated


def _output_spec(node: Node) -> QuantizationSpecBase | None:
    annotation = node.meta.get(ANNOTATION_KEY)
    return None if annotation is None else annotation.output_qspec


def _annotate(node: Node, inputs: dict[Node, QuantizationSpecBase], output: QuantizationSpecBase | None) -> None:
    node.meta[ANNOTATION_KEY] = QuantizationAnnotation(input_qspec_map=inputs, output_qspec=output, _annotated=True)


def _argument(node: Node, position: int, name: str, default: Any) -> Any:
    if len(node.args) > position:
        return node.args[position]
    return node.kwargs.get(name, default)


def _clamp_bounds(node: Node) -> tuple[float | None, float | None]:
    """The (min, max) of a hardtanh or clamp node, None for an open side."""
    if str(node.target).startswith("aten.relu6"):
        return 0.0, 6.0
    if str(node.target).startswith("aten.hardtanh"):
        bounds = (_argument(node, 1, "min_val", -1.0), _argument(node, 2, "max_val", 1.0))
    else:
        bounds = (_argument(node, 1, "min", None), _argument(node, 2, "max", None))
    low, high = (None if isinstance(b, Node) or b is None else float(b) for b in bounds)
    return low, high


def _bias_parameters(observers: list[Any]) -> tuple[torch.Tensor, torch.Tensor]:
    """int32 bias parameters: scale input_scale * weight_scale per output channel (float32, as
    TFLite's converter and opbridge's int8 kernels take it), zero point 0."""
    input_scale, _ = observers[0].calculate_qparams()
    weight_scales, _ = observers[1].calculate_qparams()
    scales = (input_scale.to(torch.float32) * weight_scales.to(torch.float32)).to(torch.float32)
    return scales, torch.zeros(scales.shape, dtype=torch.int32)


def _bias_spec(x: Node, weight: Node, node: Node) -> DerivedQuantizationSpec:
    """The bias quantized to int32 as TFLite does, so that torch's convert_pt2e model computes
    with the bias the microcontroller adds (a float bias would differ by up to half a bias step)."""
    return DerivedQuantizationSpec(
        derived_from=[(x, node), (weight, node)],
        derive_qparams_fn=_bias_parameters,
        dtype=torch.int32,
        quant_min=-(2**31) + 1,
        quant_max=2**31 - 1,
        qscheme=torch.per_channel_symmetric,
        ch_axis=0,
    )


def _pads_with_zero(node: Node) -> bool:
    if str(node.target) == "aten.constant_pad_nd.default":
        return _argument(node, 2, "value", 0) in (0, 0.0)
    mode = _argument(node, 2, "mode", "constant")
    value = _argument(node, 3, "value", None)
    return mode == "constant" and value in (None, 0, 0.0)


def _tensor_arguments(node: Node) -> list[Node]:
    """The node inputs of `node`, positional then keyword, lists flattened, each once."""
    found: list[Node] = []
    for value in [*node.args, *node.kwargs.values()]:
        for item in value if isinstance(value, list | tuple) else [value]:
            if isinstance(item, Node) and item not in found:
                found.append(item)
    return found


class OpbridgeQuantizer(Quantizer):
    """Annotates an exported graph for TFLite-compatible int8 (see the module's doc).

    `custom_ops` maps op targets (`str(OpOverload)`, "my_ns.soft_clip.default") to how their output
    is quantized; FLOAT also keeps a built-in op (say "aten.softmax.int") in float. After `annotate`
    (which `prepare_pt2e` calls), `float_nodes` and `report()` tell what stays float32.
    """

    def __init__(
        self,
        custom_ops: Mapping[str, OutputQuantization] = _NO_CUSTOM_OPS,
        *,
        activation_observer: ObserverOrFakeQuantizeConstructor = MinMaxObserver,
    ) -> None:
        super().__init__()
        for target, declaration in custom_ops.items():
            if not isinstance(target, str) or not target:
                raise ConfigError(f"OpbridgeQuantizer: custom op keys are op targets (str), got {target!r}")
            if not isinstance(declaration, OutputQuantization):
                raise ConfigError(
                    f"OpbridgeQuantizer: {target}: expected an OutputQuantization, got {type(declaration).__name__}",
                    hint="use opbridge.frontends.torch.spec: SAME_AS_INPUT, OWN, FLOAT or fixed(scale, zero_point)",
                )
            # The built-in rules know the op's weights and fused activations; a declaration could only
            # lose that. Keeping a built-in op in float is the one override that makes sense.
            if target in BUILTIN_TARGETS and declaration.kind is not QuantizationKind.FLOAT:
                raise ConfigError(
                    f"OpbridgeQuantizer: {target} is quantized by a built-in rule; it can only be declared FLOAT"
                )
        self.custom_ops: dict[str, OutputQuantization] = dict(custom_ops)
        self.activation_spec = QuantizationSpec(
            dtype=torch.int8,
            observer_or_fake_quant_ctr=activation_observer,
            quant_min=INT8_MIN,
            quant_max=INT8_MAX,
            qscheme=torch.per_tensor_affine,
        )
        self.weight_spec = QuantizationSpec(
            dtype=torch.int8,
            observer_or_fake_quant_ctr=PerChannelMinMaxObserver,
            quant_min=WEIGHT_MIN,
            quant_max=WEIGHT_MAX,
            qscheme=torch.per_channel_symmetric,
            ch_axis=0,
        )
        self._float: dict[str, tuple[str, str]] = {}  # node name -> (target, why it stays float)
        # Why an op for_context made FLOAT stays float (its schema takes no int8), by target.
        self._float_reasons: dict[str, str] = {}
        self._ops = 0

    @classmethod
    def for_context(
        cls, context: "RegistryContext", *, activation_observer: ObserverOrFakeQuantizeConstructor = MinMaxObserver
    ) -> "OpbridgeQuantizer":
        """A quantizer that knows the plugins' torch ops (`context.torch_ops`) and their declared quantization;
        an op whose schema takes no int8 input stays float, whatever it declares. The torch ops that convert
        onto a one-input element-wise operator with an int8 form (GELU) and no built-in rule here are
        quantized as that operator's definition says (OperatorDefinition.quantization)."""
        custom = {}
        reasons = {}
        for key, op in context.torch_ops.items():
            definition = context.operators.get(key)
            if takes_int8(definition) or op.quantization.kind is QuantizationKind.FLOAT:
                custom[op.target] = op.quantization
                continue
            custom[op.target] = FLOAT_QUANTIZATION
            reasons[op.target] = _no_int8_reason(key, op.quantization, definition)
        for definition in context.operators.definitions():
            quantization = output_quantization(definition)
            schema = definition.schema
            one_input = schema is not None and len(schema.inputs) == 1
            if not (one_input and is_elementwise(definition) and takes_int8(definition)):
                continue
            if quantization.kind is QuantizationKind.FLOAT:
                continue
            for converter in definition.torch_converters:
                if converter.target not in BUILTIN_TARGETS and converter.target not in custom:
                    custom[converter.target] = quantization
        quantizer = cls(custom, activation_observer=activation_observer)
        quantizer._float_reasons.update(reasons)
        return quantizer

    @property
    def float_nodes(self) -> list[tuple[str, str]]:
        """(node name, target) of each op the last `annotate` left in float32, in graph order."""
        return [(name, target) for name, (target, _) in self._float.items()]

    def report(self) -> str:
        """What stays float32 and why, for opbridge to print after quantizing."""
        if not self._float:
            return f"opbridge quantizer: all {self._ops} ops are int8"
        lines = [
            f"opbridge quantizer: {len(self._float)} of {self._ops} ops stay float32 "
            "(between a dequantize and a quantize):"
        ]
        lines += [f"  {name} ({target}): {why}" for name, (target, why) in self._float.items()]
        return "\n".join(lines)

    def annotate(self, model: GraphModule) -> GraphModule:
        """Annotates every node it has a rule for, in graph order (producers first, so that consumers
        can read their producers' output specs). Nodes already annotated (by another quantizer) are kept."""
        self._float = {}
        self._ops = 0
        for node in model.graph.nodes:
            if node.op != "call_function" or node.target is operator.getitem:
                continue
            if not _is_float_tensor(node) and not _is_annotated(node):
                continue  # shapes, indices, tuples: nothing to quantize
            self._ops += 1
            if _is_annotated(node):
                continue
            why = self._annotate_node(node, str(node.target))
            if why is not None:
                self._float[node.name] = (str(node.target), why)
        return model

    def validate(self, model: GraphModule) -> None:
        """Nothing to check: `annotate` only writes int8 specs that opbridge's kernels take, and
        prepare_pt2e itself rejects a shared spec that points at an unobserved edge."""

    # --- rules ---

    def _annotate_node(self, node: Node, target: str) -> str | None:
        """Annotates `node` by its rule; returns why it stays float, or None if annotated."""
        declared = self.custom_ops.get(target)
        if declared is not None and declared.kind is QuantizationKind.FLOAT:
            return self._float_reasons.get(target, "declared FLOAT")
        if target in WEIGHTED_OPS:
            return self._annotate_weighted(node)
        if target in BINARY_OPS:
            return self._annotate_binary(node)
        if target in CAT_OPS:
            return self._annotate_cat(node)
        if target in OWN_OUTPUT_OPS:
            return self._annotate_single(node, self.activation_spec)
        if target in FIXED_OUTPUT_OPS:
            return self._annotate_single(node, self._fixed_spec(*FIXED_OUTPUT_OPS[target]))
        if target in PAD_OPS and not _pads_with_zero(node):
            return "pads with a value other than 0"
        if target in CLAMP_OPS and _clamp_bounds(node) not in INT8_CLAMP_BOUNDS:
            return f"clamps to {_clamp_bounds(node)}: opbridge's int8 clamps are RELU (0, inf) and RELU6 (0, 6)"
        if target in SHARED_OUTPUT_OPS or target in PAD_OPS:
            return self._annotate_shared(node, [node.args[0]])
        if declared is not None:
            return self._annotate_declared(node, declared)
        return "no int8 rule for this op"

    def _input_spec(self, producer: Node) -> QuantizationSpecBase:
        """How an op reads `producer`: with the producer's own int8 parameters when it has any (so a
        softmax's fixed 1/256 reaches its reader without a requantize), else observed as an activation
        (graph inputs, constants, outputs of float ops)."""
        if _output_spec(producer) is not None:
            return SharedQuantizationSpec(producer)
        return self.activation_spec

    def _is_quantized(self, producer: Node) -> bool:
        """Whether `producer`'s output is int8 (an annotated op's output, or a graph input, which gets
        quantized where an annotated op reads it)."""
        return producer.op == "placeholder" or _output_spec(producer) is not None

    def _fixed_spec(self, scale: float, zero_point: int) -> FixedQParamsQuantizationSpec:
        return FixedQParamsQuantizationSpec(
            dtype=torch.int8,
            scale=scale,
            zero_point=zero_point,
            quant_min=INT8_MIN,
            quant_max=INT8_MAX,
            qscheme=torch.per_tensor_affine,
        )

    def _fused_activation(self, node: Node) -> Node | None:
        """The relu / relu6 TFLite would fuse into `node`: its only reader, on `node` alone."""
        if len(node.users) != 1:
            return None  # another reader needs the value before the activation
        (user,) = node.users
        target = str(user.target)
        declared = self.custom_ops.get(target)
        if (
            user.op != "call_function"
            or _is_annotated(user)
            or not user.args
            or user.args[0] is not node
            or (declared is not None and declared.kind is QuantizationKind.FLOAT)
        ):
            return None
        if target in RELU_OPS or (target in CLAMP_OPS and _clamp_bounds(user) == FUSED_CLAMP_BOUNDS):
            return user
        return None

    def _annotate_with_activation(self, node: Node, inputs: dict[Node, QuantizationSpecBase]) -> None:
        """`node` reading `inputs`; its output observed after a fused activation if there is one."""
        activation = self._fused_activation(node)
        if activation is None:
            _annotate(node, inputs, self.activation_spec)
            return
        # No output spec on `node`: prepare_pt2e inserts no observer, convert_pt2e no quantize, between
        # the op and its activation.
        _annotate(node, inputs, None)
        _annotate(activation, {}, self.activation_spec)

    def _annotate_weighted(self, node: Node) -> str | None:
        x, weight = node.args[0], node.args[1]
        if not _is_float_tensor(x) or not _is_float_tensor(weight):
            return "input or weight is not a float32 tensor"
        assert isinstance(x, Node) and isinstance(weight, Node)
        inputs: dict[Node, QuantizationSpecBase] = {x: self._input_spec(x), weight: self.weight_spec}
        bias = node.args[2] if len(node.args) > 2 else None
        if isinstance(bias, Node) and _is_float_tensor(bias):
            inputs[bias] = _bias_spec(x, weight, node)
        self._annotate_with_activation(node, inputs)
        return None

    def _annotate_binary(self, node: Node) -> str | None:
        operands = [a for a in node.args[:2] if isinstance(a, Node)]
        if len(operands) != 2:
            # opbridge's int8 ADD / SUB / MUL take two int8 tensors; a Python number stays float.
            return "an operand is a Python number (write it as a tensor the model holds to quantize it)"
        if not all(_is_float_tensor(a) for a in operands):
            return "an operand is not a float32 tensor"
        self._annotate_with_activation(node, {a: self._input_spec(a) for a in operands})
        return None

    def _annotate_cat(self, node: Node) -> str | None:
        tensors = node.args[0]
        if not isinstance(tensors, Sequence) or not tensors or not all(_is_float_tensor(t) for t in tensors):
            return "an input is not a float32 tensor"
        first = tensors[0]
        assert isinstance(first, Node)
        # Every input edge and the output in one sharing group: prepare_pt2e gives them one observer,
        # which sees all the inputs. A producer with other fixed parameters (a softmax) keeps them and
        # gets a requantize in front of the concatenation.
        shared = SharedQuantizationSpec((first, node))
        inputs: dict[Node, QuantizationSpecBase] = {first: self._input_spec(first)}
        for tensor in tensors[1:]:
            assert isinstance(tensor, Node)
            inputs.setdefault(tensor, shared)
        _annotate(node, inputs, shared)
        return None

    def _annotate_single(self, node: Node, output: QuantizationSpecBase) -> str | None:
        x = node.args[0]
        if not _is_float_tensor(x):
            return "input is not a float32 tensor"
        assert isinstance(x, Node)
        _annotate(node, {x: self._input_spec(x)}, output)
        return None

    def _annotate_shared(self, node: Node, tensors: Sequence[object]) -> str | None:
        """Output (and every input after the first) with the first input's parameters. When that input
        is float there are no parameters to share: the op stays float and the next int8 op quantizes."""
        if not tensors or not all(_is_float_tensor(t) for t in tensors):
            return "an input is not a float32 tensor"
        first = tensors[0]
        assert isinstance(first, Node)
        if not self._is_quantized(first):
            return f"its input {first.name} is float32 (no parameters to share)"
        shared = SharedQuantizationSpec((first, node))
        inputs: dict[Node, QuantizationSpecBase] = {first: self._input_spec(first)}
        for tensor in tensors[1:]:
            assert isinstance(tensor, Node)
            inputs.setdefault(tensor, shared)
        _annotate(node, inputs, shared)
        return None

    def _annotate_declared(self, node: Node, declared: OutputQuantization) -> str | None:
        """A plugin op: its float32 tensor inputs quantized, its output as declared. Other tensor inputs
        (indices, masks) are passed as they are."""
        tensors = [t for t in _tensor_arguments(node) if _is_float_tensor(t)]
        if not tensors:
            return "no float32 tensor input"
        if declared.kind is QuantizationKind.SAME_AS_INPUT:
            return self._annotate_shared(node, tensors)
        inputs = {t: self._input_spec(t) for t in tensors}
        if declared.kind is QuantizationKind.FIXED:
            assert declared.scale is not None and declared.zero_point is not None
            _annotate(node, inputs, self._fixed_spec(float(declared.scale), int(declared.zero_point)))
        else:
            _annotate(node, inputs, self.activation_spec)
        return None


def quantize_pt2e(
    model: "torch.nn.Module | torch.export.ExportedProgram",
    example_inputs: tuple[Any, ...],
    calibration: Iterable[tuple[Any, ...]],
    quantizer: OpbridgeQuantizer | None = None,
) -> GraphModule:
    """`model` as a PT2E int8 graph: export, prepare, calibrate, convert.

    `model` is an nn.Module, an ExportedProgram (`torch.export.load("model.pt2")`), or the module of one
    (`program.module()`). An nn.Module is exported in eval mode (its training flag restored afterwards)
    so that batch norms fold into the convolutions and dropout is off. An exported module cannot be
    switched with `eval()` (torch raises NotImplementedError): it is exported again (a copy; the
    caller's module is left as it was) and its dropouts and batch norms are moved to eval mode with
    torchao's `move_exported_model_to_eval`. Each calibration item is one tuple of positional inputs
    (a lone tensor is taken as a 1-tuple). convert_pt2e folds the weights' quantize nodes into int8
    buffers; everything else stays as quantize / dequantize nodes for opbridge to map.
    """
    quantizer = quantizer if quantizer is not None else OpbridgeQuantizer()
    inputs = tuple(example_inputs)
    if isinstance(model, torch.export.ExportedProgram):
        model = model.module()
    if model_is_exported(model):
        exported = move_exported_model_to_eval(export_program(model, inputs).module())
    else:
        was_training = model.training
        model.eval()
        try:
            exported = export_program(model, inputs).module()
        finally:
            model.train(was_training)
    prepared = prepare_pt2e(exported, quantizer)  # type: ignore[arg-type]
    batches = 0
    with torch.no_grad():
        for batch in calibration:
            batch_inputs = (batch,) if isinstance(batch, torch.Tensor) else tuple(batch)
            prepared(*batch_inputs)
            batches += 1
    if batches == 0:
        # Observers that saw nothing give inf / nan parameters, which would surface much later.
        raise InvalidInputError("quantize_pt2e: the calibration data is empty", hint="pass at least one input tuple")
    return convert_pt2e(prepared)
