# SPDX-License-Identifier: Apache-2.0
"""torch.export programs (an ExportedProgram, or a .pt2 file of torch.export.save) -> opbridge graphs.

1. The program's parameters, buffers and lifted constants become constant tensors; its user
   inputs become graph inputs (static shapes only).
2. Every `call_function` node goes through the converter its OpOverload is registered under in
   `context.torch_converters` (operator folders' torch.py; plugins' TorchOps). Nodes with no
   converter are all reported at once, by node, before anything is converted.
3. Converters write ONNX-semantics nodes (see translation.py); on those the ONNX frontend's passes
   run as for an ONNX file (the float biases of PT2E-quantized convolutions quantized to int32,
   QDQ groups fused onto the int8 built-ins, batch norms folded), then the ONNX converters and,
   on the converted graph, constant folding and transpose cancellation.
"""

import contextlib
import io
import json
import logging
import pathlib
import posixpath
import re
import warnings
import zipfile
from collections.abc import Iterator
from typing import Any

import numpy as np

from opbridge.errors import (
    ConfigError,
    ModelFormatError,
    OpbridgeError,
    OperatorPluginError,
    UnsupportedOperatorError,
    UnsupportedTensorError,
)
from opbridge.frontends.onnx.batch_norm_folding import fold_batch_norms
from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.importer import _convert_node
from opbridge.frontends.onnx.qdq_fusion import fuse_qdq
from opbridge.frontends.torch.int8_fusion import fuse_int8_groups, quantize_float_biases, set_output_quantization
from opbridge.frontends.torch.translation import (
    ATTRIBUTES,
    OPBRIDGE_DOMAIN,
    TensorMeta,
    TorchNode,
    TorchTranslation,
    Value,
)
from opbridge.frontends.unsupported import UnsupportedNode, unsupported_operators_error
from opbridge.ir import DType, Graph
from opbridge.ops.definition import MAX_OPSET
from opbridge.passes.constant_folding import fold_constants
from opbridge.passes.transposes import cancel_transposes
from opbridge.registry_context import RegistryContext

# torch dtypes by their name in `str(torch.float32)`.
TORCH_DTYPES: dict[str, DType] = {
    "torch.float32": DType.FLOAT32,
    "torch.float64": DType.FLOAT64,
    "torch.int8": DType.INT8,
    "torch.uint8": DType.UINT8,
    "torch.int16": DType.INT16,
    "torch.int32": DType.INT32,
    "torch.int64": DType.INT64,
    "torch.bool": DType.BOOL,
}

MAX_PROGRAM_BYTES = 256 * 1024 * 1024


def dtype_of(torch_dtype: Any, where: str) -> DType:
    dtype = TORCH_DTYPES.get(str(torch_dtype))
    if dtype is None:
        raise UnsupportedTensorError(
            f"{where} has dtype {torch_dtype}", hint=f"supported: {', '.join(sorted(TORCH_DTYPES))}"
        )
    return dtype


def _meta(value: Any, where: str) -> TensorMeta | None:
    """The TensorMeta of a FakeTensor (None for a non-tensor)."""
    if value is None or not hasattr(value, "dtype") or not hasattr(value, "shape"):
        return None
    for size in value.shape:
        if not isinstance(size, int) and type(size).__name__ == "SymInt" and not _is_concrete(size):
            raise UnsupportedTensorError(
                f"{where} has a dynamic shape {tuple(value.shape)}",
                hint="export with static shapes (no dynamic_shapes / torch.export.Dim): "
                "opbridge plans the memory of every tensor ahead of time",
            )
    return TensorMeta(dtype_of(value.dtype, where), tuple(int(s) for s in value.shape))


def _is_concrete(size: Any) -> bool:
    try:
        return size.node.is_constant() or size.node.maybe_as_int() is not None  # type: ignore[no-any-return]
    except AttributeError:
        return False


def _to_numpy(tensor: Any, where: str) -> np.ndarray:
    dtype = dtype_of(tensor.dtype, where)
    return np.ascontiguousarray(tensor.detach().cpu().contiguous().numpy(), dtype=dtype.numpy)


