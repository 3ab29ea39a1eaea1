/* SPDX-License-Identifier: Apache-2.0 */
// What the hosts need to know about a plugin file before loading it: that
// it is an ELF shared object for this machine, which libraries it needs,
// and whether it exports GNU-unique symbols (which the dynamic loader shares
// process-wide, even between separately loaded copies of a library).
#ifndef OPBRIDGE_PLUGIN_ELF_FACTS_H_
#define OPBRIDGE_PLUGIN_ELF_FACTS_H_

#include <string>
#include <vector>

namespace opbridge::plugin {

struct ElfFacts {
  std::vector<std::string> needed;          // DT_NEEDED entries, in order
  std::vector<std::string> unique_symbols;  // defined STB_GNU_UNIQUE symbols
};

// Reads the ELF headers, dynamic section and dynamic symbols of `path`;
// throws LoadError naming what is wrong when it is not a 64-bit
// little-endian shared object for this machine or is damaged.
ElfFacts ReadElfFacts(const std::string& path);

}  // namespace opbridge::plugin

#endif  // OPBRIDGE_PLUGIN_ELF_FACTS_H_
