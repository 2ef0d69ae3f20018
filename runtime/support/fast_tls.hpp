// HALYARD_FAST_TLS: a thread-local of the library read at a fixed offset from the thread
// pointer (the initial-exec model) instead of through __tls_get_addr. Every thread_local on a
// per-call path is declared with it; the build leaves the default model for everything else.
//
// Why not the whole library (-ftls-model=initial-exec, as before): that flag also binds
// libstdc++'s own thread-locals that inline code reaches (std::call_once's __once_callable, used
// by std::async and std::thread), and once a library loaded earlier (torch) made libstdc++'s TLS
// dynamic, glibc refused to load libhalyard at all ("libstdc++.so.6: cannot allocate memory in
// static TLS block", whatever the tunables). TLS descriptors (-mtls-dialect=gnu2) avoid that
// but meet glibc 2.36's _dl_tlsdesc_dynamic, which clobbers vector registers: std::call_once
// crashed. The library's own block (under 1 KiB) still needs spare static TLS when it is
// dlopen'ed, which glibc keeps (hlaunch asks for more: launcher/environment.hpp).
#pragma once

#define HALYARD_FAST_TLS [[gnu::tls_model("initial-exec")]]
