#include "indexer/output_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "indexer/file_paths.h"

namespace gem::index {
namespace {

// The temporary files to remove if a signal ends the process. Written only
// before the handlers can fire for them; read by the handler.
char g_temp[2][4096];

void RemoveOnSignal(int sig) {
  for (const char* p : g_temp) {
    if (p[0] != '\0') unlink(p);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

void Arm(const std::string& temp) {
  std::snprintf(g_temp[0], sizeof g_temp[0], "%s", temp.c_str());
  std::snprintf(g_temp[1], sizeof g_temp[1], "%s-journal", temp.c_str());
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = RemoveOnSignal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
  // A file size limit (ulimit -f) would kill the process with SIGXFSZ in
  // the middle of a write; ignored, the write fails with EFBIG instead and
  // is reported like a full disk, and the temporary file is removed.
  signal(SIGXFSZ, SIG_IGN);
}

void Disarm() {
  g_temp[0][0] = '\0';
  g_temp[1][0] = '\0';
}

// "<pid>-<n>" (and nothing else): the PID of the run that made the file.
bool ParseTempSuffix(const char* s, pid_t* pid) {
  char* end = nullptr;
  errno = 0;
  const long p = std::strtol(s, &end, 10);
  if (errno != 0 || end == s || *end != '-' || p <= 0) return false;
  const char* n = end + 1;
  if (*n == '\0') return false;
  for (const char* c = n; *c != '\0'; ++c) {
    if (*c < '0' || *c > '9') return false;
  }
  *pid = static_cast<pid_t>(p);
  return true;
}

// Removes dir/.<base>.gem-tmp-<pid>-<n> (and its journal) for every run
// that is gone: its lock is free and no process has its PID.
int RemoveStaleTemps(const std::string& dir, const std::string& base) {
  const std::string prefix = "." + base + ".gem-tmp-";
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return 0;
  std::vector<std::string> stale;
  while (dirent* e = readdir(d)) {
    if (std::strncmp(e->d_name, prefix.c_str(), prefix.size()) != 0) continue;
    pid_t pid = 0;
    if (!ParseTempSuffix(e->d_name + prefix.size(), &pid)) continue;
    if (kill(pid, 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to ask
    const std::string path = dir + "/" + e->d_name;
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) continue;
    const bool free = flock(fd, LOCK_EX | LOCK_NB) == 0;
    close(fd);
    if (free) stale.push_back(path);
  }
  closedir(d);
  int removed = 0;
  for (const std::string& path : stale) {
    if (unlink(path.c_str()) == 0) ++removed;
    unlink((path + "-journal").c_str());
  }
  return removed;
}

}  // namespace

OutputFile::~OutputFile() {
  if (writeback_.joinable()) writeback_.join();
  if (!committed_) Abandon();
}

Status OutputFile::PrepareLive() {
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
    const std::string file = path_ + suffix;
    if (unlink(file.c_str()) != 0 && errno != ENOENT) {
      return Status::CannotCreate("cannot replace " + file + ": " + std::strerror(errno));
    }
  }
  return Status::Ok();
}

Status OutputFile::Prepare(const std::string& path, bool force) {
  path_ = path;
  struct stat st;
  if (stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      return Status::CannotCreate(path + " is a directory");
    }
    if (!force) {
      return Status::CannotCreate(path + " exists; use --force to replace it");
    }
  }
  directory_ = DirName(path);
  const std::string& dir = directory_;
  if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return Status::CannotCreate("no directory " + dir + " for " + path);
  }
  stale_removed_ = RemoveStaleTemps(dir, BaseName(path));
  // The signals that remove the file wait while it is created and the
  // handlers learn its name: one arriving in between would leave it.
  sigset_t block, old;
  sigemptyset(&block);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&block, sig);
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string temp = dir + "/." + BaseName(path) + ".gem-tmp-" + std::to_string(getpid()) +
                       "-" + std::to_string(attempt);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    const int open_errno = errno;
    if (fd >= 0) {
      // Held until the file is renamed or removed: the next run knows a
      // live run's file by it (flock's lock goes with the process).
      flock(fd, LOCK_EX | LOCK_NB);
      lock_fd_ = fd;
      temp_ = temp;
      Arm(temp_);
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    if (fd >= 0) return Status::Ok();
    errno = open_errno;
    if (errno != EEXIST) {
      return Status::CannotCreate("cannot create a file in " + dir + ": " +
                                  std::strerror(errno));
    }
  }
  return Status::CannotCreate("cannot find a free temporary name in " + dir);
}

void OutputFile::StartWriteback() {
#if defined(__linux__)
  if (writeback_.joinable()) return;
  writeback_ = std::thread([path = temp_] {
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);  // failure: Commit flushes all
    close(fd);
  });
#endif
}

Status OutputFile::Commit() {
  if (writeback_.joinable()) writeback_.join();
  int fd = open(temp_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    if (fsync(fd) != 0) {
      int err = errno;
      close(fd);
      return Status::IoError("cannot flush " + temp_ + ": " + std::strerror(err));
    }
    close(fd);
  }
  if (rename(temp_.c_str(), path_.c_str()) != 0) {
    return Status::CannotCreate("cannot rename the index onto " + path_ + ": " +
                                std::strerror(errno));
  }
  committed_ = true;
  Disarm();
  close(lock_fd_);
  lock_fd_ = -1;
  int dfd = open(directory_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    fsync(dfd);  // make the rename durable; failure here loses nothing
    close(dfd);
  }
  return Status::Ok();
}

void OutputFile::Abandon() {
  if (temp_.empty() || committed_) return;
  unlink(temp_.c_str());
  unlink((temp_ + "-journal").c_str());
  Disarm();
  temp_.clear();
  if (lock_fd_ >= 0) close(lock_fd_);
  lock_fd_ = -1;
}

}  // namespace gem::index
