"""ONNX models. `protobuf` reads the ModelProto wire format without the onnx package."""