def _arguments(node: Any, values: dict[Any, Value], where: str) -> tuple[tuple[Any, ...], tuple[str, ...]]:
    """The node's arguments in schema order, defaults filled in, fx nodes as Values."""
    schema = getattr(node.target, "_schema", None)

    def convert(argument: Any) -> Any:
        if type(argument).__name__ == "Node":
            if argument not in values:
                raise ModelFormatError(f"{where} reads {argument.name!r}, which is not a tensor the graph computes")
            return values[argument]
        if isinstance(argument, list | tuple):
            return type(argument)(convert(a) for a in argument)
        return argument

    if schema is None:
        return tuple(convert(a) for a in node.args), tuple(f"arg{i}" for i in range(len(node.args)))
    arguments, names = [], []
    for position, formal in enumerate(schema.arguments):
        if position < len(node.args) and not formal.kwarg_only:
            value = node.args[position]
        elif formal.name in node.kwargs:
            value = node.kwargs[formal.name]
        elif formal.has_default_value():
            value = formal.default_value
        else:
            raise ModelFormatError(f"{where} lacks the argument {formal.name!r} its schema requires")
        arguments.append(convert(value))
        names.append(formal.name)
    return tuple(arguments), tuple(names)


def _source_line(node: Any) -> str:
    """The model's own line that made the node: the innermost frame outside torch's package (a
    Dropout's node points at the model's `self.drop(x)`, not at torch/nn/modules/dropout.py)."""
    trace = node.meta.get("stack_trace") or ""
    lines = [line.strip() for line in trace.strip().splitlines() if line.strip().startswith("File ")]
    own = [line for line in lines if "site-packages/torch/" not in line.replace("\\", "/")]
    lines = own or lines
    if not lines:
        return ""
    # 'File "model.py", line 12, in forward' -> model.py:12
    text = lines[-1]
    try:
        file_part, line_part = text.split(", line ", 1)
        return f"{pathlib.Path(file_part[len('File ') :].strip(chr(34))).name}:{line_part.split(',')[0]}"
    except ValueError:
        return ""


# How int8 convolutions and linears rescale (ConvertArgs.torch_int8_arithmetic), as the marker the
# ONNX converters read (quantized_helpers.requantization_of): TFLite's fixed point, or float32 scales
# rounded half to even (onnxruntime's QLinear arithmetic). The latter equals torch's convert_pt2e model
# except where torch's own float32 sum decides a value within 0.001 step of x.5; the other int8 nodes
# run TFLite's arithmetic either way (docs/pytorch.md, "What "pytorch" guarantees").
INT8_ARITHMETIC = {"tflite": "tflite", "pytorch": "onnx"}


