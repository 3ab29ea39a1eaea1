# SPDX-License-Identifier: Apache-2.0
"""LiteRT models with resource variables, written as TFLite's converter writes a stateful model:
subgraph 0 runs CALL_ONCE(init subgraph), reads each variable (VAR_HANDLE -> READ_VARIABLE),
computes, and assigns the new value (ASSIGN_VARIABLE); the init subgraph assigns each variable
its constant initial value. ModelWriter writes one subgraph; StatefulModelWriter adds the second."""

import dataclasses

import numpy as np
from ai_edge_litert import schema_py_generated as schema

from opbridge_testing.mobilenet import ModelWriter

FLOAT32, INT8, RESOURCE = schema.TensorType.FLOAT32, schema.TensorType.INT8, schema.TensorType.RESOURCE
OPS = schema.BuiltinOperator


class StatefulModelWriter(ModelWriter):
    """Subgraph 0 (this writer) and an init subgraph (`init`, sharing the buffers and operator codes)."""

    def __init__(self) -> None:
        super().__init__()
        self.init = ModelWriter()
        self.init.buffers, self.init.codes = self.buffers, self.codes
        self.extra_subgraphs: list[ModelWriter] = []

    def var_handle(self, writer: ModelWriter, name: str, container: str = "") -> int:
        handle = writer.tensor(f"{name}/handle", [], RESOURCE, [], [])
        options = schema.VarHandleOptionsT()
        options.sharedName, options.container = name, container
        writer.operator(OPS.VAR_HANDLE, 1, [], [handle], schema.BuiltinOptions.VarHandleOptions, options)
        return handle

    def read(self, name: str, output: int) -> None:
        handle = self.var_handle(self, name)
        self.operator(OPS.READ_VARIABLE, 1, [handle], [output], 0, None)

    def assign(self, name: str, value: int, writer: ModelWriter | None = None) -> None:
        writer = writer or self
        handle = self.var_handle(writer, name)
        writer.operator(OPS.ASSIGN_VARIABLE, 1, [handle, value], [], 0, None)

    def initialise(self, name: str, value: np.ndarray, tensor_type: int) -> None:
        """The init subgraph assigns `value` to the variable."""
        constant = self.init.tensor(f"{name}/init", list(value.shape), tensor_type, [], [], value)
        self.assign(name, constant, self.init)

    def call_once(self, init_index: int = 1) -> None:
        options = schema.CallOnceOptionsT()
        options.initSubgraphIndex = init_index
        self.operator(OPS.CALL_ONCE, 1, [], [], schema.BuiltinOptions.CallOnceOptions, options)

    def finish(self, inputs: list[int], outputs: list[int], description: str) -> bytes:
        subgraphs = [self.subgraph(inputs, outputs), self.init.subgraph([], [], "init")]
        subgraphs += [w.subgraph([], [], f"extra_{i}") for i, w in enumerate(self.extra_subgraphs)]
        return self.model_bytes(subgraphs, description)


@dataclasses.dataclass(frozen=True)
class Quant:
    scale: float
    zero_point: int


def _add(writer: ModelWriter, a: int, b: int, out: int) -> None:
    writer.operator(OPS.ADD, 1, [a, b], [out], schema.BuiltinOptions.AddOptions, schema.AddOptionsT())


def _mul(writer: ModelWriter, a: int, b: int, out: int) -> None:
    writer.operator(OPS.MUL, 1, [a, b], [out], schema.BuiltinOptions.MulOptions, schema.MulOptionsT())


def moving_average_model(width: int, decay: float, initial: np.ndarray) -> bytes:
    """float32 y = decay * v + (1 - decay) * x; v = y (an exponential moving average of the input)."""
    w = StatefulModelWriter()
    w.call_once()
    w.initialise("ema", initial.astype(np.float32).reshape(1, width), FLOAT32)
    x = w.tensor("x", [1, width], FLOAT32, [], [])
    v = w.tensor("ema/value", [1, width], FLOAT32, [], [])
    w.read("ema", v)
    a = w.tensor("decay", [1, width], FLOAT32, [], [], np.full((1, width), decay, np.float32))
    b = w.tensor("one_minus_decay", [1, width], FLOAT32, [], [], np.full((1, width), 1 - decay, np.float32))
    kept, fresh, y = (w.tensor(n, [1, width], FLOAT32, [], []) for n in ("kept", "fresh", "y"))
    _mul(w, v, a, kept)
    _mul(w, x, b, fresh)
    _add(w, kept, fresh, y)
    w.assign("ema", y)
    return w.finish([x], [y], "exponential moving average")


def accumulator_model(
    width: int, x_q: Quant, sum_q: Quant, initial: np.ndarray, tensor_type: int = schema.TensorType.INT8
) -> bytes:
    """int8 (or int16, zero points 0) sum = saturate(v + x); v = sum (a running accumulator), output the sum."""
    numpy_type = np.int16 if tensor_type == schema.TensorType.INT16 else np.int8
    w = StatefulModelWriter()
    w.call_once()
    w.initialise("total", initial.astype(numpy_type).reshape(1, width), tensor_type)
    x = w.tensor("x", [1, width], tensor_type, [x_q.scale], [x_q.zero_point])
    v = w.tensor("total/value", [1, width], tensor_type, [sum_q.scale], [sum_q.zero_point])
    w.read("total", v)
    y = w.tensor("sum", [1, width], tensor_type, [sum_q.scale], [sum_q.zero_point])
    _add(w, v, x, y)
    w.assign("total", y)
    return w.finish([x], [y], "int8 accumulator")


