# SPDX-License-Identifier: Apache-2.0
#
# The commit a build comes from, for `wakesim --version` and
# `wakebench --version`: read once, at configure time.

# Sets `out_var` to HEAD's abbreviated hash when `source_dir` is the top of a
# git checkout, else to "unknown": a release tarball, a machine without
# git, or a tarball unpacked inside some other repository (whose commit
# would say nothing about this source).
function(wb_git_commit out_var source_dir)
  set(commit unknown)
  find_package(Git QUIET)
  if(GIT_FOUND)
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${source_dir} rev-parse --show-toplevel --short=12 HEAD
                    OUTPUT_VARIABLE lines RESULT_VARIABLE status ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(status EQUAL 0)
      string(REPLACE "\n" ";" lines "${lines}")
      list(GET lines 0 top)
      list(GET lines 1 head)
      file(REAL_PATH ${source_dir} source_real)
      file(REAL_PATH ${top} top_real)
      if(top_real STREQUAL source_real AND head MATCHES "^[0-9a-f]+$")
        set(commit ${head})
      endif()
    endif()
  endif()
  set(${out_var} ${commit} PARENT_SCOPE)
endfunction()
