#include "indexer/row_blocks.h"

namespace gem::index {

Status RowBlocks::Add(int64_t slot, int64_t k, int64_t entity, std::string_view row) {
  // A block's body stays within what readers take (kMaxKeyframeBody): a
  // row that would not fit even alone is refused.
  if (row.size() > kMaxKeyframeBody / 2) {
    return Status::InvalidArgument("keyframes: entity " + std::to_string(entity) + " tick " +
                                   std::to_string(k) + ": its row takes " +
                                   std::to_string(row.size()) + " bytes, more than " +
                                   std::to_string(kMaxKeyframeBody / 2) + " (a block's limit)");
  }
  if (slot != slot_ || (!block_.empty() && block_.row_bytes() + row.size() > kMaxKeyframeBody / 2)) {
    GEM_RETURN_IF_ERROR(Flush());
    slot_ = slot;
    k_ = k;
  }
  if (!block_.Add(entity, row)) {
    return Status::Corrupt("keyframes: entity " + std::to_string(entity) +
                           " comes after a later one (an indexer bug)");
  }
  ++stats_.rows;
  stats_.row_bytes += row.size();
  if (block_.row_bytes() >= kKeyframeBlockBytes || block_.rows() >= kMaxKeyframeBlockRows) {
    return Flush();
  }
  return Status::Ok();
}

Status RowBlocks::Flush() {
  if (block_.empty()) return Status::Ok();
  const int64_t first = block_.first_entity(), last = block_.last_entity();
  int64_t key = 0;
  if (!KeyframeBlockKey(slot_, first, &key)) {
    return Status::InvalidArgument("keyframes: entity " + std::to_string(first) + " tick " +
                                   std::to_string(k_) + " has no block key");
  }
  if (!block_.Finish(&compressor_, &blob_)) {
    return Status::IoError("keyframes: zstd failed on the block of tick " + std::to_string(k_));
  }
  ++stats_.blocks;
  stats_.block_bytes += blob_.size();
  out_->Begin(kBlockRow).Int(key).Int(k_).Int(first).Int(last).Blob(blob_);
  return Status::Ok();
}

}  // namespace gem::index
