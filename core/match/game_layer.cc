#include "core/match/game_layer.h"

#include <algorithm>
#include <cmath>

#include "core/input/demo_stream.h"
#include "core/match/body.h"
#include "core/match/games.h"

namespace gem::match {

class GameLayer::Emitter : public GameModule::RowSink {
 public:
  explicit Emitter(Sink* sink) : sink_(sink) {}
  void Emit(std::span<const MatchValue> row) override {
    if (sink_ != nullptr) sink_->OnTimelineRow(row);
  }

 private:
  Sink* sink_;
};

GameLayer::GameLayer(const Schema* schema, const EntityManager* entities,
                     const StringTables* tables, Sink* sink, const GameLayerOptions& options)
    : ctx_(schema, entities, tables, sink),
      sink_(sink),
      options_(options),
      emitter_(std::make_unique<Emitter>(sink)) {
  // The match layer needs someone to take its rows.
  options_.match_layer = options_.match_layer && sink != nullptr;
  ctx_.SetMatchLayer(options_.match_layer);
  ctx_.SetGameTables(options_.match_layer && options_.game_tables);
  // Classes are watched for the match layer only; a module may add more.
  if (options_.match_layer) ctx_.SetWatched(&watched_);
}

GameLayer::~GameLayer() = default;

void GameLayer::SetGame(std::string_view game) {
  if (!game_.empty()) return;
  game_ = game;
  module_ = CreateGameModule(game);
  row_.assign(kTimelineCommon + (module_ ? module_->extra_columns().size() : 0),
              MatchValue());
  if (module_ == nullptr) return;
  for (const UserMessageSpec& m : module_->user_messages()) {
    // Types are message ids (a few thousand at most); a module's list is
    // code, not data.
    if (m.type >= reads_.size()) reads_.resize(m.type + 1, kNotRead);
    reads_[m.type] = static_cast<int8_t>(std::clamp(m.priority, -100, 100));
  }
  module_->Start(ctx_);
}

void GameLayer::SetTickInterval(double interval) {
  if (interval > 0 && std::isfinite(interval)) ctx_.SetTickInterval(interval);
}

bool GameLayer::Watched(int32_t class_id) {
  if (module_ == nullptr || class_id < 0 || !options_.match_layer) return false;
  const size_t c = static_cast<size_t>(class_id);
  if (c >= watched_.size()) watched_.resize(c + 1, -1);
  if (watched_[c] < 0) watched_[c] = module_->Watches(ctx_.ClassName(class_id)) ? 1 : 0;
  return watched_[c] == 1;
}

void GameLayer::BeforeFrame(const TickInfo& next) {
  // Only frames that carry state move the clock of samples: others (spawn
  // groups, file info, user commands) may carry any tick, even past the
  // replay's last (gem-synth copies a fixture's spawn groups frame).
  if (next.command != kDemPacket && next.command != kDemFullPacket &&
      next.command != kDemSignonPacket && next.command != kDemStop) {
    return;
  }
  const int64_t tick = ticks_.Peek(next);
  if (tick != kSignonTick && module_ != nullptr && options_.match_layer) {
    if (!started_) {
      // The first frame of play: sampling starts at the first multiple of
      // the step from here.
      started_ = true;
      step_ = options_.timeline_step;
      if (step_ <= 0) {
        const double interval = ctx_.tick_interval();
        step_ = interval > 0 ? std::max<int64_t>(1, std::llround(1.0 / interval)) : 30;
      }
      // Steps past a billion ticks (years of play) sample the last tick only.
      step_ = std::min<int64_t>(step_, int64_t{1} << 30);
      next_sample_ = (tick + step_ - 1) / step_ * step_;
    }
    while (next_sample_ < tick) {
      Sample(next_sample_);
      next_sample_ += step_;
    }
  }
  ticks_.Next(next);
  moved_ = true;
}

void GameLayer::SampleThroughLastFrame() {
  if (!started_ || module_ == nullptr || !options_.match_layer) return;
  while (next_sample_ <= ticks_.last()) {
    Sample(next_sample_);
    next_sample_ += step_;
  }
}

void GameLayer::AfterFrame(const TickInfo& t, ReplayMetadata* meta) {
  At(t);
  if (module_ != nullptr) module_->OnFrameEnd(ctx_, meta);
}

void GameLayer::Sample(int64_t tick) {
  last_sampled_ = tick;
  const std::optional<double> game_time = module_->GameTime(ctx_, tick);
  last_game_time_ = game_time;
  if (game_time && *game_time >= 0 && !start_tick_ && ctx_.tick_interval() > 0) {
    start_tick_ = tick - std::llround(*game_time / ctx_.tick_interval());
    ctx_.SetStartTick(*start_tick_);
  }
  for (MatchValue& v : row_) v = MatchValue();
  row_[kTlTick] = MatchValue::Int(tick);
  row_[kTlGameTime] = game_time ? MatchValue::Real(*game_time) : MatchValue();
  module_->Sample(ctx_, row_, *emitter_);
}

void GameLayer::OnEntityCreated(const TickInfo& t, const Entity& e) {
  if (module_ == nullptr) return;
  At(t);
  module_->OnEntityCreated(ctx_, e);
}

void GameLayer::UpdateWatched(const TickInfo& t, const Entity& e,
                              std::span<const FieldChange> c) {
  if (!Watched(e.class_id)) return;
  At(t);
  module_->OnEntityUpdated(ctx_, e, c);
}

void GameLayer::OnEntityDeleted(const TickInfo& t, const Entity& e) {
  if (module_ == nullptr) return;
  At(t);
  module_->OnEntityDeleted(ctx_, e);
}

void GameLayer::OnEntityLeft(const TickInfo& t, const Entity& e) {
  if (module_ == nullptr) return;
  At(t);
  module_->OnEntityLeft(ctx_, e);
}

void GameLayer::OnGameEvent(const TickInfo& t, const GameEvent& e) {
  if (module_ == nullptr) return;
  At(t);
  module_->OnGameEvent(ctx_, e);
}

bool GameLayer::ReadsTable(const StringTable& table) const {
  if (module_ == nullptr || !options_.match_layer) return false;
  for (std::string_view name : module_->string_tables()) {
    if (name == table.name()) return true;
  }
  return false;
}

void GameLayer::OnStringTableEntry(const TickInfo& t, const StringTable& table, int32_t index) {
  At(t);
  module_->OnStringTableEntry(ctx_, table, index);
}

Status GameLayer::OnUserMessage(const TickInfo& t, uint32_t type, const uint8_t* data,
                                size_t size) {
  if (module_ == nullptr) return Status::Ok();
  At(t);
  return module_->OnUserMessage(ctx_, type, data, size);
}

Status GameLayer::OnGameInfo(const TickInfo& t, const uint8_t* data, size_t size,
                             ReplayMetadata* meta) {
  if (module_ == nullptr) return Status::Ok();
  At(t);
  return module_->OnGameInfo(ctx_, data, size, meta);
}

void GameLayer::FinishMetadata(ReplayMetadata* meta) {
  if (module_ != nullptr) module_->FinishMetadata(ctx_, meta);
}

void GameLayer::Finish(const ReplayMetadata& meta) {
  MatchSummary s;
  s.game = meta.game;
  s.map = !meta.header.map_name.empty() ? meta.header.map_name : meta.server_map;
  s.first_tick = meta.first_tick;
  s.last_tick = meta.last_tick;
  s.tick_rate = TickRate();
  s.world_offset = kWorldOffset;
  if (module_ == nullptr) {
    s.note = "no players: the match layer reads " + KnownGames() + "; this replay's game is " +
             (meta.game.empty() ? std::string("not named in its header")
                                : "'" + meta.game + "'");
    if (sink_ != nullptr && options_.match_layer) sink_->OnMatchSummary(s);
    return;
  }
  if (!options_.match_layer) {
    // The module's own tables still get their last rows.
    module_->Finish(ctx_, meta, &s);
    return;
  }
  s.ran = true;
  s.cell_width = module_->cell_width();
  s.timeline_step = step_;
  if (started_ && meta.last_tick >= 0) {
    while (next_sample_ <= meta.last_tick) {
      Sample(next_sample_);
      next_sample_ += step_;
    }
    if (last_sampled_ < meta.last_tick) Sample(meta.last_tick);
  }
  s.start_tick = start_tick_;
  if (last_game_time_ && start_tick_) s.duration_s = MatchValue::Real(*last_game_time_);
  module_->Finish(ctx_, meta, &s);
  if (sink_ != nullptr) sink_->OnMatchSummary(s);
}

double GameLayer::TickRate() const {
  // The interval is a float32 of 1/rate: the rate is the whole number it
  // rounds to (1/0.0333333351 is 30).
  const double interval = ctx_.tick_interval();
  double rate = interval > 0 ? 1.0 / interval : 0;
  if (std::abs(rate - std::round(rate)) < 1e-4) rate = std::round(rate);
  return rate;
}

void GameLayer::WriteSoFar() {
  if (module_ != nullptr && options_.match_layer && options_.game_tables) {
    module_->WriteSoFar(ctx_);
  }
}

MatchSummary GameLayer::SoFar(const ReplayMetadata& meta) const {
  MatchSummary s;
  s.world_offset = kWorldOffset;
  s.tick_rate = TickRate();
  s.start_tick = start_tick_;
  if (module_ == nullptr || !options_.match_layer) {
    s.note = "not written yet: the match is live";
    return s;
  }
  s.ran = true;
  s.game = meta.game;
  s.map = !meta.header.map_name.empty() ? meta.header.map_name : meta.server_map;
  s.first_tick = meta.first_tick;
  s.last_tick = last_sampled_;
  s.match_id = meta.match_id;
  s.cell_width = module_->cell_width();
  s.timeline_step = step_;
  if (last_game_time_ && start_tick_) s.duration_s = MatchValue::Real(*last_game_time_);
  module_->PlayersSoFar(&s.players);
  s.note = "live: the players as of the last sample; the rest of the summary when it ends";
  return s;
}

}  // namespace gem::match
