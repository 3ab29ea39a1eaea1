// SPDX-License-Identifier: Apache-2.0
#include "cc/plugin/elf_facts.h"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "cc/plugin/host_types.h"

namespace opbridge::plugin {
namespace {

#if defined(__x86_64__)
constexpr uint16_t kMachine = EM_X86_64;
constexpr char kMachineName[] = "x86_64";
#elif defined(__aarch64__)
constexpr uint16_t kMachine = EM_AARCH64;
constexpr char kMachineName[] = "aarch64";
#else
#error "the plugin hosts run on x86_64 and aarch64 Linux"
#endif

// Plugin files far larger than this are not plausible shared libraries.
constexpr std::streamsize kMaxFileBytes = std::streamsize{1} << 30;

class Image {
 public:
  Image(std::string path, std::string bytes) : path_(std::move(path)), bytes_(std::move(bytes)) {}

  [[noreturn]] void Fail(const std::string& problem) const {
    throw LoadError("plugin library " + path_ + " is not a shared library for " + kMachineName + " Linux: " + problem);
  }

  // A T at `offset`, bounds-checked.
  template <typename T>
  T At(uint64_t offset, const char* what) const {
    if (offset > bytes_.size() || bytes_.size() - offset < sizeof(T)) Fail(std::string(what) + " lies past the end of the file");
    T value;
    std::memcpy(&value, bytes_.data() + offset, sizeof(T));
    return value;
  }

  // The NUL-terminated string at `offset` within [begin, begin + size).
  std::string String(uint64_t begin, uint64_t size, uint64_t offset) const {
    if (begin > bytes_.size() || size > bytes_.size() - begin || offset >= size) Fail("a name lies outside its table");
    const char* first = bytes_.data() + begin + offset;
    const void* end = std::memchr(first, '\0', size - offset);
    if (end == nullptr) Fail("a name is not terminated");
    return std::string(first, static_cast<const char*>(end));
  }

  size_t size() const { return bytes_.size(); }

 private:
  std::string path_;
  std::string bytes_;
};

}  // namespace

ElfFacts ReadElfFacts(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw LoadError("cannot read plugin library " + path);
  file.seekg(0, std::ios::end);
  const std::streamsize length = file.tellg();
  if (length < 0 || length > kMaxFileBytes) throw LoadError("plugin library " + path + " is larger than 1 GiB");
  file.seekg(0);
  std::string bytes(static_cast<size_t>(length), '\0');
  if (!file.read(bytes.data(), length)) throw LoadError("cannot read plugin library " + path);
  const Image image(path, std::move(bytes));

  const auto header = image.At<Elf64_Ehdr>(0, "the ELF header");
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) image.Fail("no ELF header");
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB) {
    image.Fail("not a 64-bit little-endian ELF file");
  }
  if (header.e_type != ET_DYN) image.Fail("an ELF file, but not a shared object (e_type " + std::to_string(header.e_type) + ")");
  if (header.e_machine != kMachine) image.Fail("built for ELF machine " + std::to_string(header.e_machine));
  if (header.e_shentsize != sizeof(Elf64_Shdr)) image.Fail("unexpected section header size");

  std::vector<Elf64_Shdr> sections;
  for (uint16_t i = 0; i < header.e_shnum; ++i) {
    sections.push_back(image.At<Elf64_Shdr>(header.e_shoff + uint64_t{i} * sizeof(Elf64_Shdr), "a section header"));
  }
  auto linked = [&](const Elf64_Shdr& section) -> const Elf64_Shdr& {
    if (section.sh_link >= sections.size()) image.Fail("a section links to a missing string table");
    return sections[section.sh_link];
  };

  ElfFacts facts;
  for (const Elf64_Shdr& section : sections) {
    if (section.sh_type == SHT_DYNAMIC) {
      const Elf64_Shdr& strings = linked(section);
      for (uint64_t offset = 0; offset + sizeof(Elf64_Dyn) <= section.sh_size; offset += sizeof(Elf64_Dyn)) {
        const auto entry = image.At<Elf64_Dyn>(section.sh_offset + offset, "a dynamic entry");
        if (entry.d_tag == DT_NULL) break;
        if (entry.d_tag == DT_NEEDED) {
          facts.needed.push_back(image.String(strings.sh_offset, strings.sh_size, entry.d_un.d_val));
        }
      }
    } else if (section.sh_type == SHT_DYNSYM) {
      const Elf64_Shdr& strings = linked(section);
      for (uint64_t offset = 0; offset + sizeof(Elf64_Sym) <= section.sh_size; offset += sizeof(Elf64_Sym)) {
        const auto symbol = image.At<Elf64_Sym>(section.sh_offset + offset, "a dynamic symbol");
        if (ELF64_ST_BIND(symbol.st_info) == STB_GNU_UNIQUE && symbol.st_shndx != SHN_UNDEF) {
          facts.unique_symbols.push_back(image.String(strings.sh_offset, strings.sh_size, symbol.st_name));
        }
      }
    }
  }
  return facts;
}

}  // namespace opbridge::plugin
