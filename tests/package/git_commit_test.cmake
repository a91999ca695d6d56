# SPDX-License-Identifier: Apache-2.0
# cmake -DMODULE=cmake/WakebenchVersion.cmake -DGIT=git -DWORK=DIR -P git_commit_test.cmake:
# wb_git_commit() gives a checkout's HEAD, and "unknown" for a folder outside
# git and for a source folder unpacked inside some other repository.
include(${MODULE})
# Git looks no higher than WORK: the build tree may lie in a checkout.
set(ENV{GIT_CEILING_DIRECTORIES} ${WORK})
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/plain ${WORK}/repo/unpacked-tarball)

function(expect dir expected)
  wb_git_commit(got ${dir})
  if(NOT got STREQUAL expected)
    message(FATAL_ERROR "wb_git_commit(${dir}): expected '${expected}', got '${got}'")
  endif()
endfunction()

function(git)
  execute_process(COMMAND ${GIT} -C ${WORK}/repo -c user.name=test -c user.email=test@example.org ${ARGN}
                  OUTPUT_VARIABLE out RESULT_VARIABLE status OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "git ${ARGN} failed")
  endif()
  set(git_out ${out} PARENT_SCOPE)
endfunction()

expect(${WORK}/plain unknown)
git(init --quiet)
file(WRITE ${WORK}/repo/file "text\n")
git(add file)
git(commit --quiet -m first)
git(rev-parse --short=12 HEAD)
expect(${WORK}/repo ${git_out})
expect(${WORK}/repo/unpacked-tarball unknown)
file(REMOVE_RECURSE ${WORK})
