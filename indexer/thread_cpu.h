// CPU time by thread: gem-index reports what each of its threads used
// (--stats), since on two cores the longest of them bounds the wall time
// and their sum is what a corpus of many replays pays.
#ifndef GEM_INDEXER_THREAD_CPU_H_
#define GEM_INDEXER_THREAD_CPU_H_

#include <sys/resource.h>
#include <time.h>

namespace gem::index {

// Seconds of CPU the calling thread has used so far.
inline double ThreadCpuSeconds() {
  timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Seconds of CPU the whole process has used so far (user and system).
inline double ProcessCpuSeconds() {
  rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
  auto seconds = [](const timeval& tv) {
    return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6;
  };
  return seconds(ru.ru_utime) + seconds(ru.ru_stime);
}

}  // namespace gem::index

#endif  // GEM_INDEXER_THREAD_CPU_H_