def rnn_model(
    rng: np.random.Generator, inputs: int, units: int, second_read: bool = True, activation: int = OPS.TANH
) -> bytes:
    """A Keras-like stateful SimpleRNN step, float32: h' = f(x Wx + h Wh + b); h = h'; output h', f TANH or RELU.
    With `second_read` the state is read twice (as TFLite's converter can write it), and the
    previous state is a second output (read, then assigned in the same run).

    The weights are initialised as Keras initialises a SimpleRNN: Glorot-uniform Wx, orthogonal Wh.
    An orthogonal Wh keeps the recurrence from amplifying rounding, but a sum that cancels near zero
    still turns an ulp of libm's tanhf into hundreds: the C golden tests (a 64-ulp tolerance) take
    the RELU step, which is exact in C and NumPy alike."""
    w = StatefulModelWriter()
    w.call_once()
    w.initialise("rnn/state", rng.standard_normal((1, units)).astype(np.float32) * 0.5, FLOAT32)
    x = w.tensor("x", [1, inputs], FLOAT32, [], [])
    h = w.tensor("rnn/h", [1, units], FLOAT32, [], [])
    w.read("rnn/state", h)
    limit = np.sqrt(6 / (inputs + units))
    wx_values = rng.uniform(-limit, limit, (units, inputs)).astype(np.float32)
    orthogonal, _ = np.linalg.qr(rng.standard_normal((units, units)))
    wx = w.tensor("wx", [units, inputs], FLOAT32, [], [], wx_values)
    wh = w.tensor("wh", [units, units], FLOAT32, [], [], orthogonal.astype(np.float32))
    bias = w.tensor("b", [units], FLOAT32, [], [], rng.standard_normal(units).astype(np.float32) * 0.1)
    from_x, from_h, total, h_next = (w.tensor(n, [1, units], FLOAT32, [], []) for n in ("xw", "hw", "z", "h_next"))
    fc = schema.FullyConnectedOptionsT()
    w.operator(OPS.FULLY_CONNECTED, 1, [x, wx, bias], [from_x], schema.BuiltinOptions.FullyConnectedOptions, fc)
    h_again = h
    if second_read:
        h_again = w.tensor("rnn/h_again", [1, units], FLOAT32, [], [])
        w.read("rnn/state", h_again)
    w.operator(OPS.FULLY_CONNECTED, 1, [h_again, wh, -1], [from_h], schema.BuiltinOptions.FullyConnectedOptions, fc)
    _add(w, from_x, from_h, total)
    w.operator(activation, 1, [total], [h_next], 0, None)
    w.assign("rnn/state", h_next)
    return w.finish([x], [h_next, h] if second_read else [h_next], "stateful RNN")


def delay_model(width: int, initial: np.ndarray) -> bytes:
    """float32 output = the previous run's input (v), then v = x: the assignment does not depend on the
    read, so only the READ -> ASSIGN edge keeps the order."""
    w = StatefulModelWriter()
    w.call_once()
    w.initialise("delay", initial.astype(np.float32).reshape(1, width), FLOAT32)
    x = w.tensor("x", [1, width], FLOAT32, [], [])
    v = w.tensor("delayed", [1, width], FLOAT32, [], [])
    w.read("delay", v)
    w.assign("delay", x)
    return w.finish([x], [v], "one-step delay")


def two_variables_model(width: int, rng: np.random.Generator, container: str = "") -> bytes:
    """Two float32 variables in one model: a running sum and a running maximum, the sum's
    handles in `container`; the init subgraph assigns both, and subgraph 0 reads both before
    assigning them in the other order."""
    w = StatefulModelWriter()
    w.call_once()
    for name, value in (("sum", rng.standard_normal(width)), ("max", np.full(width, -1.0))):
        constant = w.init.tensor(f"{name}/init", [1, width], FLOAT32, [], [], value.astype(np.float32).reshape(1, -1))
        handle = w.var_handle(w.init, name, container if name == "sum" else "")
        w.init.operator(OPS.ASSIGN_VARIABLE, 1, [handle, constant], [], 0, None)
    x = w.tensor("x", [1, width], FLOAT32, [], [])
    total, peak = (w.tensor(f"{n}/value", [1, width], FLOAT32, [], []) for n in ("sum", "max"))
    for name, tensor in (("sum", total), ("max", peak)):
        handle = w.var_handle(w, name, container if name == "sum" else "")
        w.operator(OPS.READ_VARIABLE, 1, [handle], [tensor], 0, None)
    new_total, new_peak = (w.tensor(n, [1, width], FLOAT32, [], []) for n in ("new_sum", "new_max"))
    _add(w, total, x, new_total)
    w.operator(OPS.MAXIMUM, 1, [peak, x], [new_peak], 0, None)
    for name, tensor in (("max", new_peak), ("sum", new_total)):
        handle = w.var_handle(w, name, container if name == "sum" else "")
        w.operator(OPS.ASSIGN_VARIABLE, 1, [handle, tensor], [], 0, None)
    return w.finish([x], [new_total, new_peak], "two variables")


# The models tests/models compiles (golden on four platforms, each case one invocation with the
# variables carried): fixed seeds and sizes.


def stateful_rnn() -> bytes:
    """The stateful RNN step (RELU), its state read twice: 8 inputs, 16 units."""
    return rnn_model(np.random.default_rng(20), inputs=8, units=16, activation=OPS.RELU)


def int8_accumulator() -> bytes:
    """An int8 running sum whose range (scale 0.5) holds a dozen steps of inputs scaled 0.05."""
    initial = np.random.default_rng(21).integers(-20, 20, 16)
    return accumulator_model(16, Quant(0.05, 3), Quant(0.5, -2), initial)


def two_variables() -> bytes:
    """A running sum and a running maximum, the sum in a container."""
    return two_variables_model(12, np.random.default_rng(22), container="counters")