def read_exported_program(
    program: Any, context: RegistryContext, *, source: str = "<ExportedProgram>", int8_arithmetic: str = "tflite"
) -> Graph:
    """The graph of a torch.export ExportedProgram; typed errors for unsupported nodes, dtypes and shapes.
    `int8_arithmetic`: "tflite" or "pytorch" (ConvertArgs.torch_int8_arithmetic)."""
    try:
        import torch
    except ImportError:
        raise ModelFormatError(
            f"{source}: reading PyTorch programs needs torch",
            hint="pip install torch==2.13.0 (in Bazel: depend on @torch_packages//:torch)",
        ) from None
    if not isinstance(program, torch.export.ExportedProgram):
        raise ModelFormatError(
            f"{source}: expected a torch.export.ExportedProgram, got {type(program).__name__}",
            hint="pass torch.export.export(model.eval(), example_inputs), or a .pt2 file of torch.export.save",
        )
    graph_module = program.graph_module
    conversion = OnnxConversion("main", context, source)
    if int8_arithmetic not in INT8_ARITHMETIC:
        raise ConfigError(
            f"torch_int8_arithmetic {int8_arithmetic!r} is not one of {', '.join(INT8_ARITHMETIC)}",
            hint="tflite: TFLite Micro's fixed-point arithmetic; pytorch: torch's convert_pt2e model's",
        )
    translation = TorchTranslation(conversion, requantization=INT8_ARITHMETIC[int8_arithmetic])
    values: dict[Any, Value] = {}
    inputs = _add_placeholders(program, conversion, translation, values, source)

    torch_nodes, outputs = _read_nodes(graph_module.graph, values, source)
    converters = context.torch_converters
    unsupported = [UnsupportedNode(node.target, node.name) for node in torch_nodes if node.target not in converters]
    if unsupported:
        raise unsupported_operators_error(
            source,
            unsupported,
            hint="see docs/pytorch.md for the supported operators and how to add a converter "
            "(context.torch_converters; custom ops: register_torch_op)",
        )
    for node in torch_nodes:
        for name, meta in zip(node.output_names, node.outputs, strict=True):
            if meta is not None:
                translation.metas[name] = meta
        translation.begin(node)
        converter = converters[node.target]
        try:
            converter.convert(translation, node)
        except OpbridgeError:
            raise
        except (ArithmeticError, IndexError, KeyError, TypeError, ValueError) as error:
            raise ModelFormatError(
                f"{source}: {node.describe()} cannot be converted: {type(error).__name__}: {error}",
                hint="its arguments are not what the converter expects; report this with the model",
            ) from error

    output_names = [translation.resolve(name) for name in outputs]
    nodes = quantize_float_biases(translation.nodes, conversion)
    nodes = fuse_qdq(nodes, output_names, conversion)
    nodes, quantized_outputs = fuse_int8_groups(nodes, output_names, conversion)
    nodes = fold_batch_norms(nodes, output_names, conversion)
    for onnx_node in nodes:
        before = len(conversion.tensors)
        _convert(conversion, onnx_node)
        set_output_quantization(conversion, onnx_node, before, quantized_outputs)
    graph = conversion.graph(inputs, output_names)
    graph = cancel_transposes(fold_constants(graph, context.operators), context.operators)
    graph.notes = float_island_notes(graph)
    return graph


def float_island_notes(graph: Graph) -> tuple[str, ...]:
    """In a PT2E int8 graph, the nodes that still compute in float32 (between a dequantize and a
    quantize), for the conversion's summary."""
    if not any(node.op_type == "QUANTIZE" for node in graph.nodes):
        return ()
    islands = [
        f"{node.name} ({node.op_type})"
        for node in graph.nodes
        if node.op_type not in ("QUANTIZE", "DEQUANTIZE", "TRANSPOSE", "RESHAPE")
        and any(graph.tensors[o].dtype is DType.FLOAT32 for o in node.outputs)
    ]
    if not islands:
        return ("pt2e: every operator runs in int8",)
    shown = ", ".join(islands[:8]) + (", ..." if len(islands) > 8 else "")
    return (
        f"pt2e: {len(islands)} node(s) run in float32 between a dequantize and a quantize: {shown} "
        "(OpbridgeQuantizer.report() says why)",
    )


def export_program(model: Any, example_inputs: tuple[Any, ...]) -> Any:
    """torch.export.export(model.eval(), example_inputs), with its failures as typed errors: a custom op
    without a fake kernel is named with the fix (register_fake, or a plugin's TorchOp, whose fake kernel
    is generated from the schema's shape rule)."""
    import torch

    # The module of an ExportedProgram (torch.export.load(f).module()) refuses eval(): its graph fixed
    # the mode at export. It is exported as it is; quantize_pt2e then moves its dropouts and batch norms
    # to eval mode (torchao's move_exported_model_to_eval).
    with contextlib.suppress(NotImplementedError):
        model = model.eval()
    try:
        return torch.export.export(model, tuple(example_inputs))
    except Exception as error:
        text = str(error)
        missing = re.search(r"no fake impl registered for <CustomOpDef\((\S+)\)>", text) or re.search(
            r"no fake impl(?:ementation)? (?:registered )?for (?:operator )?['\"]?([\w.:]+)", text
        )
        if missing is not None:
            raise OperatorPluginError(
                f"torch.export cannot trace the custom operator {missing.group(1)}: it has no fake kernel",
                hint="give it one with torch.library.register_fake, or declare it as a plugin's TorchOp "
                "(register_torch_op; define_torch_ops generates the fake kernel from the schema's shape rule)",
            ) from None
        first = text.strip().splitlines()[0] if text.strip() else type(error).__name__
        raise ModelFormatError(
            f"torch.export.export failed: {type(error).__name__}: {first}",
            hint="opbridge converts what torch.export captures; see torch.export's message above",
        ) from error


