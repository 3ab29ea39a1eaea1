// SPDX-License-Identifier: Apache-2.0
// Carries a schema library's registration calls to the ABI reader: see schema_registrar.h.
#include "cc/plugin/schema_registrar.h"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <utility>

#include "cc/plugin/schema_abi_reader.h"
#include "cc/plugin/schema_abi_values.h"

namespace opbridge::plugin {
namespace {

// What register_schemas builds, behind OpbridgeSchemaRegistrar::host.
struct Registration {
  std::string origin;  // "schema library <path>"
  std::vector<DomainSpec> domains;
  std::vector<SchemaSpec> schemas;
  size_t add_domain_calls = 0;
  size_t add_schema_calls = 0;
  std::string host_error;                    // the first thing the host refused
  std::optional<std::string> library_error;  // set_error's message
};

Registration* RegistrationOf(const OpbridgeSchemaRegistrar* registrar) {
  return registrar == nullptr ? nullptr : static_cast<Registration*>(registrar->host);
}

// The registrar's functions are called from C: none may throw.
template <typename Body>
int32_t Refusing(Registration* registration, Body body) noexcept {
  if (registration == nullptr) return 1;
  try {
    body();
    return 0;
  } catch (const std::exception& error) {
    try {
      if (registration->host_error.empty()) registration->host_error = error.what();
    } catch (...) {  // only allocation can fail here
    }
  } catch (...) {
  }
  if (registration->host_error.empty()) registration->host_error = registration->origin + ": out of memory";
  return 1;
}

int32_t AddDomain(const OpbridgeSchemaRegistrar* registrar, const char* name, int32_t min_version,
                  int32_t max_version, const char* doc) noexcept {
  Registration* registration = RegistrationOf(registrar);
  return Refusing(registration, [&] {
    DomainSpec domain = ReadDomainDef(name, min_version, max_version, doc, registration->add_domain_calls++,
                                      registration->origin, registration->domains);
    registration->domains.push_back(std::move(domain));
  });
}

int32_t AddSchema(const OpbridgeSchemaRegistrar* registrar, const OpbridgeOpSchemaDef* schema) noexcept {
  Registration* registration = RegistrationOf(registrar);
  return Refusing(registration, [&] {
    SchemaSpec spec =
        ReadSchemaDef(schema, registration->add_schema_calls++, registration->origin, registration->schemas);
    registration->schemas.push_back(std::move(spec));
  });
}

void SetError(const OpbridgeSchemaRegistrar* registrar, const char* message) noexcept {
  Registration* registration = RegistrationOf(registrar);
  if (registration == nullptr) return;
  try {
    if (!registration->library_error) {
      registration->library_error = LibraryMessage(message, "(set_error was given NULL)");
    }
  } catch (...) {
  }
}

}  // namespace

RegisteredSchemas RegisterSchemas(const OpbridgeSchemaLibrary& table, const std::string& origin) {
  if (table.register_schemas == nullptr) throw LoadError(origin + ": register_schemas is NULL");
  Registration registration;
  registration.origin = origin;
  const OpbridgeSchemaRegistrar registrar = {sizeof(OpbridgeSchemaRegistrar), &registration, AddDomain, AddSchema,
                                             SetError};
  int32_t code = 1;
  try {
    code = table.register_schemas(&registrar);
  } catch (const std::exception& error) {
    throw LoadError(origin + ": register_schemas threw: " + error.what());
  } catch (...) {
    throw LoadError(origin + ": register_schemas threw a non-standard exception");
  }
  if (!registration.host_error.empty()) throw LoadError(registration.host_error);
  if (registration.library_error) {
    throw LoadError(origin + ": register_schemas failed: " + *registration.library_error +
                    (code == 0 ? " (it called set_error but returned 0)" : ""));
  }
  if (code != 0) {
    throw LoadError(origin + ": register_schemas returned " + std::to_string(code) +
                    " without calling set_error (say why: registrar->set_error(registrar, message))");
  }
  if (registration.schemas.empty()) {
    throw LoadError(origin + " registers no schemas (call registrar->add_schema from register_schemas)");
  }
  // Domains may be added before or after their schemas: checked once all are in.
  CheckSchemaDomains(registration.domains, registration.schemas, origin);
  return {std::move(registration.domains), std::move(registration.schemas)};
}

}  // namespace opbridge::plugin
