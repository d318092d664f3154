#include "sqlext/function_docs.h"

namespace gem::sqlext {
namespace {

constexpr FunctionDoc kDocs[] = {
    {"gem_state", "gem_state(tick [, entity [, db]])",
     "A table: every field of every entity alive at tick (or of the one entity), as of that "
     "tick: entity, ent_index, serial, class, field, path, type, value. A tick past a live "
     "index's last commit is an error."},
    {"gem_changes", "gem_changes [WHERE entity = ... AND field = ... AND tick BETWEEN ...]",
     "A table: every change of every field, one row a change: entity, ent_index, class, field, "
     "path, tick, value. An entity's creation values are changes at its creation tick; a value "
     "dropped by an array shrink is a change to NULL. Constraints on entity, class, field and "
     "tick are pushed down."},
    {"gem_sample", "gem_sample(from_tick, to_tick, step [, entity [, db]])",
     "A table: every field of the selected entities as of each tick from_tick, from_tick + "
     "step, ... up to to_tick at which the entity is alive and the field has a value: "
     "gem_state's columns and tick, in entity, field and tick order."},
    {"gem_value", "gem_value(entity, field, tick [, db])",
     "One field's value as of tick; NULL when the entity was not alive or the field had no "
     "value then. A short field name several fields share is an error that names them."},
    {"gem_position", "gem_position(entity, tick [, db])",
     "The entity's world coordinates as of tick, a JSON array [x, y, z], from its body "
     "component and the game's cell width (meta.cell_width); NULL when it has none."},
    {"gem_version", "gem_version()", "The extension's version."},
    {"gem_debug", "gem_debug()",
     "JSON: the version, build, the index format read, SQLite's version, the bytes of keyframe "
     "blocks the connection keeps and its read counters."},
    {"gem_keyframe_cache", "gem_keyframe_cache([bytes])",
     "The bytes of decoded keyframe blocks each index of the connection keeps (64 MiB unless "
     "set); sets it when given (0 or more, from a statement of the caller's own), letting the "
     "blocks past it go at once, and returns the limit in force."},
    {"gem_help", "gem_help()",
     "JSON: each of these functions, how it is called and what it returns."},
};

void AppendJsonString(const char* s, std::string* out) {
  out->push_back('"');
  for (; *s != '\0'; ++s) {
    if (*s == '"' || *s == '\\') out->push_back('\\');
    out->push_back(*s);
  }
  out->push_back('"');
}

}  // namespace

std::span<const FunctionDoc> FunctionDocs() { return kDocs; }

std::string FunctionDocsJson() {
  std::string out = "[";
  for (const FunctionDoc& d : kDocs) {
    if (out.size() > 1) out += ",";
    out += "{\"name\":";
    AppendJsonString(d.name, &out);
    out += ",\"call\":";
    AppendJsonString(d.call, &out);
    out += ",\"what\":";
    AppendJsonString(d.what, &out);
    out += "}";
  }
  return out + "]";
}

}  // namespace gem::sqlext
