# SPDX-License-Identifier: Apache-2.0
"""ONNX models (read with the `onnx` package) -> opbridge graphs.

Nodes of a custom domain are resolved through the registry's schemas: the
model must import the domain at a version the registered domain covers, and
the op gets the schema with the highest since_version not above it (see
opbridge.schemas.opsets). Attributes are read into the op's attribute class,
output dtypes and shapes come from the schema's inference function.

First the file's structure is checked (frontends/onnx/validation.py: the protobuf encoding, the graph's
parts and names, tensor data against dims, node attributes, types and shapes in ONNX's strict inference):
a damaged file is one ModelFormatError naming the file and what is wrong, and every error raised while
reading it names the file.

Before conversion (prepare_model, frontends/onnx/preparation.py) a model below opset 13 is upgraded
with onnx.version_converter and constant subgraphs are folded with onnx.reference. Standard ONNX
operators (domain "" / ai.onnx, opsets 13..21) are then converted
by the registry's `onnx_converters`, which each operator folder fills from
its `onnx.py` (ops/<op>/onnx.py; Identity, Clip and unfolded
BatchNormalization: ops/shared/onnx_composite.py); a model using ops
without one is refused with every such node, grouped by op type.

read_onnx_model runs every pass the frontend applies, in one place: QDQ
groups fused into QLinear ops (qdq_fusion.fuse_qdq) and each
BatchNormalization folded into the Conv before it
(batch_norm_folding.fold_batch_norms), on the ONNX nodes; then, on the converted
graph, constant folding and the cancellation of transposes that undo each
other. Converted graphs go through the same passes, planner and C emitter
as LiteRT ones.

ONNX bytes are parsed in one place too, read_model_proto (with the `onnx`
package): the native CustomOpSession reads its models through it and
read_node, and keeps their custom-domain nodes as they are.
"""

import dataclasses
import pathlib
from typing import Any

import numpy as np

from opbridge.errors import (
    ConfigError,
    ModelFormatError,
    OpbridgeError,
    UnsupportedOperatorError,
    UnsupportedTensorError,
    nearest,
)
from opbridge.frontends.onnx.batch_norm_folding import fold_batch_norms
from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.preparation import (
    MAX_FOLDED_BYTES,
    Preparation,
    fold_constant_subgraphs,
    per_channel_prelu_slopes,
    unconvertible_constants,
    unfolded_constants_problem,
    upgrade_opset,
)
from opbridge.frontends.onnx.qdq_fusion import fuse_qdq
from opbridge.frontends.onnx.quantized_helpers import MICROSOFT_DOMAIN, REQUANTIZATION
from opbridge.frontends.onnx.validation import (
    check_initializers,
    check_node_rules,
    check_structure,
    check_tensor_data,
    check_types,
    check_with_onnx,
    tensor_nbytes,
    wire_problem,
)
from opbridge.frontends.unsupported import UnsupportedNode, unsupported_operators_error
from opbridge.ir import Graph, Tensor
from opbridge.ir.onnx_dtypes import ONNX_DTYPES
from opbridge.ops.definition import MAX_OPSET, MIN_OPSET, converter_key
from opbridge.passes.constant_folding import fold_constants
from opbridge.passes.transposes import cancel_transposes
from opbridge.registry_context import RegistryContext
from opbridge.schemas.onnx_attributes import attribute_from_onnx
from opbridge.schemas.opsets import UnknownSchemaError

ONNX_DOMAINS = frozenset({"", "ai.onnx"})
MAX_MODEL_BYTES = 256 * 1024 * 1024
EXTERNAL_HINT = (
    "keep the data file beside the model, under a relative location inside the model's folder "
    "(not absolute, no '..', no symbolic link), as torch.onnx.export and onnx.save write it"
)


def text(value: str | bytes) -> str:
    """A name from the model: protobuf hands back bytes for a string that is not valid UTF-8."""
    return value.decode("utf-8", errors="replace") if isinstance(value, bytes) else value


def _dtype(element_type: int, where: str) -> Any:
    dtype = ONNX_DTYPES.get(element_type)
    if dtype is None:
        raise UnsupportedTensorError(
            f"{where}: ONNX element type {element_type} is not supported",
            hint=f"supported: {', '.join(d.value for d in ONNX_DTYPES.values())}",
        )
    return dtype


