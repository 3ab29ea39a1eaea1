/* SPDX-License-Identifier: Apache-2.0 */
// Minimal assertions for the hosts' C++ tests (no test framework is pinned).
#ifndef OPBRIDGE_PLUGIN_TESTDATA_CHECK_H_
#define OPBRIDGE_PLUGIN_TESTDATA_CHECK_H_

#include <cstdio>
#include <cstdlib>
#include <string>

#define CHECK(condition)                                                          \
  do {                                                                            \
    if (!(condition)) {                                                           \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #condition); \
      std::exit(1);                                                               \
    }                                                                             \
  } while (0)

// Runs `statement`, which must throw `Exception` whose what() contains `text`.
#define CHECK_THROWS(Exception, text, statement)                                                   \
  do {                                                                                             \
    bool thrown = false;                                                                           \
    try {                                                                                          \
      statement;                                                                                   \
    } catch (const Exception& error) {                                                             \
      thrown = true;                                                                               \
      if (std::string(error.what()).find(text) == std::string::npos) {                             \
        std::fprintf(stderr, "%s:%d: message \"%s\" lacks \"%s\"\n", __FILE__, __LINE__, error.what(), \
                     text);                                                                        \
        std::exit(1);                                                                              \
      }                                                                                            \
    }                                                                                              \
    if (!thrown) {                                                                                 \
      std::fprintf(stderr, "%s:%d: %s did not throw %s\n", __FILE__, __LINE__, #statement, #Exception); \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

#endif  // OPBRIDGE_PLUGIN_TESTDATA_CHECK_H_
