# SPDX-License-Identifier: Apache-2.0
# What the programs read at run time, and the package's own documents.

# The shipped data, in share/wakebench where shipped_data_dir()
# (core/base/data_dir.h) looks for it beside the installed programs.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/topologies/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/wakebench/topologies
        FILES_MATCHING PATTERN "*.json")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/scenarios/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/wakebench/scenarios
        FILES_MATCHING PATTERN "*.json")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/validation/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/wakebench/validation
        FILES_MATCHING PATTERN "*.json")
# The guest's workload programs and /init, which `wakesim kernel run`
# builds for the guest at run time.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/guest/ DESTINATION ${CMAKE_INSTALL_DATADIR}/wakebench/guest)
# The machine file's JSON schema, for editors that check what one writes.
install(FILES ${PROJECT_SOURCE_DIR}/resources/schema/machine.schema.json
        DESTINATION ${CMAKE_INSTALL_DATADIR}/wakebench/schema)

# Completion of wakesim's commands, options and the names it knows,
# where bash-completion loads it on first use.
install(FILES ${PROJECT_SOURCE_DIR}/resources/completion/wakesim.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME wakesim)

# Debian's copyright file (the machine-readable format, pointing at the
# system's copy of the Apache licence) and the changelog, compressed as
# Debian policy 12.7 asks: -n keeps the timestamp out, so the package is
# the same from one build to the next.
set(wb_doc_dir ${CMAKE_INSTALL_DATADIR}/doc/wakebench)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/copyright DESTINATION ${wb_doc_dir})
set(wb_changelog ${CMAKE_BINARY_DIR}/packaging/changelog.gz)
add_custom_command(OUTPUT ${wb_changelog}
                   COMMAND sh -c "gzip -9n < \"$1\" > \"$2\"" sh ${PROJECT_SOURCE_DIR}/packaging/changelog ${wb_changelog}
                   DEPENDS ${PROJECT_SOURCE_DIR}/packaging/changelog
                   COMMENT "Compressing the package's changelog" VERBATIM)
add_custom_target(wb_changelog ALL DEPENDS ${wb_changelog})
install(FILES ${wb_changelog} DESTINATION ${wb_doc_dir})
