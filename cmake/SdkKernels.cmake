# Kernels are copied (not compiled) next to the executables: edit a .cl in the build folder, or in
# the source tree and rebuild, and the next run picks it up. Programs find them relative to their
# own path and build them with -I that folder, so `#include "border.cl"` works.

# sdk_add_kernels(kernels/sobel/sobel.cl ...): paths from the project root, each to be copied
# into bin/ once however many samples or tests declare it.
function(sdk_add_kernels)
  foreach(kernel ${ARGN})
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/${kernel})
      message(FATAL_ERROR "kernel ${kernel} does not exist")
    endif()
    set_property(GLOBAL APPEND PROPERTY SDK_KERNEL_FILES ${PROJECT_SOURCE_DIR}/${kernel})
  endforeach()
endfunction()

# After every sample has declared its kernels: one target that puts them all, and the bundled
# image, in bin/. Samples, tests and the bench depend on it.
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
  set(asset ${PROJECT_SOURCE_DIR}/assets/input.bmp)
  add_custom_command(OUTPUT ${SDK_RUNTIME_DIR}/assets/input.bmp
    COMMAND ${CMAKE_COMMAND} -E copy_if_different ${asset} ${SDK_RUNTIME_DIR}/assets/input.bmp
    DEPENDS ${asset} COMMENT "Copying the bundled image")
  add_custom_target(sdk_runtime_files ALL DEPENDS ${copied} ${SDK_RUNTIME_DIR}/assets/input.bmp)
endfunction()
