# SPDX-License-Identifier: Apache-2.0
# wakesim.1 and wakebench.1, written by help2man from the programs' own
# --help and --version, so that the manual says what the build does.
# packaging/man/*.h2m add what --help cannot: where the data is, the
# environment, the exit status. help2man comes from
# `scripts/install-deps --package`; without it the build has no manual pages.
find_program(WB_HELP2MAN help2man)
if(NOT WB_HELP2MAN)
  message(STATUS "help2man not found: no manual pages (scripts/install-deps --package installs it)")
  return()
endif()
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/packaging/man)

# wb_man_page(PROGRAM SUMMARY [GENERATED_INCLUDE]): PROGRAM.1.gz from its
# --help, packaging/man/PROGRAM.h2m and, if given, an include file written
# at build time.
function(wb_man_page program summary)
  set(page ${CMAKE_BINARY_DIR}/packaging/man/${program}.1)
  # The generated include first: help2man orders extra sections as it meets them.
  set(includes "")
  if(ARGC GREATER 2)
    list(APPEND includes --include=${ARGV2})
  endif()
  list(APPEND includes --include=${PROJECT_SOURCE_DIR}/packaging/man/${program}.h2m)
  add_custom_command(OUTPUT ${page}.gz
                     COMMAND ${WB_HELP2MAN} --no-info --name=${summary} ${includes}
                             --output=${page} $<TARGET_FILE:${program}>
                     COMMAND gzip -9nf ${page}
                     DEPENDS ${program} ${PROJECT_SOURCE_DIR}/packaging/man/${program}.h2m ${ARGV2}
                     COMMENT "Writing the manual page ${program}(1)" VERBATIM)
  add_custom_target(${program}_man ALL DEPENDS ${page}.gz)
  install(FILES ${page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endfunction()

# wakesim's commands each have their own --help: a COMMANDS section of them.
set(wb_commands_h2m ${CMAKE_BINARY_DIR}/packaging/man/wakesim-commands.h2m)
add_custom_command(OUTPUT ${wb_commands_h2m}
                   COMMAND sh ${PROJECT_SOURCE_DIR}/packaging/man/command-help.sh $<TARGET_FILE:wakesim> > ${wb_commands_h2m}
                   DEPENDS wakesim ${PROJECT_SOURCE_DIR}/packaging/man/command-help.sh
                   COMMENT "Collecting wakesim's commands' help for its manual page")
wb_man_page(wakesim "simulate the Linux scheduler's wakeup placement on models of real machines" ${wb_commands_h2m})
if(WB_BUILD_GUI)
  wb_man_page(wakebench "workbench for the Linux scheduler's wakeup placement")
endif()
