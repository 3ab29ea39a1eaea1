# SPDX-License-Identifier: Apache-2.0
"""The LiteRT schema's tables, as the FlatBuffer verifier walks them.

One line per table of LiteRT's `schema.fbs` (continued on indented lines): its fields in vtable order, each
`name type`, where the type is a scalar (bool, i8, u8, i16, u16, i32, u32, i64, u64, f32, f64), `string`, a
table's name, a vector `[element]` of any of those, or `union U` (the field before it holds the union's type
code, and U's enum in the `tflite` package maps each code to its table). A `-` is a deprecated field: its
vtable slot is kept, nothing reads it. The field at position i has vtable offset 4 + 2 * i.

The text follows the `tflite` package the reader uses (its generated classes, one per table, read each field
at the vtable offset given here); verifier_test derives the same description from those classes and fails on
any difference. The schema marks no field `(required)`, so no field here is required; what the reader needs
(a subgraph, its operators, inputs and outputs) is checked as the model's contents (verifier.py).
"""

import dataclasses
import functools

from tflite.BuiltinOptions import BuiltinOptions
from tflite.BuiltinOptions2 import BuiltinOptions2
from tflite.QuantizationDetails import QuantizationDetails
from tflite.SparseIndexVector import SparseIndexVector

TABLES_TEXT = """
ATan2Options:
AbsOptions:
AddNOptions:
AddOptions: fused_activation_function i8, pot_scale_int16 bool
ArgMaxOptions: output_type i8
ArgMinOptions: output_type i8
AssignVariableOptions:
BatchMatMulOptions: adj_x bool, adj_y bool, asymmetric_quantize_inputs bool
BatchToSpaceNDOptions:
BidirectionalSequenceLSTMOptions: fused_activation_function i8, cell_clip f32, proj_clip f32,
    merge_outputs bool, time_major bool, asymmetric_quantize_inputs bool
BidirectionalSequenceRNNOptions: time_major bool, fused_activation_function i8, merge_outputs bool,
    asymmetric_quantize_inputs bool
BitcastOptions:
BitwiseXorOptions:
BroadcastToOptions:
BucketizeOptions: boundaries [f32]
Buffer: data [u8], offset u64, size u64
CallOnceOptions: init_subgraph_index i32
CallOptions: subgraph u32
CastOptions: in_data_type i8, out_data_type i8
ConcatEmbeddingsOptions: num_channels i32, num_columns_per_channel [i32], embedding_dim_per_channel [i32]
ConcatenationOptions: axis i32, fused_activation_function i8
Conv2DOptions: padding i8, stride_w i32, stride_h i32, fused_activation_function i8, dilation_w_factor i32,
    dilation_h_factor i32, quantized_bias_type i8
Conv3DOptions: padding i8, stride_d i32, stride_w i32, stride_h i32, fused_activation_function i8,
    dilation_d_factor i32, dilation_w_factor i32, dilation_h_factor i32
CosOptions:
CumsumOptions: exclusive bool, reverse bool
CustomQuantization: custom [u8]
DensifyOptions:
DepthToSpaceOptions: block_size i32
DepthwiseConv2DOptions: padding i8, stride_w i32, stride_h i32, depth_multiplier i32,
    fused_activation_function i8, dilation_w_factor i32, dilation_h_factor i32
DequantizeOptions:
DilateOptions:
DimensionMetadata: format i8, dense_size i32, array_segments_type u8, array_segments union SparseIndexVector,
    array_indices_type u8, array_indices union SparseIndexVector
DivOptions: fused_activation_function i8
DynamicUpdateSliceOptions:
EmbeddingLookupSparseOptions: combiner i8
EqualOptions:
ExpOptions:
ExpandDimsOptions:
FakeQuantOptions: min f32, max f32, num_bits i32, narrow_range bool
FillOptions:
FloorDivOptions:
FloorModOptions:
FullyConnectedOptions: fused_activation_function i8, weights_format i8, keep_num_dims bool,
    asymmetric_quantize_inputs bool, quantized_bias_type i8
GatherNdOptions:
GatherOptions: axis i32, batch_dims i32
GeluOptions: approximate bool
GreaterEqualOptions:
GreaterOptions:
HardSwishOptions:
HashtableFindOptions:
HashtableImportOptions:
HashtableOptions: table_id i32, key_dtype i8, value_dtype i8
HashtableSizeOptions:
IfOptions: then_subgraph_index i32, else_subgraph_index i32
Int32Vector: values [i32]
L2NormOptions: fused_activation_function i8
LSHProjectionOptions: type i8
LSTMOptions: fused_activation_function i8, cell_clip f32, proj_clip f32, kernel_type i8,
    asymmetric_quantize_inputs bool
LeakyReluOptions: alpha f32
LessEqualOptions:
LessOptions:
LocalResponseNormalizationOptions: radius i32, bias f32, alpha f32, beta f32
LogSoftmaxOptions:
LogicalAndOptions:
LogicalNotOptions:
LogicalOrOptions:
MatrixDiagOptions:
MatrixSetDiagOptions:
MaximumMinimumOptions:
Metadata: name string, buffer u32
MirrorPadOptions: mode i8
Model: version u32, operator_codes [OperatorCode], subgraphs [SubGraph], description string, buffers [Buffer],
    metadata_buffer [i32], metadata [Metadata], signature_defs [SignatureDef]
MulOptions: fused_activation_function i8
NegOptions:
NonMaxSuppressionV4Options:
NonMaxSuppressionV5Options:
NotEqualOptions:
OneHotOptions: axis i32
Operator: opcode_index u32, inputs [i32], outputs [i32], builtin_options_type u8,
    builtin_options union BuiltinOptions, custom_options [u8], custom_options_format i8,
    mutating_variable_inputs [bool], intermediates [i32], large_custom_options_offset u64,
    large_custom_options_size u64, builtin_options2_type u8, builtin_options2 union BuiltinOptions2,
    debug_metadata_index i32
OperatorCode: deprecated_builtin_code i8, custom_code string, version i32, builtin_code i32
PackOptions: values_count i32, axis i32
PadOptions:
PadV2Options:
Pool2DOptions: padding i8, stride_w i32, stride_h i32, filter_width i32, filter_height i32,
    fused_activation_function i8
PowOptions:
QuantizationParameters: min [f32], max [f32], scale [f32], zero_point [i64], details_type u8,
    details union QuantizationDetails, quantized_dimension i32
QuantizeOptions:
RNNOptions: fused_activation_function i8, asymmetric_quantize_inputs bool
RandomOptions: seed i64, seed2 i64
RangeOptions:
RankOptions:
ReadVariableOptions:
ReduceWindowOptions: reduce_function i32
ReducerOptions: keep_dims bool
ReshapeOptions: new_shape [i32]
ResizeBilinearOptions: -, -, align_corners bool, half_pixel_centers bool
ResizeNearestNeighborOptions: align_corners bool, half_pixel_centers bool
ReverseSequenceOptions: seq_dim i32, batch_dim i32
ReverseV2Options:
Rfft2dOptions:
RightShiftOptions:
SVDFOptions: rank i32, fused_activation_function i8, asymmetric_quantize_inputs bool
ScatterNdOptions:
SegmentSumOptions:
SelectOptions:
SelectV2Options:
SequenceRNNOptions: time_major bool, fused_activation_function i8, asymmetric_quantize_inputs bool
ShapeOptions: out_type i8
SignOptions:
SignatureDef: inputs [TensorMap], outputs [TensorMap], signature_key string, -, subgraph_index u32
SkipGramOptions: ngram_size i32, max_skip_size i32, include_all_ngrams bool
SliceOptions:
SoftmaxOptions: beta f32
SpaceToBatchNDOptions:
SpaceToDepthOptions: block_size i32
SparseToDenseOptions: validate_indices bool
SparsityParameters: traversal_order [i32], block_map [i32], dim_metadata [DimensionMetadata]
SplitOptions: num_splits i32
SplitVOptions: num_splits i32
SquareOptions:
SquaredDifferenceOptions:
SqueezeOptions: squeeze_dims [i32]
StableHLOCompositeOptions: name string, decomposition_subgraph_index i32, composite_attributes [u8],
    composite_attributes_format i8, version i32
StablehloBroadcastInDimOptions: broadcast_dimensions [i64]
StablehloCompareOptions: comparison_direction u32, compare_type u32
StablehloConcatenateOptions: dimension i64
StablehloConvolutionOptions: window_strides [i64], padding [i64], lhs_dilation [i64], rhs_dilation [i64],
    window_reversal [bool], input_batch_dimension i64, input_feature_dimension i64,
    input_spatial_dimensions [i64], kernel_input_feature_dimension i64, kernel_output_feature_dimension i64,
    kernel_spatial_dimensions [i64], output_batch_dimension i64, output_feature_dimension i64,
    output_spatial_dimensions [i64], feature_group_count i64, batch_group_count i64, precision_config [u32]
StablehloCustomCallOptions: call_target_name string, has_side_effect bool, backend_config string,
    api_version i32, called_computations [i32], custom_attributes [u8]
StablehloDotGeneralOptions: lhs_batching_dimensions [i64], rhs_batching_dimensions [i64],
    lhs_contracting_dimensions [i64], rhs_contracting_dimensions [i64], precision_config [u32]
StablehloDynamicSliceOptions: slice_sizes [i64]
StablehloGatherOptions: offset_dims [i64], collapsed_slice_dims [i64], start_index_map [i64],
    index_vector_dim i64, slice_sizes [i64], indices_are_sorted bool
StablehloIotaOptions: iota_dimension i64
StablehloPadOptions: edge_padding_low [i64], edge_padding_high [i64], interior_padding [i64]
StablehloReduceOptions: dimensions [i64], body_subgraph_index i32
StablehloReduceWindowOptions: window_dimensions [i64], window_strides [i64], base_dilations [i64],
    window_dilations [i64], padding [i64], body_subgraph_index i32
StablehloRngBitGeneratorOptions: algorithm i8
StablehloScatterOptions: indices_are_sorted bool, update_window_dims [i64], inserted_window_dims [i64],
    scatter_dims_to_operand_dims [i64], index_vector_dim i64, unique_indices bool,
    update_computation_subgraph_index i32
StablehloShiftLeftOptions:
StablehloSliceOptions: start_indices [i64], limit_indices [i64], strides [i64]
StablehloSortOptions: dimension i64, is_stable bool, comparator_subgraph_index i32
StablehloTransposeOptions: permutation [i64]
StablehloWhileOptions: cond_subgraph_index i32, body_subgraph_index i32
StridedSliceOptions: begin_mask i32, end_mask i32, ellipsis_mask i32, new_axis_mask i32, shrink_axis_mask i32,
    offset bool
SubGraph: tensors [Tensor], inputs [i32], outputs [i32], operators [Operator], name string,
    debug_metadata_index i32
SubOptions: fused_activation_function i8, pot_scale_int16 bool
Tensor: shape [i32], type i8, buffer u32, name string, quantization QuantizationParameters, is_variable bool,
    sparsity SparsityParameters, shape_signature [i32], has_rank bool, variant_tensors [VariantSubType]
TensorMap: name string, tensor_index u32
TileOptions:
TopKV2Options:
TransposeConvOptions: padding i8, stride_w i32, stride_h i32, fused_activation_function i8,
    quantized_bias_type i8
TransposeOptions:
Uint16Vector: values [u16]
Uint8Vector: values [u8]
UnidirectionalSequenceLSTMOptions: fused_activation_function i8, cell_clip f32, proj_clip f32, time_major bool,
    asymmetric_quantize_inputs bool, diagonal_recurrent_tensors bool
UniqueOptions: idx_out_type i8
UnpackOptions: num i32, axis i32
UnsortedSegmentMaxOptions:
UnsortedSegmentMinOptions:
UnsortedSegmentProdOptions:
UnsortedSegmentSumOptions:
VarHandleOptions: container string, shared_name string
VariantSubType: shape [i32], type i8, has_rank bool
WhereOptions:
WhileOptions: cond_subgraph_index i32, body_subgraph_index i32
ZerosLikeOptions:
"""

