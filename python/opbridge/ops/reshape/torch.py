# SPDX-License-Identifier: Apache-2.0
"""RESHAPE from torch.export: view, reshape, flatten, squeeze and unsqueeze, each as a Reshape to the
node's static output shape (int8 reshapes keep their input's parameters)."""

from typing import Any

from opbridge.frontends.torch.converter_helpers import case_module, reshape_to_output
from opbridge.ops.definition import TorchCase, TorchConverter


def _flatten(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x: t.flatten(t.relu(x), 1)), (t.randn(2, 3, 4, 2),)


def _view(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x: t.relu(x).view(2, -1, 4)), (t.randn(2, 8, 2),)


def _squeeze(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x: t.relu(x).squeeze(2).unsqueeze(0)), (t.randn(3, 4, 1, 5),)


TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter("aten.view.default", reshape_to_output, cases=(TorchCase("view", _view),)),
    TorchConverter("aten.reshape.default", reshape_to_output),
    TorchConverter("aten._unsafe_view.default", reshape_to_output),
    TorchConverter("aten.flatten.using_ints", reshape_to_output, cases=(TorchCase("flatten", _flatten),)),
    TorchConverter("aten.squeeze.dim", reshape_to_output, cases=(TorchCase("squeeze, unsqueeze", _squeeze),)),
    TorchConverter("aten.squeeze.dims", reshape_to_output),
    TorchConverter("aten.squeeze.default", reshape_to_output),
    TorchConverter("aten.unsqueeze.default", reshape_to_output),
)
