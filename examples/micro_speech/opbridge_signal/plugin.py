# SPDX-License-Identifier: Apache-2.0
"""The opbridge plugin: TFLM's nine Signal* custom operators.

    opbridge convert audio_preprocessor_int8.tflite -o out --plugin opbridge_signal.plugin

or, from Python, `build_default_registry_context(customizers=[customize_registry])`.

Each operator folder provides its attributes class (decoded from the node's
flexbuffer custom options), a NumPy reference, memory needs and the C
statements that call its kernel; this module registers them under the
operator's key:

    litert_parsers        the flexbuffer -> the attributes class
    air_options           the attributes class
    operators             the reference (state kept by the interpreter) and the schema
    aot_operator_classes  SignalOperator: emits the node's C and names its kernels
    opset_domains         tflm.signal, the schemas' domain (version 1)
"""

import dataclasses
import pathlib
from types import ModuleType
from typing import Any, ClassVar

import numpy as np
from opbridge.aot.operators import NodeCodeOperator
from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.frontends.litert.nodes import LiteRTNode, custom_code_to_op_key
from opbridge.ir import DType
from opbridge.ops.definition import OperatorDefinition, ReferenceCall
from opbridge.registry_context import RegistryContext

from opbridge_signal import (
    energy,
    fft_auto_scale,
    filter_bank,
    filter_bank_log,
    filter_bank_spectral_subtraction,
    filter_bank_square_root,
    pcan,
    rfft,
    window,
)
from opbridge_signal.domain import SIGNAL_DOMAIN, SIGNAL_OPSET
from opbridge_signal.emit_args import SignalEmitArgs

KERNEL_DIRECTORY = pathlib.Path(__file__).parent / "kernels"
# The header every Signal kernel includes: the integer helpers and the variant switch. Every kernel header is
# copied with each kernel (the internal ones, `*_internal.h`, declare several kernels' variant loops).
SHARED_KERNEL_HEADER = "opbridge_signal_integer.h"
# The instruction-set variants a kernel may have, one file each (docs/kernels.md's scheme).
KERNEL_VARIANTS = ("helium", "dsp")


@dataclasses.dataclass(frozen=True)
class SignalOperatorSpec:
    """One Signal operator: its folder, attributes class and the dtypes its kernel serves."""

    module: ModuleType
    attributes_class: type
    input_dtypes: tuple[DType, ...]
    output_dtypes: tuple[DType, ...]

    @property
    def custom_code(self) -> str:
        return str(self.module.CUSTOM_CODE)

    @property
    def key(self) -> str:
        return custom_code_to_op_key(self.custom_code)

    def persistent_bytes(self, attributes: Any, input_shapes: list[tuple[int, ...]]) -> int:
        return int(self.module.persistent_bytes(attributes, input_shapes))

    def scratch_bytes(self, attributes: Any, input_shapes: list[tuple[int, ...]]) -> int:
        return int(self.module.scratch_bytes(attributes, input_shapes))

    @property
    def stateful(self) -> bool:
        """Keeps state from run to run: only stateful operators define initial_state."""
        return hasattr(self.module, "initial_state")


I16, I32, U32, U64, I8 = DType.INT16, DType.INT32, DType.UINT32, DType.UINT64, DType.INT8
SIGNAL_OPERATORS: tuple[SignalOperatorSpec, ...] = (
    SignalOperatorSpec(window, window.WindowAttributes, (I16, I16), (I16,)),
    SignalOperatorSpec(fft_auto_scale, fft_auto_scale.FftAutoScaleAttributes, (I16,), (I16, I32)),
    SignalOperatorSpec(rfft, rfft.RfftAttributes, (I16,), (I16,)),
    SignalOperatorSpec(energy, energy.EnergyAttributes, (I16,), (U32,)),
    SignalOperatorSpec(filter_bank, filter_bank.FilterBankAttributes, (U32, I16, I16, I16, I16, I16), (U64,)),
    SignalOperatorSpec(
        filter_bank_square_root, filter_bank_square_root.FilterBankSquareRootAttributes, (U64, I32), (U32,)
    ),
    SignalOperatorSpec(
        filter_bank_spectral_subtraction,
        filter_bank_spectral_subtraction.FilterBankSpectralSubtractionAttributes,
        (U32,),
        (U32, U32),
    ),
    SignalOperatorSpec(pcan, pcan.PcanAttributes, (U32, U32, I16), (U32,)),
    SignalOperatorSpec(filter_bank_log, filter_bank_log.FilterBankLogAttributes, (U32,), (I16,)),
)


def _parser(spec: SignalOperatorSpec) -> Any:
    def parse_signal_operator(node: LiteRTNode) -> Any:
        return spec.attributes_class.from_flexbuffer(node.custom_options)

    parse_signal_operator.__qualname__ = f"parse_{spec.module.__name__.rsplit('.', 1)[-1]}"
    return parse_signal_operator


def _reference(spec: SignalOperatorSpec) -> Any:
    def reference(call: ReferenceCall) -> list[np.ndarray]:
        attributes = call.attributes
        inputs = [call.value(position) for position in range(len(call.inputs))]
        shapes = [tuple(value.shape) for value in inputs]
        state = None
        if spec.persistent_bytes(attributes, shapes) > 0:
            # The interpreter keeps call.state from run to run, as the module keeps the arena's state.
            if "bytes" not in call.state:
                call.state["bytes"] = spec.module.initial_state(attributes, shapes)
            state = call.state["bytes"]
        results = spec.module.reference(attributes, inputs, state)
        return [
            np.asarray(result, dtype=tensor.dtype.numpy).reshape(tensor.shape)
            for result, tensor in zip(results, call.outputs, strict=True)
        ]

    return reference


