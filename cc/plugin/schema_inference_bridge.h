/* SPDX-License-Identifier: Apache-2.0 */
// The inference bridge: checks a node's inputs and attributes against a
// schema (InvalidInput), fills in attribute defaults, calls the schema's
// infer callback through an OpbridgeInferApi whose functions never throw,
// and checks what the callback set. Separate from loading and registration:
// it runs long after them, possibly on several threads at once, and
// touches only its own per-call state and the (immutable) schema.
// Internal to //cc/plugin:schema_host.
#ifndef OPBRIDGE_PLUGIN_SCHEMA_INFERENCE_BRIDGE_H_
#define OPBRIDGE_PLUGIN_SCHEMA_INFERENCE_BRIDGE_H_

#include <string>
#include <vector>

#include "cc/plugin/host_types.h"
#include "cc/plugin/schema_host.h"

namespace opbridge::plugin {

// What SchemaLibrary::Infer does once it has the schema (see schema_host.h
// for the errors). `library_path` names the library in contract errors.
std::vector<InferOutput> RunSchemaInference(const SchemaSpec& schema, const std::vector<InferInput>& inputs,
                                            const Attributes& attributes, const std::string& library_path);

}  // namespace opbridge::plugin

#endif  // OPBRIDGE_PLUGIN_SCHEMA_INFERENCE_BRIDGE_H_