def tensor_type(info: Any) -> tuple[int, tuple[int, ...] | None] | None:
    """A ValueInfoProto's element type (0: not given) and shape (None: not given; -1 for a
    dimension without a fixed size), or None when the value is not a dense tensor."""
    if not info.type.HasField("tensor_type"):
        return None
    tensor = info.type.tensor_type
    if not tensor.HasField("shape"):
        return tensor.elem_type, None
    return tensor.elem_type, tuple(d.dim_value if d.HasField("dim_value") else -1 for d in tensor.shape.dim)


def _value_info_tensor(index: int, info: Any) -> Tensor:
    where = f'graph input "{text(info.name)}"'
    described = tensor_type(info)
    if described is None:
        raise UnsupportedTensorError(f"{where} is not a tensor", hint="opbridge takes tensor inputs only")
    element_type, shape = described
    if shape is None:
        raise UnsupportedTensorError(f"{where} has no shape", hint="export the model with input shapes")
    return Tensor(index, text(info.name), _dtype(element_type, where), shape)


def read_model_proto(data: bytes, source: str = "<bytes>") -> tuple[Any, dict[str, int]]:
    """The onnx ModelProto of serialized bytes and the version of each domain it imports ("ai.onnx"
    as ""); typed errors for damaged bytes. Every reader of ONNX bytes in opbridge parses them here."""
    import onnx
    from google.protobuf.message import DecodeError

    if not data:
        raise ModelFormatError(f"{source}: the model is empty", hint="pass the bytes of an .onnx file")
    if len(data) > MAX_MODEL_BYTES:
        raise ModelFormatError(f"{source}: {len(data)} bytes is larger than the {MAX_MODEL_BYTES}-byte limit")
    try:
        model = onnx.load_model_from_string(data)
    except (DecodeError, ValueError, RuntimeError) as error:
        problem = wire_problem(data) or f"{error}"
        raise ModelFormatError(
            f"{source}: not a readable ONNX model (a protobuf ModelProto): {problem}",
            hint="the file is damaged or is not an ONNX model; re-export it",
        ) from None
    if not model.HasField("graph"):
        raise ModelFormatError(f"{source}: the model has no graph", hint="re-export the model")
    imports: dict[str, int] = {}
    for entry in model.opset_import:
        domain = "" if entry.domain == "ai.onnx" else entry.domain
        if domain in imports:
            raise ModelFormatError(f"{source}: domain {entry.domain or 'ai.onnx'!r} is imported twice")
        imports[domain] = entry.version
    return model, imports


# How the int8 convolutions and matrix products rescale (ConvertArgs.onnx_int8_arithmetic).
INT8_ARITHMETIC = ("onnx", "tflite")
# The ops, QLinear or fused from QDQ groups, whose rescaling the setting chooses.
REQUANTIZING_OPS = ("QLinearConv", "QLinearMatMul", "QGemm")
# onnxruntime's own ops (com.microsoft) whose rescaling it chooses too.
MICROSOFT_REQUANTIZING_OPS = ("QGemm", "QLinearGlobalAveragePool")


def read_onnx_model(
    data: bytes,
    context: RegistryContext,
    *,
    source: str = "<bytes>",
    int8_arithmetic: str = "onnx",
    base_dir: pathlib.Path | str | None = None,
    max_folded_bytes: int = MAX_FOLDED_BYTES,
) -> Graph:
    """The graph of a serialized ONNX model; typed errors for damaged files and unknown ops.
    The frontend's passes all run here (see the module docstring). `int8_arithmetic`: "onnx"
    (onnxruntime's float32 scales, bit-exact with it) or "tflite" (TFLite's fixed-point multipliers:
    the fastest kernels, within one int8 step of onnxruntime). `base_dir`: the model file's folder,
    where its external data (a `.onnx.data` file beside it) is looked up (load_external_data); None
    for bytes of no file, whose external data is then refused. `max_folded_bytes`: the largest value a
    constant subgraph is folded into (ConvertArgs.onnx_max_folded_bytes, frontends/onnx/preparation.py)."""
    if int8_arithmetic not in INT8_ARITHMETIC:
        raise ConfigError(
            f"onnx_int8_arithmetic {int8_arithmetic!r} is not one of {', '.join(INT8_ARITHMETIC)}",
            hint="onnx: as onnxruntime computes it; tflite: TFLite Micro's fixed-point rescaling",
        )
    try:
        return _read_onnx_model(data, context, source, int8_arithmetic, base_dir, max_folded_bytes)
    except OpbridgeError as error:
        error.add_context(source)  # every refusal names the file, whichever stage raised it
        raise


