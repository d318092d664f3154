#include "indexer/decode_faults_table.h"

#include <string>

namespace gem::index {

Status WriteDecodeFaults(Db* db, const std::vector<DecodeFault>& faults) {
  GEM_RETURN_IF_ERROR(db->Exec("DELETE FROM decode_faults"));
  Stmt s;
  GEM_RETURN_IF_ERROR(s.Prepare(
      db, "INSERT INTO decode_faults(fault, tick, server_tick, full_packet, entity, class, field, "
          "bit, reason, stale_entities, stale, refreshed_tick) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)"));
  for (size_t i = 0; i < faults.size(); ++i) {
    const DecodeFault& f = faults[i];
    s.Int(1, static_cast<int64_t>(i)).Int(2, f.tick);
    if (f.server_tick >= 0) s.Int(3, f.server_tick); else s.Null(3);
    s.Int(4, f.full_packet ? 1 : 0);
    if (f.entity >= 0) s.Int(5, f.entity); else s.Null(5);
    if (!f.class_name.empty()) s.Text(6, f.class_name); else s.Null(6);
    if (!f.field.empty()) s.Text(7, f.field); else s.Null(7);
    std::string stale = "[";
    for (size_t k = 0; k < f.stale.size(); ++k) {
      if (k > 0) stale += ',';
      stale += std::to_string(f.stale[k]);
    }
    stale += ']';
    s.Int(8, static_cast<int64_t>(f.bit)).Text(9, f.reason);
    s.Int(10, static_cast<int64_t>(f.stale.size())).Text(11, stale);
    if (f.refreshed) s.Int(12, f.refreshed_tick); else s.Null(12);
    GEM_RETURN_IF_ERROR(s.Run());
  }
  return Status::Ok();
}

}  // namespace gem::index
