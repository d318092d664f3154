// EntityManager's decode faults: where a packet's stream went wrong, what
// it made stale, and the full packet that refreshes it (decode_fault.h).
#include <algorithm>

#include "core/entities/entities.h"

namespace gem {
namespace {

// After a packet's last entity: byte padding, or Dota's 6-bit zero index
// delta and then padding (decode_fault.h).
constexpr size_t kPaddingBits = 7;
constexpr unsigned kZeroDeltaBits = 6;

}  // namespace

Status EntityManager::CheckPacketEnd(BitReader* r) {
  const size_t left = r->bits_left();
  if (left <= kPaddingBits) return Status::Ok();
  if (left <= kPaddingBits + kZeroDeltaBits && r->ReadBits(kZeroDeltaBits) == 0) {
    return Status::Ok();
  }
  return Status::Corrupt("the packet's last entity ends " + std::to_string(left) +
                         " bits before the packet does");
}

void EntityManager::RecordFault(const PacketEntities& msg, const TickInfo& tick, int64_t at,
                                const Status& s, uint64_t bit, bool at_end) {
  DecodeFault f;
  f.tick = ticks_.Peek(tick);
  f.server_tick = msg.server_tick;
  f.full_packet = !msg.is_delta;
  f.bit = bit;
  f.reason = s.message();
  if (!at_end) {
    f.entity = at >= 0 && at < kMaxEntities ? static_cast<int32_t>(at) : -1;
    if (reading_class_ != nullptr) f.class_name = reading_class_->serializer()->name;
    f.field = fault_field_;
  }
  fault_field_.clear();
  auto make_stale = [&](Entity* e) {
    if (e == nullptr || e->stale) return;
    e->stale = true;
    f.stale.push_back(e->index);
  };
  if (at_end) {
    // Nothing ran out, yet bits were left: any entity the packet touched
    // may hold the misread.
    for (int32_t index : touched_) make_stale(entities_[index]);
    std::sort(f.stale.begin(), f.stale.end());
  } else {
    // The rest of the packet is lost: the entity at fault, the one read
    // before it (a misread may first show in the next entity's header),
    // and every entity at a higher index.
    int32_t from = 0;
    if (touched_.size() >= 2) {
      from = touched_[touched_.size() - 2];
    } else if (touched_.size() == 1) {
      from = touched_[0];
    }
    for (int32_t index = from; index < kMaxEntities; ++index) make_stale(entities_[index]);
  }
  ++counters_.decode_faults;
  counters_.stale_marked += f.stale.size();
  faults_.push_back(std::move(f));
}

void EntityManager::ReportDrops(const TickInfo& tick, const Entity& e) {
  drops_.clear();
  for (const FieldChange& c : changes_) {
    if (c.value.is_none()) drops_.push_back(c);
  }
  if (!drops_.empty()) sink_->OnEntityUpdated(tick, e.ref(), drops_);
}

void EntityManager::CloseFaults(const TickInfo& tick) {
  for (Entity* e : entities_) {
    if (e != nullptr) e->stale = e->misread = false;
  }
  for (UnknownTypeRule& r : chosen_rules_) r.confirmed = true;
  if (first_open_fault_ == faults_.size()) return;
  for (size_t i = first_open_fault_; i < faults_.size(); ++i) {
    faults_[i].refreshed = true;
    faults_[i].refreshed_tick = ticks_.Peek(tick);
  }
  first_open_fault_ = faults_.size();
  ++counters_.fault_refreshes;
}

Status EntityManager::Refresh(const PacketEntities& msg, const TickInfo& tick) {
  Status s = DecodeSnapshot(msg, &restatement_);
  if (!s.ok()) {
    if (s.code() != Status::Code::kCorrupt) return s;
    // The full packet holds the misread too: the faults stay open for the
    // next one.
    DecodeFault f;
    f.tick = ticks_.Peek(tick);
    f.server_tick = msg.server_tick;
    f.full_packet = true;
    f.reason = s.message();
    f.field = fault_field_;
    fault_field_.clear();
    ++counters_.decode_faults;
    faults_.push_back(std::move(f));
    restatement_.clear();
    // (Each success names a new type: the retry ends.)
    UndoUnconfirmedRules();
    if (SearchRule(msg)) return Refresh(msg, tick);
    return Status::Ok();
  }
  state_server_tick_ = msg.server_tick;
  // (Whatever the restatement did not hold it deleted; what it held is
  // fresh.)
  ApplyRestatement(tick);
  return Status::Ok();
}

}  // namespace gem