def _read_onnx_model(
    data: bytes,
    context: RegistryContext,
    source: str,
    int8_arithmetic: str,
    base_dir: pathlib.Path | str | None,
    max_folded_bytes: int,
) -> Graph:
    model, imports = read_model_proto(data, source)
    check_structure(model, source)
    load_external_data(model, base_dir, source)
    check_initializers(model, source, MAX_MODEL_BYTES)
    check_with_onnx(model, source)
    check_types(model, source)
    check_node_rules(model, source)
    onnx_version = imports[""]
    preparation = prepare_model(model, onnx_version, source, max_folded_bytes)
    model, onnx_version = preparation.model, preparation.opset_to or onnx_version
    imports[""] = onnx_version
    conversion = OnnxConversion(model.graph.name or "main", context, source)
    inputs = _add_graph_values(conversion, model.graph)
    protos = list(model.graph.node)
    nodes = [read_node(proto, position) for position, proto in zip(preparation.positions, protos, strict=True)]
    custom_protos = {id(node): proto for node, proto in zip(nodes, protos, strict=True)}
    for node in nodes:
        _check_arity(node, onnx_version, source)
    outputs = [text(info.name) for info in model.graph.output]
    # Passes on the ONNX nodes, before conversion ...
    try:
        nodes = fold_batch_norms(fuse_qdq(nodes, outputs, conversion, qlinear_groups=True), outputs, conversion)
    except (ArithmeticError, IndexError, KeyError, TypeError, ValueError) as error:
        # The passes met nodes whose inputs do not fit together (a damaged model the checks above let through).
        raise ModelFormatError(
            f"{source}: the QDQ fusion and BatchNormalization folding cannot read the model's nodes: "
            f"{type(error).__name__}: {error}",
            hint="the nodes' inputs are not what their ONNX operators allow; re-export the model",
        ) from error
    if int8_arithmetic == "tflite":
        nodes = [
            dataclasses.replace(node, attributes={**node.attributes, REQUANTIZATION: "tflite"})
            if (node.op_type in REQUANTIZING_OPS and node.domain in ONNX_DOMAINS)
            or (node.op_type in MICROSOFT_REQUANTIZING_OPS and node.domain == MICROSOFT_DOMAIN)
            else node
            for node in nodes
        ]
    _check_convertible(nodes, context, imports, onnx_version, source, preparation)
    for node in nodes:
        _convert_node(conversion, node, custom_protos, imports, onnx_version)
    graph = conversion.graph(inputs, outputs)
    # ... and on the converted graph.
    graph = cancel_transposes(fold_constants(graph, context.operators), context.operators)
    graph.notes = preparation.notes()
    return graph


def prepare_model(model: Any, onnx_version: int, source: str, max_folded_bytes: int = MAX_FOLDED_BYTES) -> Preparation:
    """The ModelProto as conversion reads it: upgraded to MIN_OPSET when older, constant
    subgraphs folded (frontends/onnx/preparation.py)."""
    opset_from = opset_to = None
    file_positions: dict[str, int] = {}
    if onnx_version < MIN_OPSET:
        # Named first: the version converter may insert nodes, and messages must name (and number)
        # the file's nodes.
        for position, proto in enumerate(model.graph.node):
            proto.name = node_name(proto, position)
            file_positions[proto.name] = position
        if onnx_version < 7:
            per_channel_prelu_slopes(model)
        model = upgrade_opset(model, onnx_version, MIN_OPSET, source)
        opset_from, opset_to, onnx_version = onnx_version, MIN_OPSET, MIN_OPSET
    model, folded, positions, too_large = fold_constant_subgraphs(model, onnx_version, max_folded_bytes)
    if file_positions:
        protos = model.graph.node
        positions = tuple(file_positions.get(text(protos[i].name), p) for i, p in enumerate(positions))
    return Preparation(model, opset_from, opset_to, folded, positions, too_large, max_folded_bytes)


