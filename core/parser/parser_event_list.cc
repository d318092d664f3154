// Parser::LoadKnownEventList: names for the game events of a replay that
// sent no descriptor list before its first event (a recording that began
// late, a server's hibernation bug). Event ids shift between builds, so
// the list is the closest known build's, and meta says which.
#include "core/parser/parser.h"

namespace gem {

Status Parser::LoadKnownEventList() {
  if (tried_known_event_list_) return Status::Ok();
  tried_known_event_list_ = true;
  const match::GameModule* module = game_->module();
  if (module == nullptr) return Status::Ok();
  const KnownEventList* known = ClosestEventList(
      module->known_event_lists(), meta_.header.network_protocol, meta_.header.build_num);
  if (known == nullptr) return Status::Ok();
  Status s = game_events_.LoadText(known->text);
  if (!s.ok()) {
    // The list is built in: a bad one is the build's fault, not the replay's.
    return Status::Unsupported("the known event list of build " +
                               std::to_string(known->network_protocol) + "/" +
                               std::to_string(known->build_num) + ": " + s.message());
  }
  meta_.event_list = "known";
  meta_.event_list_protocol = known->network_protocol;
  meta_.event_list_build = known->build_num;
  return Status::Ok();
}

}  // namespace gem