class SignalOperator(NodeCodeOperator):
    """Emits one Signal node: its kernel call, with tables in flash and state in the arena."""

    SPEC: ClassVar[SignalOperatorSpec]

    def _input_values(self) -> tuple[np.ndarray | None, ...]:
        """Each present input's value where it is a constant (None for activations), in node order."""
        return tuple(tensor.data for tensor in self.graph.node_inputs(self.node) if tensor is not None)

    def _input_shapes(self) -> list[tuple[int, ...]]:
        return [() if t is None else t.shape for t in self.input_tensors]

    def on_resolve(self) -> None:
        spec = self.SPEC
        inputs, outputs = self.input_tensors, self.output_tensors
        found_inputs = tuple(None if t is None else t.dtype for t in inputs)
        found_outputs = tuple(t.dtype for t in outputs)
        if found_inputs != spec.input_dtypes or found_outputs != spec.output_dtypes:

            def names(dtypes: tuple[DType | None, ...]) -> str:
                return ", ".join("omitted" if d is None else d.value for d in dtypes)

            raise ValueError(
                f"{spec.custom_code} takes ({names(spec.input_dtypes)}) -> ({names(spec.output_dtypes)}), "
                f"got ({names(found_inputs)}) -> ({names(found_outputs)})"
            )
        if self.persistent_bytes() and not self.has_init:
            raise ValueError(f"{spec.custom_code} keeps state but its operator class has no init")

    def scratch_bytes(self) -> int:
        return self.SPEC.scratch_bytes(self.node.attributes, self._input_shapes())

    def persistent_bytes(self) -> int:
        return self.SPEC.persistent_bytes(self.node.attributes, self._input_shapes())

    def emit_node_code(self, context: EmitContext) -> NodeCode:
        node = self.node
        args = SignalEmitArgs(
            inputs=[context.pointer(i) for i in node.inputs if i is not None],
            input_shapes=self._input_shapes(),
            outputs=[context.pointer(i) for i in node.outputs],
            output_shapes=[t.shape for t in self.output_tensors],
            scratch=context.scratch_pointer(node, "uint8_t") if self.scratch_bytes() else None,
            state=context.persistent_pointer(node, "uint8_t") if self.persistent_bytes() else None,
            symbol=context.node_symbol(node),
            input_values=self._input_values(),
        )
        code = self.SPEC.module.emit_c(self.node.attributes, args)
        # A kernel's own failure codes (1, 2, ...) would read as the module's
        # INVALID_ARGUMENT, UNSUPPORTED...: move them into the operators' range.
        custom_first = f"{self.prefix.upper()}_STATUS_CUSTOM_FIRST"
        to_custom_range = f"if (status != 0) {{ status = {custom_first} + status; }}"
        return NodeCode(
            includes=list(code.includes),
            definitions=list(code.definitions),
            statements=[*code.statements, to_custom_range],
            init_statements=[*code.init_statements, to_custom_range] if code.init_statements else [],
        )

    def absorbed_constants(self) -> list[int]:
        """The constant inputs the operator's C replaced with tables of its own (its module's `absorbed_inputs`,
        for operators that have one): the module leaves them out when no other node reads them."""
        absorbed = getattr(self.SPEC.module, "absorbed_inputs", None)
        if absorbed is None:
            return []
        inputs = [index for index in self.node.inputs if index is not None]
        return [
            inputs[position] for position in absorbed(self.node.attributes, self._input_values(), self._input_shapes())
        ]

    def kernel_sources(self) -> list[pathlib.Path]:
        """The node's kernel, its instruction-set variants (`<stem>_helium.c`, `<stem>_dsp.c`: each compiles to
        nothing on the other cores) and the Signal kernels' headers (the internal ones include the headers of
        the kernels whose variants they declare)."""
        stem = f"opbridge_signal_{self.SPEC.module.__name__.rsplit('.', 1)[-1]}"
        names = [f"{stem}.c", f"{stem}.h", SHARED_KERNEL_HEADER]
        names += [
            f"{stem}_{variant}.c" for variant in KERNEL_VARIANTS if (KERNEL_DIRECTORY / f"{stem}_{variant}.c").exists()
        ]
        names += sorted(path.name for path in KERNEL_DIRECTORY.glob("*.h") if path.name not in names)
        return [KERNEL_DIRECTORY / name for name in names]


def operator_class(spec: SignalOperatorSpec) -> type[SignalOperator]:
    name = "".join(part.capitalize() for part in spec.module.__name__.rsplit(".", 1)[-1].split("_")) + "Operator"
    return type(name, (SignalOperator,), {"TYPE": spec.key, "SPEC": spec, "has_init": spec.stateful})


def customize_registry(context: RegistryContext) -> None:
    """Registers the nine Signal operators (see the module docstring)."""
    context.opset_domains.register(SIGNAL_DOMAIN, SIGNAL_OPSET)
    for spec in SIGNAL_OPERATORS:
        key = spec.key
        context.litert_parsers.register(key, _parser(spec))
        context.air_options.register(key, spec.attributes_class)
        context.operators.add(
            OperatorDefinition(
                op_type=key,
                reference=_reference(spec),
                doc=spec.module.__doc__ or "",
                schema=spec.module.SCHEMA,
                stateful=spec.stateful,
            )
        )
        context.aot_operator_classes.register(key, operator_class(spec))
