// FieldType: a field's declared type, parsed from the serializer's type
// string.
//
// Type strings look like "int32", "CHandle< CBaseEntity >", "char[128]",
// "CDOTAGameRules*", "CNetworkUtlVectorBase< CHandle< CBaseEntity > >" or
// "uint8[MAX_ITEM_STOCKS]": a base name, an optional generic argument between
// "< " and " >", an optional pointer star, an optional element count.
// Symbolic counts are resolved through a table of known constants.
#ifndef GEM_CORE_FIELDS_FIELD_TYPE_H_
#define GEM_CORE_FIELDS_FIELD_TYPE_H_

#include <memory>
#include <string>
#include <string_view>

namespace gem {

struct FieldType {
  std::string base;                      // "CHandle"
  std::unique_ptr<FieldType> generic;    // "CBaseEntity" for CHandle< ... >
  bool pointer = false;                  // "T*"
  int count = 0;                         // "T[N]": N (0 = not an array)
  bool count_unknown = false;            // a symbolic count we do not know

  // The type as written by the reference tools: no spaces inside the angle
  // brackets, symbolic counts resolved, e.g. "CHandle<CBaseEntity>[19]".
  std::string ToString() const;
};

// Parses a type string; never fails (an unparsable string becomes a base
// name on its own).
std::unique_ptr<FieldType> ParseFieldType(std::string_view text);

// The value of a symbolic array count such as "MAX_ITEM_STOCKS", or 0.
int LookupArrayCountConstant(std::string_view name);

}  // namespace gem

#endif  // GEM_CORE_FIELDS_FIELD_TYPE_H_
