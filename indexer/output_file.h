// OutputFile: the index is written to a temporary file beside the output
// and renamed onto it only when complete, so the output path never holds a
// half-written database. The temporary file is removed on every failure
// path, including SIGINT, SIGTERM and SIGHUP.
//
// A run killed outright (SIGKILL: an OOM kill, a closed terminal) cannot
// remove its file: the next run for the same output does. A run holds an
// flock on its temporary file for its whole life, and the next run removes
// only the files whose lock it can take and whose process (the PID in the
// name) is gone: never a live run's, whatever its version.
#ifndef GEM_INDEXER_OUTPUT_FILE_H_
#define GEM_INDEXER_OUTPUT_FILE_H_

#include <string>
#include <thread>

#include "core/util/status.h"

namespace gem::index {

class OutputFile {
 public:
  OutputFile() = default;
  ~OutputFile();  // removes the temporary file unless committed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Checks that `path` may be written (CannotCreate when it exists and
  // `force` is off, or its directory is missing or not writable), removes
  // the temporary files dead runs left for it, and creates the empty
  // temporary file.
  Status Prepare(const std::string& path, bool force);
  const std::string& temp_path() const { return temp_; }
  // A live run (live_index.h) writes the output itself as it goes: after
  // Prepare, removes the output Prepare allowed to be replaced (--force),
  // with SQLite's side files, so that it can be created anew.
  Status PrepareLive();
  // The directory both files are in (after Prepare).
  const std::string& directory() const { return directory_; }
  // Temporary files of dead runs that Prepare removed.
  int stale_removed() const { return stale_removed_; }

  // Starts writing the temporary file's dirty pages to disk (Linux:
  // sync_file_range; elsewhere nothing), so that Commit's flush finds less
  // left to wait for. Queuing a large file's pages takes a while (10 ms
  // for 15 MB here), so a thread of its own does it while the caller goes
  // on; Commit waits for it. Best effort: Commit still flushes all.
  void StartWriteback();
  // Flushes the temporary file and renames it onto the output.
  Status Commit();
  // Removes the temporary file (and any SQLite side file).
  void Abandon();

 private:
  std::string path_;
  std::string directory_;
  std::string temp_;
  bool committed_ = false;
  int lock_fd_ = -1;  // the temporary file, flocked while this run lives
  std::thread writeback_;
  int stale_removed_ = 0;
};

}  // namespace gem::index

#endif  // GEM_INDEXER_OUTPUT_FILE_H_
