# SPDX-License-Identifier: Apache-2.0
# wakebench_add_policy(NAME SOURCES file.cpp...): a policy plugin,
# lib<NAME>.so in the current binary folder, for `wakesim --plugin` and
# `wakebench --plugin`. Only the entry points WAKEBENCH_PLUGIN() defines are
# exported; everything else stays inside the plugin.
function(wakebench_add_policy name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES")
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "wakebench_add_policy(${name}): expected SOURCES with at least one file")
  endif()
  add_library(${name} MODULE ${arg_SOURCES})
  target_link_libraries(${name} PRIVATE Wakebench::sdk)
  set_target_properties(${name} PROPERTIES
    PREFIX "lib"
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
endfunction()
