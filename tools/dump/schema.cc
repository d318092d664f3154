// gem-dump schema: the serializers' fields with their encodings, one line
// per (serializer, field): serializer, index, name, type, model, encoder,
// bit count, low, high, flags, table serializer, decoder, send node ("-"
// when none). An optional class name filters.
#include <fmt/core.h>

#include <cstdio>
#include <string>

#include "core/util/exit_codes.h"
#include "core/fields/schema.h"
#include "tools/dump/commands.h"

namespace gem::dump {
namespace {

std::string Opt(const std::optional<int32_t>& v) {
  return v.has_value() ? std::to_string(*v) : "-";
}
std::string OptF(const std::optional<float>& v) {
  if (!v.has_value()) return "-";
  std::string s;
  AppendFloat32(*v, &s);
  return s;
}

}  // namespace

int RunSchema(const Args& args) {
  if (args.empty() || args.size() > 2) {
    fmt::print(stderr, "usage: gem-dump schema REPLAY.dem [SERIALIZER]\n");
    return cli::kExitUsage;
  }
  std::string filter = args.size() == 2 ? args[1] : "";
  return ParseReplay(args[0], nullptr, [&](const Parser& p) {
    const Schema& schema = p.schema();
    for (size_t c = 0; c < schema.class_slots(); ++c) {
      const ClassInfo* info = schema.GetClass(static_cast<int32_t>(c));
      if (info == nullptr || info->serializer == nullptr) continue;
      if (!filter.empty() && info->name != filter) continue;
      const Serializer* s = info->serializer;
      for (size_t i = 0; i < s->fields.size(); ++i) {
        const Field* f = s->fields[i];
        const FieldDecoder& d =
            f->model == FieldModel::kVariableArray ? f->child_decoder : f->decoder;
        fmt::print("{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n", s->name, i, f->name,
                   f->type_text, FieldModelName(f->model), f->encoder, Opt(f->bit_count).c_str(),
                   OptF(f->low_value).c_str(), OptF(f->high_value).c_str(),
                   Opt(f->encode_flags).c_str(), f->serializer ? f->serializer->name.c_str() : "-",
                   d.Describe().c_str(), f->send_node.empty() ? "-" : f->send_node.c_str());
      }
    }
  });
}

}  // namespace gem::dump