# Scalar types: bytes in the table (or in a vector), and their name in messages.
SCALAR_BYTES = {
    "bool": 1,
    "i8": 1,
    "u8": 1,
    "i16": 2,
    "u16": 2,
    "i32": 4,
    "u32": 4,
    "i64": 8,
    "u64": 8,
    "f32": 4,
    "f64": 8,
}
SCALAR_NAMES = {
    "bool": "bool",
    "i8": "int8",
    "u8": "uint8",
    "i16": "int16",
    "u16": "uint16",
    "i32": "int32",
    "u32": "uint32",
    "i64": "int64",
    "u64": "uint64",
    "f32": "float32",
    "f64": "float64",
}
OFFSET_BYTES = 4  # a uoffset_t: strings, tables, vectors and union values are reached through one


@dataclasses.dataclass(frozen=True)
class Field:
    """One field of a table: where its vtable entry is and what it holds."""

    name: str
    slot: int  # its vtable offset (4 + 2 * position)
    kind: str  # "scalar", "string", "table", "vector" (of scalars), "tables", "strings" or "union"
    element: str  # the scalar type, the table's name, or the union's name; "" for strings
    size: int  # bytes in the table: the scalar's, or an offset's (4)
    element_size: int = 0  # a vector's element bytes (4 for the offsets of tables and strings)


