#include "core/util/huge_page_heap.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

namespace gem {

void BackHeapWithHugePages(size_t bytes) {
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
  constexpr size_t kProbe = 120 << 10;  // below the 128 KiB mmap threshold
  constexpr int kMmapThreshold = 128 << 10;
  if (bytes == 0 || bytes > (size_t{1} << 30)) return;
  // Each heap growth now asks for `bytes` more than it needs, and a free
  // at the top keeps that much (so the advised range is not given back).
  mallopt(M_TOP_PAD, static_cast<int>(bytes));
  mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
  char* const before = static_cast<char*>(sbrk(0));
  // Allocate until the heap grows (the first blocks may fit in what it
  // already has).
  void* blocks[4] = {nullptr, nullptr, nullptr, nullptr};
  char* after = before;
  for (void*& b : blocks) {
    b = std::malloc(kProbe);
    after = static_cast<char*>(sbrk(0));
    if (after != before) break;
  }
  for (void* b : blocks) std::free(b);
  if (before == reinterpret_cast<char*>(-1) || after <= before) return;
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t start = (reinterpret_cast<uintptr_t>(before) + page - 1) & ~(page - 1);
  const uintptr_t end = reinterpret_cast<uintptr_t>(after) & ~(page - 1);
  if (end > start) madvise(reinterpret_cast<void*>(start), end - start, MADV_HUGEPAGE);
#else
  (void)bytes;
#endif
}

}  // namespace gem
