// SPDX-License-Identifier: Apache-2.0
// A plugin for the host's tests. TEST_PLUGIN_GOOD builds a valid plugin
// with ops that keep state, fail, throw or misbehave; every other
// TEST_PLUGIN_* define builds one way of registering wrongly.
#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>

#include "cc/plugin/opbridge_plugin.h"

namespace {

constexpr uint32_t kAnyType =
    OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_FLOAT32) | OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_FLOAT64) |
    OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_FLOAT16) | OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_BFLOAT16) |
    OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_INT8) | OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_UINT8) |
    OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_INT16) | OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_INT32) |
    OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_INT64) | OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_BOOL);
const uint32_t kAny[] = {kAnyType};
const uint32_t kFloat32[] = {OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_FLOAT32)};
const uint32_t kInt64[] = {OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_INT64)};

struct Counter {
  int64_t calls = 0;
};

int32_t CreateCounter(const OpbridgeHostApi*, const OpbridgeKernelInfo*, void** kernel, OpbridgeStatus*) {
  *kernel = new (std::nothrow) Counter();
  return *kernel != nullptr ? OPBRIDGE_PLUGIN_OK : OPBRIDGE_PLUGIN_FAILED;
}

void DestroyCounter(void* kernel) { delete static_cast<Counter*>(kernel); }

int32_t CreateNothing(const OpbridgeHostApi*, const OpbridgeKernelInfo*, void** kernel, OpbridgeStatus*) {
  *kernel = nullptr;
  return OPBRIDGE_PLUGIN_OK;
}

void DestroyNothing(void*) {}

// Allocates its kernel, then fails: the host must destroy it (LeakSanitizer checks).
int32_t CreateThenFail(const OpbridgeHostApi* host, const OpbridgeKernelInfo*, void** kernel, OpbridgeStatus* status) {
  *kernel = new (std::nothrow) Counter();
  host->set_error(status, OPBRIDGE_PLUGIN_INVALID_ARGUMENT, "test.FailCreate refuses");
  return OPBRIDGE_PLUGIN_INVALID_ARGUMENT;
}

// test.CountCalls: a scalar int64, how many times this node's kernel ran.
[[maybe_unused]] int32_t CountCalls(const OpbridgeHostApi* host, void* kernel, OpbridgeKernelContext* context, OpbridgeStatus*) {
  auto* counter = static_cast<Counter*>(kernel);
  void* data = nullptr;
  if (host->allocate_output(context, 0, OPBRIDGE_DTYPE_INT64, nullptr, 0, &data) != 0) return OPBRIDGE_PLUGIN_FAILED;
  *static_cast<int64_t*>(data) = ++counter->calls;
  return OPBRIDGE_PLUGIN_OK;
}

// test.Echo: copies its input (any type, any shape) and, to show that
// inputs are copies, scribbles over the input it was given.
int32_t Echo(const OpbridgeHostApi* host, void*, OpbridgeKernelContext* context, OpbridgeStatus* status) {
  OpbridgeTensorView x;
  if (host->input(context, 0, &x) != 0) return OPBRIDGE_PLUGIN_FAILED;
  void* y = nullptr;
  if (host->allocate_output(context, 0, x.dtype, x.shape, x.rank, &y) != 0) {
    host->set_error(status, OPBRIDGE_PLUGIN_FAILED, "allocate_output refused");
    return OPBRIDGE_PLUGIN_FAILED;
  }
  const int32_t size = x.dtype == OPBRIDGE_DTYPE_FLOAT64 || x.dtype == OPBRIDGE_DTYPE_INT64   ? 8
                       : x.dtype == OPBRIDGE_DTYPE_FLOAT32 || x.dtype == OPBRIDGE_DTYPE_INT32 ? 4
                       : x.dtype == OPBRIDGE_DTYPE_FLOAT16 || x.dtype == OPBRIDGE_DTYPE_BFLOAT16 ||
                               x.dtype == OPBRIDGE_DTYPE_INT16
                           ? 2
                           : 1;
  const size_t bytes = static_cast<size_t>(x.element_count) * static_cast<size_t>(size);
  if (bytes > 0) {
    std::memcpy(y, x.data, bytes);
    std::memset(const_cast<void*>(x.data), 0x5A, bytes);
  }
  return OPBRIDGE_PLUGIN_OK;
}

int32_t Fail(const OpbridgeHostApi* host, void*, OpbridgeKernelContext*, OpbridgeStatus* status) {
  host->set_error(status, OPBRIDGE_PLUGIN_INVALID_ARGUMENT, "test.Fail was asked to fail");
  return OPBRIDGE_PLUGIN_INVALID_ARGUMENT;
}