def load_onnx_model(path: pathlib.Path | str, context: RegistryContext) -> Graph:
    path = pathlib.Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ModelFormatError(f"cannot read model {path}: {error.strerror}", hint="check the path") from None
    return read_onnx_model(data, context, source=str(path), base_dir=path.parent)


def load_external_data(model: Any, base_dir: pathlib.Path | str | None, source: str) -> None:
    """The initializers whose data is in external files (what torch.onnx.export and quantize_static's
    use_external_data_format write beside the model) read into the ModelProto, from `base_dir` (the
    model file's folder, whatever the working directory). The `onnx` package opens each file and refuses
    absolute locations, locations outside `base_dir` and symbolic links; those, missing files and data
    beyond a file's end are ModelFormatErrors naming the tensor. The data may total MAX_MODEL_BYTES."""
    import onnx.external_data_helper

    external = [t for t in model.graph.initializer if onnx.external_data_helper.uses_external_data(t)]
    if not external:
        return
    first = text(external[0].name)
    location = next((text(e.value) for e in external[0].external_data if e.key == "location"), "")
    if base_dir is None:
        raise ModelFormatError(
            f'{source}: initializer "{first}" keeps its data in the external file {location!r}, and the model '
            "was given as bytes, without the folder that file is in",
            hint="load the model from its file (opbridge convert, load_model, load_onnx_model), or pass base_dir",
        )
    total = 0
    for tensor in external:
        check_tensor_data(tensor, f'{source}: initializer "{text(tensor.name)}"', MAX_MODEL_BYTES)
        total += tensor_nbytes(tensor) or 0
    if total > MAX_MODEL_BYTES:
        raise ModelFormatError(
            f"{source}: the external data of {len(external)} initializers is {total} bytes, larger than the "
            f"{MAX_MODEL_BYTES}-byte limit",
            hint="models for microcontrollers are far smaller; check the model",
        )
    for tensor in external:
        _check_external_size(tensor, pathlib.Path(base_dir), source)
        try:
            onnx.external_data_helper.load_external_data_for_tensor(tensor, str(base_dir))
        except Exception as error:  # the onnx package's checks raise ValidationError, ValueError, OSError
            reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            raise ModelFormatError(
                f'{source}: cannot read the external data of initializer "{text(tensor.name)}" from {base_dir}: '
                f"{reason}",
                hint=EXTERNAL_HINT,
            ) from None


def _check_external_size(tensor: Any, base_dir: pathlib.Path, source: str) -> None:
    """The bytes a tensor's external data holds (its `length`, or what its file holds after `offset`) are
    the bytes its dims and element type take; checked before anything is read. A location the `onnx`
    package will refuse (absolute, '..') is not looked at here."""
    import onnx

    entries = {entry.key: text(entry.value) for entry in tensor.external_data}
    expected = tensor_nbytes(tensor)
    location = entries.get("location", "")
    where = f'{source}: the external data of initializer "{text(tensor.name)}" ({location!r})'
    try:
        offset = int(entries.get("offset", "0"))
        length = int(entries["length"]) if "length" in entries else None
    except ValueError:
        raise ModelFormatError(f"{where} has an offset or length that is not a number", hint=EXTERNAL_HINT) from None
    if expected is None:
        return
    if length is None:
        relative = pathlib.PurePath(location)
        if not location or relative.is_absolute() or ".." in relative.parts:
            return
        try:
            length = (base_dir / relative).lstat().st_size - offset
        except OSError:
            return  # missing: the onnx package names it
    if length != expected:
        dims = list(tensor.dims)
        raise ModelFormatError(
            f"{where} holds {length:,} bytes; its dims {dims} of "
            f"{onnx.TensorProto.DataType.Name(tensor.data_type)} take {expected:,}",
            hint=EXTERNAL_HINT,
        )


def node_name(onnx_node: Any, position: int) -> str:
    """A NodeProto's name; an unnamed node is `<op_type>_<position>`."""
    return text(onnx_node.name) or f"{text(onnx_node.op_type)}_{position}"


