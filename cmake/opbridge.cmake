# SPDX-License-Identifier: Apache-2.0
# opbridge_add_model(): a model converted by opbridge when the project is built
# (docs/integration.md).
#
#   include(path/to/opbridge/cmake/opbridge.cmake)
#   opbridge_add_model(NAME kws MODEL models/kws.tflite)
#   target_link_libraries(app PRIVATE kws)            # #include "kws.h"
#
#   opbridge_add_model(NAME <target> MODEL <.tflite|.onnx>
#                      [PREFIX <C prefix>]            # default: NAME
#                      [OUTPUT_DIR <dir>]             # default: <build dir>/opbridge/<NAME>
#                      [CONFIG <convert.yaml>]
#                      [PLUGIN <python module> ...]
#                      [GOLDEN_TEST <file.c>]         # also write the golden test program there
#                      [OPTIONS <convert option> ...] # e.g. --golden-cases 4 --patch-based
#                      [DEPENDS <file> ...])          # more files whose change re-converts (plugins)
#
# The module's file list is known only once it is converted, and a build step
# cannot add sources to a target. So the model is converted while CMake
# configures (when it is missing or older than its inputs, or the command
# changed), and the model, config and DEPENDS files are configure
# dependencies: `cmake --build` re-runs CMake, and so opbridge, when one of
# them changes, then compiles the new module. The module's own
# CMakeLists.txt defines the library (target PREFIX; NAME is an alias when
# it differs).
#
# OPBRIDGE_EXECUTABLE is the opbridge command: a path, or a CMake list such as
# "/usr/bin/python3;-m;opbridge.cli". Default: `opbridge` on PATH.

include_guard(GLOBAL)

set(OPBRIDGE_EXECUTABLE "" CACHE STRING "the opbridge command (a path, or a list: python3;-m;opbridge.cli)")

function(opbridge_add_model)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;MODEL;PREFIX;OUTPUT_DIR;CONFIG;GOLDEN_TEST"
    "PLUGIN;OPTIONS;DEPENDS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "opbridge_add_model: unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_NAME OR NOT arg_MODEL)
    message(FATAL_ERROR "opbridge_add_model: NAME and MODEL are required")
  endif()
  set(prefix "${arg_NAME}")
  if(arg_PREFIX)
    set(prefix "${arg_PREFIX}")
  endif()

  set(command "${OPBRIDGE_EXECUTABLE}")
  if(NOT command)
    find_program(OPBRIDGE_PROGRAM opbridge)
    if(NOT OPBRIDGE_PROGRAM)
      message(FATAL_ERROR "opbridge_add_model(${arg_NAME}): no opbridge command. Set OPBRIDGE_EXECUTABLE "
        "(e.g. -DOPBRIDGE_EXECUTABLE=/path/to/opbridge, or \"python3;-m;opbridge.cli\"), or put opbridge on PATH.")
    endif()
    set(command "${OPBRIDGE_PROGRAM}")
  endif()

  get_filename_component(model "${arg_MODEL}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${model}")
    message(FATAL_ERROR "opbridge_add_model(${arg_NAME}): the model ${model} does not exist")
  endif()
  set(output "${CMAKE_CURRENT_BINARY_DIR}/opbridge/${arg_NAME}")
  if(arg_OUTPUT_DIR)
    get_filename_component(output "${arg_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  endif()

  list(APPEND command convert "${model}" -o "${output}" --prefix "${prefix}")
  set(inputs "${model}")
  if(arg_CONFIG)
    get_filename_component(config "${arg_CONFIG}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND command --config "${config}")
    list(APPEND inputs "${config}")
  endif()
  foreach(plugin IN LISTS arg_PLUGIN)
    list(APPEND command --plugin "${plugin}")
  endforeach()
  set(outputs "${output}/CMakeLists.txt")
  if(arg_GOLDEN_TEST)
    get_filename_component(golden "${arg_GOLDEN_TEST}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    list(APPEND command --golden-test "${golden}")
    list(APPEND outputs "${golden}")
  endif()
  if("--no-cmake-lists" IN_LIST arg_OPTIONS)
    message(FATAL_ERROR "opbridge_add_model(${arg_NAME}): OPTIONS has --no-cmake-lists, but the module's "
      "CMakeLists.txt is what adds it to this project: leave that option out")
  endif()
  list(APPEND command ${arg_OPTIONS})
  foreach(file IN LISTS arg_DEPENDS)
    get_filename_component(file "${file}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND inputs "${file}")
  endforeach()

  # Converted again when the command changed, an output is missing, or an input is newer.
  set(stamp "${output}.opbridge-command")
  set(convert FALSE)
  if(NOT EXISTS "${stamp}")
    set(convert TRUE)
  else()
    file(READ "${stamp}" previous)
    if(NOT previous STREQUAL "${command}")
      set(convert TRUE)
    endif()
  endif()
  foreach(file IN LISTS outputs)
    if(NOT EXISTS "${file}")
      set(convert TRUE)
    endif()
  endforeach()
  foreach(file IN LISTS inputs)
    if(NOT EXISTS "${file}")
      message(FATAL_ERROR "opbridge_add_model(${arg_NAME}): ${file} does not exist")
    endif()
    if("${file}" IS_NEWER_THAN "${stamp}")
      set(convert TRUE)
    endif()
  endforeach()

  if(convert)
    message(STATUS "opbridge: converting ${model} into ${output}")
    file(REMOVE "${stamp}")
    # From this folder, so relative paths in OPTIONS mean what they mean beside this CMakeLists.txt.
    execute_process(COMMAND ${command} WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
      RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT status EQUAL 0)
      string(REPLACE ";" " " shown "${command}")
      message(FATAL_ERROR "opbridge_add_model(${arg_NAME}): the conversion failed (${status}):\n  ${shown}\n${out}${err}")
    endif()
    if(NOT EXISTS "${output}/CMakeLists.txt")
      message(FATAL_ERROR "opbridge_add_model(${arg_NAME}): the conversion wrote no ${output}/CMakeLists.txt "
        "(cmake_lists: false in the CONFIG?): the module needs it to join this project")
    endif()
    file(WRITE "${stamp}" "${command}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${inputs})

  add_subdirectory("${output}" "${CMAKE_CURRENT_BINARY_DIR}/opbridge/${arg_NAME}-build")
  if(NOT arg_NAME STREQUAL prefix)
    add_library(${arg_NAME} ALIAS ${prefix})
  endif()
endfunction()