def _convert(conversion: OnnxConversion, node: OnnxNode) -> None:
    if node.domain == OPBRIDGE_DOMAIN:
        inputs: list[int | None] = [conversion.value(name, node) if name else None for name in node.inputs]
        conversion.emit(node.op_type, inputs, node.attributes[ATTRIBUTES], name=node.name, outputs=node.outputs)
        return
    _convert_node(conversion, node, {}, {"": MAX_OPSET}, MAX_OPSET)


def _add_placeholders(
    program: Any, conversion: OnnxConversion, translation: TorchTranslation, values: dict[Any, Value], source: str
) -> list[int]:
    """Parameters, buffers and constants as constant tensors; user inputs as graph inputs."""
    from torch.export.graph_signature import InputKind

    placeholders = {node.name: node for node in program.graph_module.graph.nodes if node.op == "placeholder"}
    inputs = []
    for spec in program.graph_signature.input_specs:
        node = placeholders.get(spec.arg.name)
        if node is None:
            continue
        if spec.kind == InputKind.USER_INPUT:
            where = f'{source}: input "{node.name}"'
        else:
            where = f'{source}: {spec.kind.name.lower().replace("_", " ")} "{spec.target}" ({node.name})'
        if spec.kind == InputKind.USER_INPUT:
            meta = _meta(node.meta.get("val"), where)
            if meta is None:
                raise UnsupportedTensorError(f"{where} is not a tensor", hint="opbridge takes tensor inputs only")
            inputs.append(conversion.add_tensor(node.name, meta.dtype, meta.shape))
        elif spec.kind in (InputKind.PARAMETER, InputKind.BUFFER, InputKind.CONSTANT_TENSOR):
            tensor = program.state_dict.get(spec.target)
            if tensor is None:
                tensor = program.constants.get(spec.target)
            if tensor is None:
                raise ModelFormatError(f"{where} ({spec.target}) has no data in the program")
            data = _to_numpy(tensor, where)
            dtype = dtype_of(tensor.dtype, where)
            conversion.add_tensor(node.name, dtype, data.shape, data)
            meta = TensorMeta(dtype, tuple(int(d) for d in data.shape))
        else:
            raise UnsupportedOperatorError(
                f"{where} is a {spec.kind.name.lower()} input", hint="opbridge converts programs of tensors only"
            )
        values[node] = Value(node.name)
        translation.metas[node.name] = meta
    return inputs


def _read_nodes(graph: Any, values: dict[Any, Value], source: str) -> tuple[list[TorchNode], list[str]]:
    """The call_function nodes as TorchNodes, and the names of the graph's outputs."""
    nodes: list[TorchNode] = []
    outputs: list[str] = []
    position = 0
    for fx_node in graph.nodes:
        if fx_node.op == "placeholder":
            continue
        if fx_node.op == "output":
            results = fx_node.args[0]
            for result in results if isinstance(results, list | tuple) else (results,):
                if result not in values:
                    raise UnsupportedOperatorError(
                        f"{source}: graph output {result!r} is not a tensor the graph computes",
                        hint="return tensors computed from the inputs",
                    )
                outputs.append(values[result].name)
            continue
        if fx_node.op != "call_function":
            raise UnsupportedOperatorError(
                f'{source}: node "{fx_node.name}" is a {fx_node.op}',
                hint="convert an ExportedProgram (torch.export.export), whose nodes are call_function",
            )
        where = f'{source}: node {position} ({fx_node.target} "{fx_node.name}")'
        args, names = _arguments(fx_node, values, where)
        val = fx_node.meta.get("val")
        if isinstance(val, list | tuple):
            metas = tuple(_meta(v, f"{where} output {i}") for i, v in enumerate(val))
        else:
            metas = (_meta(val, f"{where} output"),)
        node = TorchNode(target_key(fx_node.target), fx_node.name, args, names, metas, position, _source_line(fx_node))
        nodes.append(node)
        values[fx_node] = Value(fx_node.name)
        position += 1
    return nodes, outputs


