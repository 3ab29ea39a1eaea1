# SPDX-License-Identifier: Apache-2.0
# arm-none-eabi-gcc for the Cortex-M55 (Helium, hard float): the target flags of
# opbridge's Bazel toolchain (gcc_cortex_m55 in WORKSPACE). Copy it into your
# project, or pass it as is:
#
#   cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=path/to/opbridge/cmake/toolchains/arm-none-eabi-cortex-m55.cmake
#
# With -mcpu here, an opbridge module adds no CPU flags of its own.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR cortex-m55)

set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
# Bare metal: CMake's compiler checks build a library, not a program (no start-up code yet).
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(CMAKE_C_FLAGS_INIT "-mcpu=cortex-m55 -mfloat-abi=hard -mthumb")
set(CMAKE_CXX_FLAGS_INIT "-mcpu=cortex-m55 -mfloat-abi=hard -mthumb")
set(CMAKE_ASM_FLAGS_INIT "-mcpu=cortex-m55 -mfloat-abi=hard -mthumb")
# Unused functions and data are dropped (modules and kernels compile with -ffunction-sections -fdata-sections).
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,--gc-sections")
# Programs (opbridge, python3) run on the host.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
