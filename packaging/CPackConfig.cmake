# SPDX-License-Identifier: Apache-2.0
# The Debian package, `make package` (docs/packaging.md). It holds:
#   bin/wakesim, bin/wakebench                       app/CMakeLists.txt
#   include/wakebench, lib/cmake/Wakebench           the policy SDK, sdk/CMakeLists.txt
#   share/wakebench (machines, scenarios, validation
#   cases, schema), bash completion, copyright,
#   changelog                                        packaging/install.cmake
#   the menu entry, icons, AppStream metadata        packaging/desktop.cmake
#   share/man/man1/wakesim.1.gz, wakebench.1.gz      packaging/manpages.cmake
# Plain install() + CPack, because Qt 6.4's deploy-script generator does not
# work on Linux; the Qt runtime comes from Debian's own packages.
include(${CMAKE_CURRENT_LIST_DIR}/install.cmake)
if(WB_BUILD_GUI)
  include(${CMAKE_CURRENT_LIST_DIR}/desktop.cmake)
endif()
include(${CMAKE_CURRENT_LIST_DIR}/manpages.cmake)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME wakebench)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "Wakebench developers")
set(CPACK_PACKAGE_CONTACT "Wakebench developers <wakebench@example.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "simulator of the Linux scheduler's wakeup placement")
set(CPACK_PACKAGE_DESCRIPTION
    "Simulates the Linux kernel's fair-class wakeup placement (select_task_rq_fair,
wake_affine, select_idle_sibling) event by event on models of real machines,
under workloads modelled on perf bench sched pipe, hackbench, schbench,
stress-ng and a GEMM. wakesim is the command line; wakebench is a Qt
workbench that draws the machine, its sched domains and each decision, with
one to four policies side by side. Includes the SDK to build policy plugins.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# Debian's modes whatever the builder's umask.
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://wakebench.example.org/")
# A plugin is built with CMake and a C++20 compiler against the SDK.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "cmake, g++ (>= 4:12)")
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
