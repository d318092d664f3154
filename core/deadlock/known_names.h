// Names of Deadlock's ids that a replay does not hold.
//
// Ability, item and modifier ids are Valve's string tokens of their names
// (StringToken, messages.h). A replay names abilities and items through
// its EntityNames entries (an entity's m_nameStringableIndex), but only
// those some entity has had by then, and modifiers never: an
// ActiveModifiers entry carries only its modifier's token. For those ids
// gem looks in this small table of names, taken from Valve's game files
// (abilities.vdata for items, modifiers.vdata for modifiers) as boon's
// generated name tables list them (2026-05), of the items and modifiers a
// match commonly shows. The index holds the table itself:
//
//   known_names(token, name, kind, source)
//
// and `meta` counts the ids neither the replay nor the table names.
#ifndef GEM_CORE_DEADLOCK_KNOWN_NAMES_H_
#define GEM_CORE_DEADLOCK_KNOWN_NAMES_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "core/match/match_context.h"

namespace gem::deadlock {

enum class NameKind : uint8_t { kItem, kModifier };

struct KnownName {
  uint32_t token;  // StringToken(name)
  std::string_view name;
  NameKind kind;
};

// Where the table's names come from, as the index's `source` column says.
inline constexpr std::string_view kKnownNamesSource =
    "Valve's abilities.vdata and modifiers.vdata, as boon's name tables list them (2026-05)";

// Every entry, by token.
std::span<const KnownName> KnownNames();
// The name of an item or a modifier id in the table, "" when it has none.
std::string_view KnownItemName(uint32_t token);
std::string_view KnownModifierName(uint32_t token);
// Writes the table, a row an entry, to `table` (known_names).
void WriteKnownNames(match::MatchContext& ctx, uint32_t table);

}  // namespace gem::deadlock

#endif  // GEM_CORE_DEADLOCK_KNOWN_NAMES_H_