def read_node(onnx_node: Any, position: int) -> OnnxNode:
    """One NodeProto as an OnnxNode: names decoded (node_name), "ai.onnx" as "", attribute values
    as onnx.helper reads them (strings decoded)."""
    import onnx

    attributes = {}
    for attribute in onnx_node.attribute:
        value = onnx.helper.get_attribute_value(attribute)
        if isinstance(value, bytes):
            value = value.decode("utf-8", errors="replace")
        attributes[attribute.name] = value
    return OnnxNode(
        op_type=text(onnx_node.op_type),
        domain="" if text(onnx_node.domain) == "ai.onnx" else text(onnx_node.domain),
        name=node_name(onnx_node, position),
        inputs=tuple(text(name) for name in onnx_node.input),
        outputs=tuple(text(name) for name in onnx_node.output),
        attributes=attributes,
        position=position,
    )


def _check_arity(node: OnnxNode, onnx_version: int | None, source: str) -> None:
    """A standard op's input and output counts are within its ONNX schema's (before any converter
    or fusion indexes them); custom-domain nodes are checked against their own schemas later."""
    import onnx

    if node.domain not in ONNX_DOMAINS or onnx_version is None:
        return
    try:
        schema = onnx.defs.get_schema(node.op_type, onnx_version, "")
    except onnx.defs.SchemaError:
        return  # not an ONNX op: refused as unsupported below
    for kind, count, low, high in (
        ("inputs", len(node.inputs), schema.min_input, schema.max_input),
        ("outputs", len(node.outputs), schema.min_output, schema.max_output),
    ):
        if not low <= count <= high:
            raise ModelFormatError(
                f"{source}: {node.describe()} has {count} {kind}; {node.op_type} takes {low} to {high}",
                hint="the model is damaged; re-export it",
            )


def _convert_custom(conversion: OnnxConversion, onnx_node: Any, node: OnnxNode, imports: dict[str, int]) -> None:
    """A node of a custom domain, through the schema its imported version selects."""
    import onnx

    where = f"{conversion.source}: {node.describe()}"
    if node.domain not in imports:
        raise ModelFormatError(
            f"{where} uses domain {node.domain!r}, which the model does not import",
            hint=(f"{suggestion} " if (suggestion := nearest(node.domain, imports)) else "")
            + "add the domain to the model's opset_import",
        )
    schema, op_key = conversion.context.schemas().select(node.domain, node.op_type, imports[node.domain], where)
    specs = {spec.name: spec for spec in schema.attributes}
    values = {}
    for attribute in onnx_node.attribute:
        spec = specs.get(attribute.name)
        if spec is None:
            raise ModelFormatError(
                f"{where} has attribute {attribute.name!r}, which {schema.describe()} does not declare",
                hint=f"declared: {', '.join(specs) or 'none'}",
            )
        values[spec.name] = attribute_from_onnx(spec, onnx.helper.get_attribute_value(attribute), where)
    missing = [s.name for s in schema.attributes if s.required and s.name not in values]
    if missing:
        raise ModelFormatError(f"{where} lacks required attributes {missing}")
    attributes = None if schema.attributes_class is None else schema.attributes_class(**values)
    inputs: list[int | None] = [conversion.value(name, node) if name else None for name in node.inputs]
    conversion.emit(op_key, inputs, attributes, name=node.name, outputs=node.outputs)


def _add_graph_values(conversion: OnnxConversion, onnx_graph: Any) -> list[int]:
    """The initializers as constants and the graph inputs; returns the inputs' tensor indices."""
    import onnx

    for initializer in onnx_graph.initializer:
        where = f'{conversion.source}: initializer "{text(initializer.name)}"'
        dtype = _dtype(initializer.data_type, where)
        try:
            array = onnx.numpy_helper.to_array(initializer)
        except Exception as error:  # the onnx package raises assorted errors on damaged tensors
            raise ModelFormatError(f"{where} is damaged: {error}") from None
        conversion.add_tensor(text(initializer.name), dtype, array.shape, np.asarray(array, dtype.numpy))
    inputs = []
    for info in onnx_graph.input:
        if text(info.name) in conversion.by_name:
            continue  # an initializer listed as an input too (older exporters)
        tensor = _value_info_tensor(len(conversion.tensors), info)
        inputs.append(conversion.add_tensor(tensor.name, tensor.dtype, tensor.shape))
    return inputs


