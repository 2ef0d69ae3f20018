#include "transports/ofi/libfabric_library.hpp"

#include <dlfcn.h>

#include <string>

#include "runtime/support/config.hpp"
#include "runtime/support/error.hpp"
#include "runtime/support/log.hpp"

namespace halyard::ofi {
namespace {

constexpr const char* kDefaultLibrary = "libfabric.so.1";

[[noreturn]] void fail(const std::string& library, const std::string& why) {
  throw Error(ErrorCode::kUnsupported,
              "ofi transport: cannot use " + library + ": " + why +
                  " (install libfabric, e.g. Debian's libfabric1, or point HALYARD_LIBFABRIC at "
                  "the library)");
}

template <typename Function>
Function resolve(void* handle, const std::string& library, const char* name) {
  // dlsym returns the default version of a versioned symbol, the one the headers describe.
  void* symbol = ::dlsym(handle, name);
  if (symbol == nullptr) fail(library, std::string("it has no ") + name);
  return reinterpret_cast<Function>(symbol);
}

LibfabricLibrary load() {
  std::string library = config::env_string("HALYARD_LIBFABRIC").value_or(kDefaultLibrary);
  // Never closed: providers keep threads and atexit handlers that must find their code.
  void* handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* reason = ::dlerror();
    fail(library, reason != nullptr ? reason : "dlopen failed");
  }
  LibfabricLibrary api{};
  api.getinfo = resolve<decltype(api.getinfo)>(handle, library, "fi_getinfo");
  api.freeinfo = resolve<decltype(api.freeinfo)>(handle, library, "fi_freeinfo");
  api.dupinfo = resolve<decltype(api.dupinfo)>(handle, library, "fi_dupinfo");
  api.fabric = resolve<decltype(api.fabric)>(handle, library, "fi_fabric");
  api.strerror = resolve<decltype(api.strerror)>(handle, library, "fi_strerror");
  api.version = resolve<decltype(api.version)>(handle, library, "fi_version");
  log::debug("ofi: loaded {}", library);
  return api;
}

}  // namespace

const LibfabricLibrary& libfabric() {
  static const LibfabricLibrary api = load();
  return api;
}

}  // namespace halyard::ofi
