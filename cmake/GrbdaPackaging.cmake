# Debian packages of grbda with CPack, one per install component, from an already built tree:
#   cd build && cpack -G DEB      ->  libgrbda0, libgrbda-dev, grbda-tools, python3-grbda .deb files
# (tools/check_packages.sh installs them into a clean Debian root; docs/packaging.md says why CPack.)
# Versions come from project(VERSION); the Debian revision is 1.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME grbda)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "grbda maintainers <maintainers@grbda.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "rigid-body dynamics for robots with kinematic loops")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev tools)
if(GRBDA_BUILD_PYTHON)
  list(APPEND CPACK_COMPONENTS_ALL debian_python)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # name_version-revision_arch.deb
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)

# Dependencies on Debian's libraries from dpkg-shlibdeps (libc6, libstdc++6, liburdfdom-model,
# libtinyxml2-9, libspdlog1.10, libfcl0.7, ...; FCL is linked privately, so libgrbda-dev and a
# consumer's find_package(grbda) need no libfcl-dev). libgrbda.so.0 itself is found in the build tree and
# depended on by name below, at exactly this version: 0.x releases may change the ABI.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR})
set(_grbda_deb_version "${PROJECT_VERSION}-${CPACK_DEBIAN_PACKAGE_RELEASE}")
set(_grbda_deb_lib "libgrbda0 (= ${_grbda_deb_version})")

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libgrbda0)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
# shlibs file (libgrbda 0 libgrbda0 (= version)) and the ldconfig trigger
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY "=")
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "rigid-body dynamics for robots with kinematic loops (library)
 grbda computes forward and inverse dynamics, the mass matrix and the inverse
 operational-space inertia of robots whose limbs contain local kinematic loops
 (geared rotors, belts, differentials, four-bar linkages) with cluster-based
 recursive algorithms (C-ABA, C-RNEA, C-EFPA). This package has the shared library.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libgrbda-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "${_grbda_deb_lib}, libeigen3-dev (>= 3.3)")
set(CPACK_COMPONENT_DEV_DESCRIPTION "rigid-body dynamics for robots with kinematic loops (development files)
 Headers and the CMake package of grbda: find_package(grbda) then link grbda::grbda.")

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME grbda-tools)
set(CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS "${_grbda_deb_lib}")
set(CPACK_COMPONENT_TOOLS_DESCRIPTION "rigid-body dynamics for robots with kinematic loops (command)
 The grbda command: inspect a URDF / URDF+ robot's cluster tree, evaluate its
 dynamics, simulate and benchmark it; with the robot models in /usr/share/grbda/models.")

set(CPACK_DEBIAN_DEBIAN_PYTHON_PACKAGE_NAME python3-grbda)
set(CPACK_DEBIAN_DEBIAN_PYTHON_PACKAGE_SECTION python)
if(GRBDA_BUILD_PYTHON)
  # The extension is built for one interpreter version (as dh_python3 would depend).
  math(EXPR _grbda_py_next "${Python3_VERSION_MINOR} + 1")
  set(CPACK_DEBIAN_DEBIAN_PYTHON_PACKAGE_DEPENDS
    "${_grbda_deb_lib}, python3 (>= ${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}), python3 (<< ${Python3_VERSION_MAJOR}.${_grbda_py_next}), python3-numpy")
endif()
set(CPACK_COMPONENT_DEBIAN_PYTHON_DESCRIPTION "rigid-body dynamics for robots with kinematic loops (Python 3)
 The grbda Python module: the library's API with numpy arrays in and out.")

include(CPack)
