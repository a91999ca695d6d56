# SPDX-License-Identifier: Apache-2.0
# The Debian package: bin/wakesim, bin/wakebench, the shipped machines and the
# policy SDK (include/wakebench, lib/cmake/Wakebench: sdk/CMakeLists.txt).
# Plain install() + CPack, because Qt 6.4's deploy-script generator does not
# work on Linux; the Qt runtime comes from Debian's own packages.

# topologies_dir() looks for share/wakebench/topologies next to the program.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/topologies/
        DESTINATION share/wakebench/topologies
        FILES_MATCHING PATTERN "*.json")
# validation_cases_dir() looks for share/wakebench/validation the same way.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/validation/
        DESTINATION share/wakebench/validation
        FILES_MATCHING PATTERN "*.json")
# Apache-2.0, where Debian looks for a package's licence.
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION share/doc/wakebench RENAME copyright)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME wakebench)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "Wakebench developers")
set(CPACK_PACKAGE_CONTACT "Wakebench developers <wakebench@invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION
    "Simulates the Linux kernel's fair-class wakeup placement (select_task_rq_fair,
wake_affine, select_idle_sibling) on models of real machines: wakesim on the
command line, wakebench as a Qt workbench that draws the machine and its sched
domains.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# dpkg-shlibdeps (dpkg-dev) finds the exact libc, libstdc++ and Qt versions
# the binaries link. The platform plugins are loaded at run time, so no tool
# sees that wakebench needs them: that one is named by hand.
find_program(WB_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(WB_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "")
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6 (>= 2.34), libstdc++6 (>= 12)")
endif()
if(WB_BUILD_GUI)
  if(NOT WB_DPKG_SHLIBDEPS)
    string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libqt6core6 (>= 6.4), libqt6gui6 (>= 6.4), libqt6widgets6 (>= 6.4)")
  endif()
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", qt6-qpa-plugins")
  string(REGEX REPLACE "^, " "" CPACK_DEBIAN_PACKAGE_DEPENDS "${CPACK_DEBIAN_PACKAGE_DEPENDS}")
endif()

include(CPack)