def target_key(target: Any) -> str:
    """The torch_converters key of a call_function target: str(OpOverload) ("aten.conv2d.default"),
    or module.name for a Python function ("operator.getitem")."""
    if hasattr(target, "_schema"):
        return str(target)
    module = getattr(target, "__module__", "") or ""
    return f"{module.lstrip('_')}.{getattr(target, '__name__', str(target))}"


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(logging.Formatter().format(record))  # the message and its traceback


def _load_error(path: pathlib.Path, error: BaseException, logged: list[str]) -> ModelFormatError:
    """torch.export.load's failure as a typed error; an operator torch cannot find (a custom op whose
    plugin was not passed) is named, with the fix."""
    texts = list(logged)
    cause: BaseException | None = error
    while cause is not None and len(texts) < len(logged) + 8:
        texts.append(str(cause))
        cause = cause.__cause__ or cause.__context__
    missing = re.search(r"failed to resolve (\S+) to an operator", "\n".join(texts))
    if missing is not None:
        return ModelFormatError(
            f"{path}: the program calls {missing.group(1)}, which is not defined in this process",
            hint="pass the plugin that declares it (--plugin module, with a TorchOp; docs/pytorch.md), "
            "or import the module that defines the op before loading",
        )
    message = str(error).splitlines()[0] if str(error) else type(error).__name__
    return ModelFormatError(
        f"{path}: torch.export.load failed: {type(error).__name__}: {message}",
        hint="save it again with torch.export.save (of the same torch version)",
    )


# The archive, checked with zipfile before torch opens it (check_archive).
MAX_UNPACKED_BYTES = 1024 * 1024 * 1024  # all members together, uncompressed
MAX_RATIO = 1000  # a member's uncompressed size over its compressed size ...
RATIO_FROM_BYTES = 4 * 1024 * 1024  # ... checked for members larger than this
ARCHIVE_HINT = "save it again with torch.export.save; the file is damaged or was not written by torch"
# Members torch.export.load runs through an unpickler that can import anything (pickle.loads of
# opaque objects, TorchScript objects): refused, opbridge converts no such constant.
CODE_MEMBERS = ("/constants/custom_obj_", "/constants/opaque_obj_")


