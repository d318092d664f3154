#include "indexer/parts_table.h"

namespace gem::index {

Status WriteParts(Db* db, const std::vector<PartInfo>& parts, const std::vector<PartFile>& files,
                  bool replace) {
  Stmt s;
  GEM_RETURN_IF_ERROR(s.Prepare(
      db, std::string(replace ? "INSERT OR REPLACE" : "INSERT") +
              " INTO parts(part, name, sha256, bytes, first_tick, last_tick, tick_offset, "
              "first_server_tick, last_server_tick, joins, gap_ticks, kept_entities, "
              "created_entities, deleted_entities, changed_values, changed_entries, truncated, "
              "playback_ticks) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
  auto maybe = [&s](int column, int64_t v) {
    if (v < 0) s.Null(column); else s.Int(column, v);
  };
  for (size_t i = 0; i < parts.size(); ++i) {
    const PartInfo& p = parts[i];
    const PartFile* f = i < files.size() ? &files[i] : nullptr;
    s.Int(1, static_cast<int64_t>(i)).Text(2, f != nullptr && !f->name.empty() ? f->name : p.name);
    if (f != nullptr && !f->sha256.empty()) {
      s.Text(3, f->sha256).Int(4, static_cast<int64_t>(f->bytes));
    } else {
      s.Null(3).Null(4);
    }
    maybe(5, p.first_tick);
    maybe(6, p.last_tick);
    s.Int(7, p.tick_offset);
    maybe(8, p.first_server_tick);
    maybe(9, p.last_server_tick);
    s.Text(10, p.join).Int(11, p.gap_ticks);
    s.Int(12, static_cast<int64_t>(p.restated.kept))
        .Int(13, static_cast<int64_t>(p.restated.created))
        .Int(14, static_cast<int64_t>(p.restated.deleted))
        .Int(15, static_cast<int64_t>(p.restated.changed_values))
        .Int(16, static_cast<int64_t>(p.restated_entries))
        .Int(17, p.truncated ? 1 : 0);
    maybe(18, p.playback_ticks);
    GEM_RETURN_IF_ERROR(s.Run());
  }
  return Status::Ok();
}

}  // namespace gem::index
