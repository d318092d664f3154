// The directory and the last component of a file path, as the indexer
// names files beside its output ("dir/name" -> "dir", "name"; "name" ->
// ".", "name"; "/name" -> "/", "name").
#ifndef GEM_INDEXER_FILE_PATHS_H_
#define GEM_INDEXER_FILE_PATHS_H_

#include <string>

namespace gem::index {

inline std::string DirName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

inline std::string BaseName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace gem::index

#endif  // GEM_INDEXER_FILE_PATHS_H_
