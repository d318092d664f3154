// One entity as a JSON object in the shape of the golden snapshots:
// {"req_tick":..,"tick":..,"net_tick":..,"index":..,"serial":..,"class":..,
//  "fields":[{"path":"3/0","name":"CBodyComponent.m_cellX","type":"uint16",
//             "enc":..,"bits":..,"v":128}, ...]}
// Fields are listed in schema order: every simple field of the class (null
// when never sent), the elements of each array that holds a node, and the
// fields of each table that holds a node.
#ifndef GEM_TOOLS_DUMP_ENTITY_JSON_H_
#define GEM_TOOLS_DUMP_ENTITY_JSON_H_

#include <cstdint>
#include <string>

#include "core/entities/entities.h"
#include "core/fields/schema.h"

namespace gem::dump {

void AppendEntityJson(const Schema& schema, const Entity& entity,
                      uint32_t req_tick, uint32_t tick, uint32_t net_tick,
                      std::string* out);

}  // namespace gem::dump

#endif  // GEM_TOOLS_DUMP_ENTITY_JSON_H_