def _parse_field(name: str, type_text: str, slot: int) -> Field:
    if type_text.startswith("union "):
        return Field(name, slot, "union", type_text.removeprefix("union "), OFFSET_BYTES)
    if type_text.startswith("["):
        element = type_text[1:-1]
        if element in SCALAR_BYTES:
            return Field(name, slot, "vector", element, OFFSET_BYTES, SCALAR_BYTES[element])
        if element == "string":
            return Field(name, slot, "strings", "", OFFSET_BYTES, OFFSET_BYTES)
        return Field(name, slot, "tables", element, OFFSET_BYTES, OFFSET_BYTES)
    if type_text in SCALAR_BYTES:
        return Field(name, slot, "scalar", type_text, SCALAR_BYTES[type_text])
    if type_text == "string":
        return Field(name, slot, "string", "", OFFSET_BYTES)
    return Field(name, slot, "table", type_text, OFFSET_BYTES)


def parse_tables(text: str) -> dict[str, tuple[Field, ...]]:
    """Each table's fields (deprecated ones left out), from the description's text."""
    entries: list[str] = []
    for line in text.strip().splitlines():
        if line.startswith(" ") and entries:
            entries[-1] += " " + line.strip()
        else:
            entries.append(line.strip())
    tables = {}
    for entry in entries:
        table, _, fields_text = entry.partition(":")
        fields = []
        for position, field_text in enumerate(f.strip() for f in fields_text.split(",") if f.strip()):
            if field_text != "-":
                name, _, type_text = field_text.partition(" ")
                fields.append(_parse_field(name, type_text.strip(), 4 + 2 * position))
        tables[table] = tuple(fields)
    return tables


def _union_tables(enum: type) -> dict[int, str]:
    return {code: name for name, code in vars(enum).items() if not name.startswith("_") and code != 0}


@functools.cache
def schema() -> tuple[dict[str, tuple[Field, ...]], dict[str, dict[int, str]]]:
    """The tables (name -> fields) and the unions (name -> type code -> table name)."""
    unions = {
        enum.__name__: _union_tables(enum)
        for enum in (BuiltinOptions, BuiltinOptions2, QuantizationDetails, SparseIndexVector)
    }
    return parse_tables(TABLES_TEXT), unions
