// Loads libgrbda_backends.so, the code that uses urdfdom, tinyxml2 and FCL, with RTLD_LOCAL |
// RTLD_DEEPBIND: the backend and the libraries it needs look up symbols in their own group first.
// A program that also links another copy of those libraries (Pinocchio's and crocoddyl's wheels:
// urdfdom 6, tinyxml2 11, octomap 1.10 through coal) keeps each copy's symbols with its own users;
// linked directly, the copies' same-named symbols interpose (octomap's static objects were
// constructed and destroyed twice: "double free or corruption" at exit). Under a sanitizer runtime,
// which cannot follow RTLD_DEEPBIND, the backend is loaded with RTLD_LOCAL alone.
// docs/packaging.md, "Private dependencies".
#include "loaders/backends.hpp"

#include <dlfcn.h>

#include <string>

#include "grbda/errors.hpp"

namespace grbda::detail {
namespace {

constexpr const char* kBackendFile = "libgrbda_backends.so.0";

/// The directory of the file this function was loaded from (libgrbda.so), with a slash; for the
/// x86-64-v3 flavour, which the dynamic loader picks from LIBDIR/glibc-hwcaps/x86-64-v3/ on a
/// CPU that has AVX2 and FMA (docs/performance.md), the LIBDIR it sits under, where the backend is.
std::string ownDirectory() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&ownDirectory), &info) == 0 || !info.dli_fname) return {};
  const std::string self = info.dli_fname;
  const size_t slash = self.find_last_of('/');
  if (slash == std::string::npos) return {};
  const std::string dir = self.substr(0, slash + 1);
  const std::string flavour = "glibc-hwcaps/x86-64-v3/";
  const bool inFlavourDir = dir.size() >= flavour.size() && dir.compare(dir.size() - flavour.size(), flavour.size(), flavour) == 0;
  return inFlavourDir ? dir.substr(0, dir.size() - flavour.size()) : dir;
}

bool underSanitizer() {
  return dlsym(RTLD_DEFAULT, "__asan_init") || dlsym(RTLD_DEFAULT, "__tsan_init") ||
         dlsym(RTLD_DEFAULT, "__msan_init");
}

const BackendTable& load() {
  const int flags = RTLD_NOW | RTLD_LOCAL | (underSanitizer() ? 0 : RTLD_DEEPBIND);
  const std::string path = ownDirectory() + kBackendFile;
  void* handle = dlopen(path.c_str(), flags);
  if (!handle) throw Error(std::string("grbda: cannot load its backend library ") + path + ": " + dlerror());
  auto table = reinterpret_cast<const BackendTable* (*)()>(dlsym(handle, "grbda_backend_table"));
  if (!table) throw Error("grbda: " + path + " has no grbda_backend_table");
  const BackendTable* t = table();
  if (t->version != kBackendTableVersion)
    throw Error("grbda: " + path + " is of another grbda (backend table version " + std::to_string(t->version) +
                ", expected " + std::to_string(kBackendTableVersion) + ")");
  return *t;  // never unloaded: models and FCL objects may outlive any scope here
}

}  // namespace

const BackendTable& backends() {
  static const BackendTable& table = load();
  return table;
}

void FclObjectDeleter::operator()(FclObject* object) const { backends().deleteFclObject(object); }

FclObjectPtr makeFclObject(const CollisionShape& shape) { return FclObjectPtr(backends().newFclObject(shape)); }

}  // namespace grbda::detail
