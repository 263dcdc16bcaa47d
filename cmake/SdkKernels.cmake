# SPDX-License-Identifier: Apache-2.0
# Kernels are copied (not compiled) next to the executables: edit a .cl in the build folder, or in
# the source tree and rebuild, and the next run picks it up. Programs find them relative to their
# own path and build them with -I that folder, so `#include "border.cl"` works.

# sdk_add_kernels(kernels/sobel/sobel_16x1.cl ...): paths from the project root, each to be copied
# into bin/ once however many samples or tests declare it.
function(sdk_add_kernels)
  foreach(kernel ${ARGN})
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/${kernel})
      message(FATAL_ERROR "kernel ${kernel} does not exist")
    endif()
    set_property(GLOBAL APPEND PROPERTY SDK_KERNEL_FILES ${PROJECT_SOURCE_DIR}/${kernel})
  endforeach()
endfunction()

# sdk_install_kernels(kernels/sobel/sobel_16x1.cl ...): kernels a sample needs, which `cmake --install`
# puts next to the installed samples (a test's or the bench's own kernels stay out).
function(sdk_install_kernels)
  foreach(kernel ${ARGN})
    set_property(GLOBAL APPEND PROPERTY SDK_INSTALLED_KERNEL_FILES ${PROJECT_SOURCE_DIR}/${kernel})
  endforeach()
endfunction()

# After every sample has declared its kernels: one target that puts them all in bin/, and
# bin/assets, a link to the source tree's assets/ (made now, at configure time). The samples read
# assets/input.bmp through it, so the image the user swaps in is the one the next run reads,
# without a rebuild. Samples, tests and the bench depend on the target.
function(sdk_add_runtime_files_target)
  get_property(kernels GLOBAL PROPERTY SDK_KERNEL_FILES)
  list(REMOVE_DUPLICATES kernels)
  set(copied)
  foreach(source ${kernels})
    get_filename_component(name ${source} NAME)
    add_custom_command(OUTPUT ${SDK_RUNTIME_DIR}/${name}
      COMMAND ${CMAKE_COMMAND} -E copy_if_different ${source} ${SDK_RUNTIME_DIR}/${name}
      DEPENDS ${source} COMMENT "Copying kernel ${name}")
    list(APPEND copied ${SDK_RUNTIME_DIR}/${name})
  endforeach()
  add_custom_target(sdk_runtime_files ALL DEPENDS ${copied})

  set(assets ${SDK_RUNTIME_DIR}/assets)
  if(IS_DIRECTORY ${assets} AND NOT IS_SYMLINK ${assets})
    file(REMOVE_RECURSE ${assets})  # the copy an older build made
  endif()
  file(MAKE_DIRECTORY ${SDK_RUNTIME_DIR})
  file(CREATE_LINK ${PROJECT_SOURCE_DIR}/assets ${assets} SYMBOLIC)

  # The installed folder is flat, as bin/ is: the samples, their kernels beside them and
  # assets/input.bmp, and the FIR windows fir_float reads with --coefficients @assets/fir/FILE.
  # Copied anywhere, it runs from any working folder.
  get_property(installed GLOBAL PROPERTY SDK_INSTALLED_KERNEL_FILES)
  list(REMOVE_DUPLICATES installed)
  install(FILES ${installed} DESTINATION .)
  install(FILES ${PROJECT_SOURCE_DIR}/assets/input.bmp DESTINATION assets)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/fir DESTINATION assets)
endfunction()
