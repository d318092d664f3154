#include "indexer/run_pages.h"

#include <algorithm>

#include "core/codec/index_format.h"

namespace gem::index {

void RunPages::Place(std::string_view run, int64_t* page, uint32_t* offset) {
  ++stats_.runs;
  stats_.run_bytes += run.size();
  if (run.size() > kRunPageBytes) {
    // A row of its own, sealed at once.
    Page& p = pages_.emplace_back(Page{next_id_++, std::string(run), true});
    *page = p.id;
    *offset = 0;
    WriteReady();
    return;
  }
  for (Page& p : pages_) {
    if (p.sealed || kRunPageBytes - p.data.size() < run.size()) continue;
    *page = p.id;
    *offset = static_cast<uint32_t>(p.data.size());
    p.data.append(run);
    if (kRunPageBytes - p.data.size() < kSealBelow) {
      p.sealed = true;
      --open_;
      WriteReady();
    }
    return;
  }
  if (open_ >= kOpenPages || pages_.size() >= kMaxWaiting) SealOldest();
  Page& p = pages_.emplace_back(Page{next_id_++, std::string(), false});
  p.data.reserve(kRunPageBytes);
  p.data.append(run);
  ++open_;
  *page = p.id;
  *offset = 0;
  WriteReady();
}

void RunPages::SealOldest() {
  for (Page& p : pages_) {
    if (p.sealed) continue;
    p.sealed = true;
    --open_;
    return;
  }
}

void RunPages::WriteReady() {
  while (!pages_.empty() && pages_.front().sealed) {
    const Page& p = pages_.front();
    out_->Begin(kPageRow).Int(p.id).Blob(p.data);
    ++stats_.pages;
    stats_.page_bytes += std::max(p.data.size(), kRunPageBytes);
    pages_.pop_front();
  }
}

void RunPages::Flush() {
  for (Page& p : pages_) p.sealed = true;
  open_ = 0;
  WriteReady();
}

}  // namespace gem::index
