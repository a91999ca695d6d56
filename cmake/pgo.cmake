# SPDX-License-Identifier: Apache-2.0
#
# Profile-guided optimisation of the simulator core (docs/performance.md).
#
# The simulator's hot path is a few thousand instructions of branchy code a
# wakeup; GCC lays it out and inlines it far better when it knows which
# branches are taken. A release build therefore builds the core twice:
#
#   1. pgo-training/ (an ExternalProject of this same source tree, in the
#      build directory): the core instrumented (-fprofile-generate) and
#      wakesim, which then runs scripts/pgo-train's runs. Their counts land
#      in pgo-profile/.
#   2. this build: the core compiled with -fprofile-use from pgo-profile/.
#
# The profile only guides optimisation: results are the same with and
# without it, byte for byte. Both builds strip their own directory from the
# profile's file names (-fprofile-prefix-path), so one finds the other's.
# Rebuilding after a source change rebuilds the instrumented core and
# retrains before the core is compiled again, so the profile always matches
# the sources. WB_PGO=OFF gives the plain build (and a faster first build).

if(CMAKE_BUILD_TYPE STREQUAL "Release" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU"
   AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 11)
  set(wb_pgo_default ON)
else()
  set(wb_pgo_default OFF)
endif()
option(WB_PGO "Optimise the core with a profile of training runs (GCC release builds)" ${wb_pgo_default})
# Set only in the training build: instrument the core, write counts there.
set(WB_PGO_GENERATE "" CACHE PATH "Internal: profile directory of the instrumented training build")
mark_as_advanced(WB_PGO_GENERATE)

function(wb_enable_pgo target)
  if(WB_PGO_GENERATE)
    target_compile_options(${target} PRIVATE -fprofile-generate=${WB_PGO_GENERATE}
                           -fprofile-update=single -fprofile-prefix-path=${CMAKE_BINARY_DIR})
    target_link_options(${target} PUBLIC -fprofile-generate)
    return()
  endif()
  if(NOT WB_PGO)
    return()
  endif()
  set(profile ${CMAKE_BINARY_DIR}/pgo-profile)
  include(ExternalProject)
  ExternalProject_Add(wb_pgo_training
    SOURCE_DIR ${PROJECT_SOURCE_DIR}
    BINARY_DIR ${CMAKE_BINARY_DIR}/pgo-training
    CMAKE_ARGS -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
               -DWB_BUILD_GUI=OFF -DWB_BUILD_TESTS=OFF -DWB_PGO=OFF -DWB_PGO_GENERATE=${profile}
    BUILD_COMMAND ${CMAKE_COMMAND} --build <BINARY_DIR> --target wakesim
    # Retrains only when the instrumented program changed.
    INSTALL_COMMAND ${PROJECT_SOURCE_DIR}/scripts/pgo-train <BINARY_DIR>/app/wakesim ${profile}
    BUILD_ALWAYS ON
    USES_TERMINAL_BUILD ON)
  add_dependencies(${target} wb_pgo_training)
  # Partial training: code no training run reached (file readers, the GUI's
  # session code) is optimised as without a profile, not for size.
  target_compile_options(${target} PRIVATE -fprofile-use=${profile} -fprofile-partial-training
                         -fprofile-prefix-path=${CMAKE_BINARY_DIR} -Wno-missing-profile)
endfunction()