def _check_convertible(
    nodes: list[OnnxNode],
    context: RegistryContext,
    imports: dict[str, int],
    onnx_version: int,
    source: str,
    preparation: Preparation,
) -> None:
    """Every node has a converter or, in a custom domain the model imports, a registered schema, and
    no node of constant inputs was left unfolded for its size without a converter to run it: all
    nodes refused at once, in one error (the unsupported ones grouped by op and reason, then the
    unfolded constants with their bytes and the setting that folds them); and the opset is covered."""
    converters = context.onnx_converters
    constants = unconvertible_constants(preparation, lambda op_type: op_type in converters)
    # An unfolded constant is listed with its size, not again as an op without a converter.
    constant_outputs = {tuple(text(name) for name in unfolded.node.output) for unfolded in constants}
    unsupported = []
    schema_errors: list[UnknownSchemaError] = []
    for node in nodes:
        if node.domain in ONNX_DOMAINS:
            if node.op_type not in converters and node.outputs not in constant_outputs:
                unsupported.append(UnsupportedNode(node.op_type, node.name))
            continue
        if converter_key(node.domain, node.op_type) in converters or node.domain not in imports:
            continue  # a domain the model does not import is a format error, named at conversion
        try:
            context.schemas().select(node.domain, node.op_type, imports[node.domain])
        except UnknownSchemaError as error:
            schema_errors.append(error)
            unsupported.append(UnsupportedNode(f"{node.domain}.{node.op_type}", node.name, error.message))
    problems: list[str] = []
    hints: list[str] = []
    if unsupported:
        known = list(converters.keys())
        standard = sorted(key for key in known if "." not in key)
        microsoft = sorted(key.split(".")[-1] for key in known if key.startswith(f"{MICROSOFT_DOMAIN}."))
        supported = [f"supported: {', '.join(standard)}; {MICROSOFT_DOMAIN}: {', '.join(microsoft)}"]
        supported += list(dict.fromkeys(error.hint for error in schema_errors if error.hint))
        listing = unsupported_operators_error(
            source, unsupported, hint="; ".join(supported) + "; see docs/onnx.md to add one"
        )
        problems.append(listing.message)
        hints.append(listing.hint)
    if constants:
        problem, hint = unfolded_constants_problem(constants, preparation.max_folded_bytes)
        problems.append(f"{source}: {problem}" if not problems else f"and {problem}")
        hints.insert(0, hint)
    if problems:
        error = UnknownSchemaError if schema_errors else UnsupportedOperatorError
        raise error("\n".join(problems), hint="; ".join(hints))
    if not MIN_OPSET <= onnx_version <= MAX_OPSET:
        raise UnsupportedOperatorError(
            f"{source}: the model imports ONNX opset {onnx_version}; opbridge converts opsets up to {MAX_OPSET} "
            f"(those below {MIN_OPSET} are upgraded to {MIN_OPSET} at import)",
            hint=f"export the model at opset {MAX_OPSET} or lower",
        )


def _convert_node(
    conversion: OnnxConversion,
    node: OnnxNode,
    custom_protos: dict[int, Any],
    imports: dict[str, int],
    onnx_version: int,
) -> None:
    """One node through its converter, or, in a custom domain, through its schema."""
    source = conversion.source
    converters = conversion.context.onnx_converters
    key = converter_key(node.domain, node.op_type)
    if key not in converters:
        _convert_custom(conversion, custom_protos[id(node)], node, imports)
        return
    converter = converters[key]
    if not converter.min_opset <= onnx_version <= converter.max_opset:
        raise UnsupportedOperatorError(
            f"{source}: {node.describe()}: the converter covers opsets "
            f"{converter.min_opset}..{converter.max_opset}, the model imports {onnx_version}"
        )
    try:
        converter.convert(conversion, node)
    except (ArithmeticError, IndexError, KeyError, TypeError, ValueError) as error:
        # A converter met inputs or attributes that ONNX does not allow (a damaged model).
        raise ModelFormatError(
            f"{source}: {node.describe()} cannot be converted: {type(error).__name__}: {error}",
            hint="the node's inputs or attributes are not what its ONNX operator allows; re-export the model",
        ) from error
