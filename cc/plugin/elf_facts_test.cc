// SPDX-License-Identifier: Apache-2.0
// ReadElfFacts on real shared libraries, and on truncated and mutated copies
// of one: it must return or throw LoadError, never read out of bounds (run
// under ASan by --config=asan).
#include "cc/plugin/elf_facts.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include "cc/plugin/host_types.h"
#include "cc/plugin/testdata/check.h"

using opbridge::plugin::ElfFacts;
using opbridge::plugin::LoadError;
using opbridge::plugin::ReadElfFacts;

namespace {

const char kLibrary[] = "examples/native_plugins/libleaky_relu_plugin.so";

std::string ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Damaged input gives a typed error or (rarely) still parses: both fine.
void Survives(const std::string& path) {
  try {
    ReadElfFacts(path);
  } catch (const LoadError&) {
  }
}

}  // namespace

int main() {
  const ElfFacts facts = ReadElfFacts(kLibrary);
  bool needs_libstdcxx = false;  // a C++ library
  for (const auto& needed : facts.needed) needs_libstdcxx = needs_libstdcxx || needed == "libstdc++.so.6";
  CHECK(needs_libstdcxx);
  CHECK(facts.unique_symbols.empty());  // built with -fvisibility=hidden

  const std::string original = ReadFile(kLibrary);
  CHECK(original.size() > 1024);
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string scratch = std::string(tmp != nullptr ? tmp : "/tmp") + "/elf_facts_test.so";
  // Every truncation in the headers, then a spread through the file.
  for (size_t length = 0; length < original.size(); length += length < 256 ? 1 : 997) {
    WriteFile(scratch, original.substr(0, length));
    Survives(scratch);
  }
  // Random bytes overwritten, seeded: the same mutations on every run.
  std::mt19937_64 random(20261130);
  for (int round = 0; round < 400; ++round) {
    std::string mutated = original;
    const int flips = 1 + static_cast<int>(random() % 8);
    for (int i = 0; i < flips; ++i) {
      // Bias towards the ELF and section headers, where the reader looks.
      const size_t span = random() % 2 ? 64 : mutated.size();
      size_t position = random() % span;
      if (random() % 2) position = mutated.size() - 1 - random() % std::min<size_t>(mutated.size(), 4096);
      mutated[position] = static_cast<char>(random());
    }
    WriteFile(scratch, mutated);
    Survives(scratch);
  }
  std::remove(scratch.c_str());
  std::puts("elf_facts_test: all checks passed");
  return 0;
}