def check_archive(path: pathlib.Path, size: int) -> None:
    """The .pt2 zip archive before torch.export.load reads it: a readable zip (central directory,
    member headers); member names relative, without '..', backslashes or duplicates; no zip bomb (all
    members together at most MAX_UNPACKED_BYTES uncompressed, no member over RATIO_FROM_BYTES
    compressed more than MAX_RATIO times); every member's CRC; and every pickle torch would unpickle
    importing only what torch's weights-only unpickler allows (check_pickle). ModelFormatErrors name the
    member."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
            _check_members(path, members, str(path))
            contents = {}
            for member in members:
                with archive.open(member) as opened:  # the CRC is checked at the member's end
                    contents[member.filename] = opened.read(member.file_size + 1)
            pickled = _pickled_payloads(path, contents)
            for name, data in contents.items():
                # torch's archive reader finds members whatever their case: names compared case-folded.
                _check_member_content(path, name, data, name.casefold() in pickled)
    except ModelFormatError:
        raise
    except Exception as error:  # zipfile raises BadZipFile, EOFError, zlib.error, NotImplementedError ...
        reason = str(error) or type(error).__name__
        raise ModelFormatError(f"{path}: not a readable .pt2 archive: {reason}", hint=ARCHIVE_HINT) from None


def _check_members(path: pathlib.Path, members: list[zipfile.ZipInfo], where: str) -> None:
    seen: set[str] = set()
    total = 0
    for member in members:
        name = member.filename
        parts = name.split("/")
        problem = ""
        if name.startswith("/") or re.match(r"^[A-Za-z]:", name):
            problem = "is an absolute path"
        elif "\\" in name:
            problem = "contains a backslash"
        elif ".." in parts:
            problem = "contains '..'"
        elif "\0" in name:
            problem = "contains a NUL character"
        elif name.casefold() in seen:
            problem = "is in the archive twice (names compared without case, as torch finds them)"
        if problem:
            raise ModelFormatError(f"{where}: member {name!r} {problem}", hint=ARCHIVE_HINT)
        seen.add(name.casefold())
        total += member.file_size
        if member.file_size > RATIO_FROM_BYTES and member.file_size > MAX_RATIO * max(member.compress_size, 1):
            raise ModelFormatError(
                f"{where}: member {name!r} unpacks {member.compress_size:,} bytes into {member.file_size:,} "
                f"(over {MAX_RATIO}x): refused as a zip bomb",
                hint=ARCHIVE_HINT,
            )
    if total > MAX_UNPACKED_BYTES:
        raise ModelFormatError(
            f"{where}: its members unpack to {total:,} bytes, more than the {MAX_UNPACKED_BYTES:,}-byte limit",
            hint="models for microcontrollers are far smaller; " + ARCHIVE_HINT,
        )


def _pickled_payloads(path: pathlib.Path, contents: dict[str, bytes]) -> set[str]:
    """The members the archive's payload configs (data/weights/*_config.json, data/constants/...) mark
    use_pickle: torch.load reads them without weights_only. The others are raw tensor bytes."""
    pickled: set[str] = set()
    for name, data in contents.items():
        if not name.endswith("_config.json") or "/data/" not in f"/{name}":
            continue
        try:
            entries = json.loads(data).get("config", {})
            for entry in entries.values():
                if entry.get("use_pickle"):
                    pickled.add(posixpath.join(posixpath.dirname(name), entry["path_name"]).casefold())
        except Exception as error:  # not JSON, or not the payload config's shape
            raise ModelFormatError(
                f"{path}: member {name!r} is not a payload config torch can read: {error}", hint=ARCHIVE_HINT
            ) from None
    return pickled


def _check_member_content(path: pathlib.Path, name: str, data: bytes, marked_pickled: bool) -> None:
    """A member torch may unpickle: a nested torch.save archive (its data.pkl); a member a payload
    config marks use_pickle, or named .pt/.pkl, as a raw pickle. Raw tensor bytes are not pickles."""
    where = f"{path}: member {name!r}"
    if any(marker in f"/{name}".casefold() for marker in CODE_MEMBERS):
        raise ModelFormatError(
            f"{where} holds a TorchScript or opaque Python object, which torch.export.load unpickles without "
            "restriction (it could run any code); opbridge does not load such programs",
            hint="export the model without custom objects among its constants",
        )
    if data[:4] == b"PK\x03\x04":
        with zipfile.ZipFile(io.BytesIO(data)) as nested:
            inner = nested.infolist()
            _check_members(path, inner, where)
            for member in inner:
                if member.filename.casefold().endswith(".pkl"):
                    check_pickle(nested.read(member), f"{where}, {member.filename!r}")
        if marked_pickled or name.casefold().endswith(".pt"):
            _load_weights_only(data, where)
    elif marked_pickled:
        # torch.export.save writes these with torch.save (a zip archive); a bare pickle here would be read
        # by torch.load's legacy format, several pickles in a row, without weights_only.
        raise ModelFormatError(f"{where} is marked use_pickle but is not a torch.save archive", hint=ARCHIVE_HINT)
    elif name.casefold().endswith((".pt", ".pkl")):
        check_pickle(data, where)


def _load_weights_only(data: bytes, where: str) -> None:
    """A torch.save archive that torch.export.load reads with weights_only=False, read first by torch's
    weights-only unpickler: it refuses every global and call outside its allow list, so what passes it
    runs nothing else when read without the restriction."""
    import torch

    try:
        torch.load(io.BytesIO(data), weights_only=True, map_location="cpu")
    except Exception as error:  # UnpicklingError for what it refuses; anything on a damaged archive
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ModelFormatError(
            f"{where} does not load with torch's weights-only unpickler ({reason}); loading it without that "
            "restriction, as torch.export.load does, could run code, and opbridge refuses it",
            hint="save the program again with torch.export.save from the model itself; "
            "load .pt2 files only from sources you trust",
        ) from None


def check_pickle(data: bytes, where: str) -> None:
    """A pickle read without running it (pickletools): every global it imports must be one torch's
    weights-only unpickler allows (tensors, storages, OrderedDict, ...); torch.export.load unpickles
    some members with weights_only=False, where any other global could run code."""
    import pickletools

    import torch._weights_only_unpickler

    allowed = set(torch._weights_only_unpickler._get_allowed_globals())
    strings: list[str] = []
    end = 0
    try:
        for opcode, argument, position in pickletools.genops(data):
            end = position + 1  # genops stops after STOP, a one-byte opcode
            if opcode.name in ("SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "UNICODE", "SHORT_BINSTRING"):
                strings.append(str(argument))
                continue
            if opcode.name in ("MEMOIZE", "BINPUT", "LONG_BINPUT", "PUT"):
                continue
            if opcode.name in ("GLOBAL", "INST"):
                imported = str(argument).replace(" ", ".")
            elif opcode.name == "STACK_GLOBAL":
                # Its module and name must be the two strings pushed just before it.
                imported = ".".join(strings[-2:]) if len(strings) >= 2 else "?"
            elif opcode.name.startswith("EXT"):
                imported = f"extension code {argument}"
            else:
                strings.clear()
                continue
            strings.clear()
            if imported not in allowed:
                raise ModelFormatError(
                    f"{where} is a pickle that imports {imported!r}, which torch's weights-only unpickler does "
                    "not allow: loading it could run code, and opbridge refuses it",
                    hint="save the program again with torch.export.save from the model itself; "
                    "load .pt2 files only from sources you trust",
                )
    except ModelFormatError:
        raise
    except Exception as error:  # pickletools raises ValueError and others on a damaged pickle
        raise ModelFormatError(f"{where} is a damaged pickle: {error}", hint=ARCHIVE_HINT) from None
    if end != len(data):
        # torch.load of a file that is not a zip reads several pickles in a row (its legacy format): only
        # the first was checked, so anything after it is refused.
        raise ModelFormatError(
            f"{where} holds {len(data) - end:,} bytes after its pickle's end; torch.save writes one pickle "
            "(in a zip archive)",
            hint=ARCHIVE_HINT,
        )


def load_torch_program(path: pathlib.Path | str, context: RegistryContext, *, int8_arithmetic: str = "tflite") -> Graph:
    """A .pt2 file of torch.export.save as a graph. Custom ops must be defined first (a plugin's
    TorchOps: define_torch_ops, which the CLI and converter call for --plugin)."""
    path = pathlib.Path(path)
    try:
        size = path.stat().st_size
    except OSError as error:
        raise ModelFormatError(f"cannot read model {path}: {error.strerror}", hint="check the path") from None
    if size > MAX_PROGRAM_BYTES:
        raise ModelFormatError(f"{path}: {size} bytes is larger than the {MAX_PROGRAM_BYTES}-byte limit")
    check_archive(path, size)
    import torch
    import torch.ao.quantization.fx._decomposed

    from opbridge.frontends.torch.library import define_torch_ops

    define_torch_ops(context)
    # torch logs why deserializing failed (an operator it cannot resolve), tracebacks included, and raises
    # a generic error: the log is read for the typed error, not printed.
    with _torch_logs_recorded() as logged:
        try:
            program = torch.export.load(str(path))
        except Exception as error:  # pickle, JSON, schema-version and missing-member errors alike
            raise _load_error(path, error, logged.messages) from None
    return read_exported_program(program, context, source=str(path), int8_arithmetic=int8_arithmetic)


@contextlib.contextmanager
def _torch_logs_recorded() -> Iterator[_Records]:
    """While it lasts, torch's loggers (which print to stderr through handlers of their own) write to one
    recorder instead, and Python warnings are not shown; the handlers and warning filters are restored after."""
    recorder = _Records()
    loggers = [logging.getLogger("torch")] + [
        logger
        for name, logger in list(logging.root.manager.loggerDict.items())
        if isinstance(logger, logging.Logger) and name.startswith("torch.")
    ]
    saved = [(logger, logger.handlers[:]) for logger in loggers if logger.handlers]
    exporter = logging.getLogger("torch.export")
    added = [] if exporter.handlers else [exporter]  # its records reach the recorder even without a handler
    for logger, _ in saved:
        logger.handlers = [recorder]
    for logger in added:
        logger.addHandler(recorder)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield recorder
    finally:
        for logger, handlers in saved:
            logger.handlers = handlers
        for logger in added:
            logger.removeHandler(recorder)