int32_t Throw(const OpbridgeHostApi*, void*, OpbridgeKernelContext*, OpbridgeStatus*) {
  throw std::runtime_error("test.Throw threw");
}

int32_t NoOutput(const OpbridgeHostApi*, void*, OpbridgeKernelContext*, OpbridgeStatus*) { return OPBRIDGE_PLUGIN_OK; }

// Allocates int32 where float32 is declared: the host refuses.
int32_t WrongOutputType(const OpbridgeHostApi* host, void*, OpbridgeKernelContext* context, OpbridgeStatus* status) {
  void* data = nullptr;
  if (host->allocate_output(context, 0, OPBRIDGE_DTYPE_INT32, nullptr, 0, &data) != 0) {
    host->set_error(status, OPBRIDGE_PLUGIN_FAILED, "allocate_output refused int32");
    return OPBRIDGE_PLUGIN_FAILED;
  }
  return OPBRIDGE_PLUGIN_OK;
}

// Asks for an output of 2^40 floats: the host's limit refuses it.
int32_t HugeOutput(const OpbridgeHostApi* host, void*, OpbridgeKernelContext* context, OpbridgeStatus* status) {
  const int64_t shape[] = {INT64_C(1) << 40};
  void* data = nullptr;
  if (host->allocate_output(context, 0, OPBRIDGE_DTYPE_FLOAT32, shape, 1, &data) != 0) {
    host->set_error(status, OPBRIDGE_PLUGIN_FAILED, "allocate_output refused the huge output");
    return OPBRIDGE_PLUGIN_FAILED;
  }
  return OPBRIDGE_PLUGIN_OK;
}

#if defined(TEST_PLUGIN_NULL_CALLBACK)
#define COMPUTE_OF_COUNT_CALLS nullptr
#else
#define COMPUTE_OF_COUNT_CALLS CountCalls
#endif

const OpbridgeOpDef kOps[] = {
    {"test", "CountCalls", 1, 1, kFloat32, 1, kInt64, CreateCounter, COMPUTE_OF_COUNT_CALLS, DestroyCounter},
    {"test", "Echo", 1, 1, kAny, 1, kAny, CreateNothing, Echo, DestroyNothing},
    {"test", "Fail", 1, 1, kFloat32, 1, kFloat32, CreateNothing, Fail, DestroyNothing},
    {"test", "Throw", 1, 1, kFloat32, 1, kFloat32, CreateNothing, Throw, DestroyNothing},
    {"test", "NoOutput", 1, 1, kFloat32, 1, kFloat32, CreateNothing, NoOutput, DestroyNothing},
    {"test", "WrongOutputType", 1, 1, kFloat32, 1, kFloat32, CreateNothing, WrongOutputType, DestroyNothing},
    {"test", "HugeOutput", 1, 1, kFloat32, 1, kFloat32, CreateNothing, HugeOutput, DestroyNothing},
    {"test", "FailCreate", 1, 1, kFloat32, 1, kFloat32, CreateThenFail, NoOutput, DestroyCounter},
    // Version 2 of Echo, for the highest-version-not-above-the-opset rule.
    {"test", "Echo", 2, 1, kAny, 1, kAny, CreateNothing, Echo, DestroyNothing},
#if defined(TEST_PLUGIN_DUPLICATE)
    {"test", "Fail", 1, 1, kFloat32, 1, kFloat32, CreateNothing, Fail, DestroyNothing},
#endif
};

#if defined(TEST_PLUGIN_WRONG_ABI)
const OpbridgePluginOpTable kTable = {99, sizeof kOps / sizeof kOps[0], sizeof(OpbridgeOpDef), kOps};
#elif defined(TEST_PLUGIN_SMALL_OP_DEF)
const OpbridgePluginOpTable kTable = {OPBRIDGE_PLUGIN_API_VERSION, sizeof kOps / sizeof kOps[0], 16, kOps};
#else
const OpbridgePluginOpTable kTable = OPBRIDGE_PLUGIN_OP_TABLE(kOps);
#endif

}  // namespace

#if defined(TEST_PLUGIN_NO_ENTRY_POINT)
extern "C" __attribute__((visibility("default"))) const OpbridgePluginOpTable* some_other_function(uint32_t) {
  return &kTable;
}
#elif defined(TEST_PLUGIN_DECLINES)
extern "C" __attribute__((visibility("default"))) const OpbridgePluginOpTable* opbridge_plugin_get_ops(uint32_t) {
  return nullptr;
}
#else
extern "C" __attribute__((visibility("default"))) const OpbridgePluginOpTable* opbridge_plugin_get_ops(uint32_t) {
  return &kTable;
}
#endif
