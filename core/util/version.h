// gem's version: the one definition that gem-index --version, the index's
// meta.indexer_version and the extension's gem_version() and gem_debug()
// all print. The index format's own number is kIndexSchemaVersion
// (core/codec/index_format.h).
#ifndef GEM_CORE_UTIL_VERSION_H_
#define GEM_CORE_UTIL_VERSION_H_

namespace gem {

constexpr const char* kGemVersion = "0.1.0";

}  // namespace gem

#endif  // GEM_CORE_UTIL_VERSION_H_
