// IndexReader's opening of an index: the format check, then the entity
// list, the replay's facts and the class names every query needs, and each
// class's fields on first use. Every row is checked as it is read
// (index_columns.h); a row that is not what gem-index writes is an error
// naming its table and key, and nothing is allocated beyond the rows read.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "core/codec/index_format.h"
#include "sqlext/common.h"
#include "sqlext/index_columns.h"
#include "sqlext/index_reader.h"

namespace gem::sqlext {

std::string IndexReader::Table(const char* name) const { return QuotedName(schema_) + "." + name; }

std::string IndexReader::Named() const {
  return "'" + schema_ + "'" + (filename_.empty() ? "" : " (" + filename_ + ")");
}

std::string IndexReader::Damaged(const std::string& where, const std::string& what) const {
  return "gem: index " + Named() + " is damaged: " + where + ": " + what;
}

std::string IndexReader::ReadFailed(const std::string& where) const {
  return "gem: cannot read index " + Named() + ": " + where + ": " + sqlite3_errmsg(db_);
}

bool IndexReader::Prepare(sqlite3_stmt** st, const std::string& sql, std::string* error) {
  if (*st != nullptr) return true;
  if (sqlite3_prepare_v3(db_, sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, st, nullptr) !=
      SQLITE_OK) {
    *error = "gem: cannot read the index in schema '" + schema_ + "': " + sqlite3_errmsg(db_);
    *st = nullptr;
    return false;
  }
  return true;
}

// SQLite's count of the file's changes by other connections, as this
// connection's read transaction sees it.
static int DataVersion(sqlite3* db, const std::string& schema) {
  int v = 0;
  if (sqlite3_file_control(db, schema.c_str(), SQLITE_FCNTL_DATA_VERSION, &v) != SQLITE_OK) {
    return -1;
  }
  return v;
}

bool IndexReader::StillValid() const {
  const char* f = sqlite3_db_filename(db_, schema_.c_str());
  if (f == nullptr || filename_ != f) return false;
  return !live_ || DataVersion(db_, schema_) == data_version_;
}

bool IndexReader::CheckTick(int64_t tick, std::string* error) const {
  if (!live_) return true;
  if (last_tick_ == INT64_MAX) {
    *error = "gem: the live index " + Named() + " has no tick committed yet: the match has " +
             "only started being indexed";
    return false;
  }
  if (tick <= last_tick_) return true;
  *error = "gem: tick " + std::to_string(tick) + " is past the last commit of the live index " +
           Named() + ", tick " + std::to_string(last_tick_) +
           ": the match is still being indexed (meta's live_tick says how far it is)";
  return false;
}

// Runs `st` to its end, handing each row to `row` (false stops with its
// error); an SQLite error on the way is reported for `table`.
template <typename Row>
bool IndexReader::EachRow(sqlite3_stmt* st, const char* table, Row&& row, std::string* error) {
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (!row()) {
      sqlite3_reset(st);
      return false;
    }
  }
  if (rc != SQLITE_DONE) {
    *error = ReadFailed(std::string("table ") + table);
    sqlite3_reset(st);
    return false;
  }
  sqlite3_reset(st);
  return true;
}

bool IndexReader::CheckFormat(std::string* error) {
  const std::string where = Named();
  int64_t pragma[2] = {0, 0};
  const char* names[2] = {".application_id", ".user_version"};
  for (int i = 0; i < 2; ++i) {
    sqlite3_stmt* st = nullptr;
    if (!Prepare(&st, "PRAGMA " + QuotedName(schema_) + names[i], error)) return false;
    if (sqlite3_step(st) == SQLITE_ROW) pragma[i] = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
  }
  if (pragma[0] != kIndexApplicationId) {
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%08llX", static_cast<unsigned long long>(pragma[0]));
    *error = "gem: " + where + " is not a gem index (application_id " + hex +
             ", a gem index has 0x47454D31; write one with gem-index)";
    return false;
  }
  if (pragma[1] != kIndexSchemaVersion) {
    *error = "gem: " + where + " is a gem index of schema version " + std::to_string(pragma[1]) +
             "; this extension reads version " + std::to_string(kIndexSchemaVersion) +
             (pragma[1] < kIndexSchemaVersion
                  ? ": index the replay again with this gem-index (gem-index --force REPLAY OUT.db)"
                  : ": read it with the libgem of the gem-index that wrote it");
    return false;
  }
  return true;
}

bool IndexReader::LoadEntities(std::string* error) {
  sqlite3_stmt* st = nullptr;
  if (!Prepare(&st,
               "SELECT entity, ent_index, serial, class_id, created_tick, deleted_tick FROM " +
                   Table("entities") + " ORDER BY entity",
               error)) {
    return false;
  }
  entities_.clear();
  const bool ok = EachRow(
      st, "entities",
      [&] {
        EntityInfo e;
        int64_t index = 0, serial = 0, class_id = 0;
        const char* bad = nullptr;
        if (!IntColumn(st, 0, 1, INT64_MAX, &e.entity)) {
          *error = Damaged("table entities", "entity " + ColumnForMessage(st, 0) +
                                                 " is not an entity id (1, 2, 3, ...)");
          return false;
        }
        if (!entities_.empty() && entities_.back().entity == e.entity) {
          bad = "appears twice";
        } else if (!IntColumn(st, 1, 0, INT32_MAX, &index)) {
          bad = "ent_index is not an entity index";
        } else if (!IntColumn(st, 2, 0, INT32_MAX, &serial)) {
          bad = "serial is not a serial number";
        } else if (!IntColumn(st, 3, 0, INT32_MAX, &class_id)) {
          bad = "class_id is not a class id";
        } else if (!IntColumn(st, 4, INT64_MIN, INT64_MAX, &e.created_tick)) {
          bad = "created_tick is not a tick";
        } else if (sqlite3_column_type(st, 5) != SQLITE_NULL &&
                   !IntColumn(st, 5, INT64_MIN, INT64_MAX, &e.deleted_tick)) {
          bad = "deleted_tick is neither a tick nor NULL";
        }
        if (bad != nullptr) {
          *error = Damaged("table entities, entity " + std::to_string(e.entity), bad);
          return false;
        }
        e.ent_index = static_cast<int32_t>(index);
        e.serial = static_cast<int32_t>(serial);
        e.class_id = static_cast<int32_t>(class_id);
        entities_.push_back(e);
        return true;
      },
      error);
  sqlite3_finalize(st);
  return ok;
}

bool IndexReader::LoadMeta(std::string* error) {
  // Facts of the replay: where its ticks end, how positions are counted.
  // Others are not read here; one of these of the wrong type is ignored
  // (the functions then behave as for an index without it).
  sqlite3_stmt* st = nullptr;
  if (!Prepare(&st,
               "SELECT key, value FROM " + Table("meta") +
                   " WHERE key IN ('last_tick', 'cell_width', 'world_offset',"
                   " 'keyframe_interval', 'keyframe_last_tick', 'keyframe_open_tick', 'live')",
               error)) {
    return false;
  }
  const bool ok = EachRow(
      st, "meta",
      [&] {
        const std::string key(BlobColumn(st, 0));
        const int type = sqlite3_column_type(st, 1);
        if (type != SQLITE_INTEGER && type != SQLITE_FLOAT) return true;
        const double v = sqlite3_column_double(st, 1);
        if (key == "last_tick" && type == SQLITE_INTEGER) {
          last_tick_ = sqlite3_column_int64(st, 1);
        } else if (key == "cell_width" && v > 0 && v <= 65536) {
          cell_width_ = v;
        } else if (key == "world_offset" && std::abs(v) <= 1e9) {
          world_offset_ = v;
        } else if (key == "keyframe_interval" && type == SQLITE_INTEGER) {
          keyframe_interval_ = std::max<int64_t>(0, sqlite3_column_int64(st, 1));
        } else if (key == "keyframe_last_tick" && type == SQLITE_INTEGER) {
          keyframe_last_tick_ = sqlite3_column_int64(st, 1);
        } else if (key == "keyframe_open_tick" && type == SQLITE_INTEGER) {
          open_tick_ = sqlite3_column_int64(st, 1);
        } else if (key == "live" && type == SQLITE_INTEGER) {
          live_ = sqlite3_column_int64(st, 1) == 1;
        }
        return true;
      },
      error);
  sqlite3_finalize(st);
  return ok;
}

bool IndexReader::LoadClasses(std::string* error) {
  sqlite3_stmt* st = nullptr;
  if (!Prepare(&st, "SELECT class_id, name FROM " + Table("classes"), error)) return false;
  classes_.clear();
  const bool ok = EachRow(
      st, "classes",
      [&] {
        int64_t id = 0;
        if (!IntColumn(st, 0, 0, INT32_MAX, &id)) {
          *error = Damaged("table classes",
                           "class_id " + ColumnForMessage(st, 0) + " is not a class id");
          return false;
        }
        ClassInfoRow& c = classes_[static_cast<int32_t>(id)];
        if (c.class_id >= 0) {
          *error = Damaged("table classes, class_id " + std::to_string(id), "appears twice");
          return false;
        }
        c.class_id = static_cast<int32_t>(id);
        c.name = std::string(BlobColumn(st, 1));
        return true;
      },
      error);
  sqlite3_finalize(st);
  return ok;
}

bool IndexReader::Open(std::string* error) {
  if (opened_) return true;
  const char* f = sqlite3_db_filename(db_, schema_.c_str());
  if (f == nullptr) {
    *error = "gem: no database is attached as '" + schema_ + "'";
    return false;
  }
  filename_ = f;
  // A live index's version first: a commit landing while this reads is
  // then seen as a change by the next StillValid (the reads below may see
  // the newer state only in a statement's own transaction; the version is
  // read again there).
  data_version_ = DataVersion(db_, schema_);
  if (!CheckFormat(error) || !LoadEntities(error) || !LoadMeta(error) || !LoadClasses(error)) {
    return false;
  }
  if (!Prepare(&page_, "SELECT data FROM " + Table("changes") + " WHERE id = ?1", error) ||
      !Prepare(&tail_,
               "SELECT seq, entity, part, tick, data FROM " + Table("tail") +
                   " ORDER BY seq, entity, part",
               error) ||
      !Prepare(&keyframe_,
               "SELECT key, last_entity, data FROM " + Table("keyframes") +
                   " WHERE key BETWEEN ?1 AND ?2 ORDER BY key DESC LIMIT 1",
               error) ||
      !Prepare(&state_, "SELECT data, base FROM " + Table("entity_states") + " WHERE entity = ?1",
               error) ||
      !Prepare(&fields_,
               "SELECT field_id, name, path, type, short_name FROM " + Table("fields") +
                   " WHERE class_id = ?1 ORDER BY field_id",
               error)) {
    return false;
  }
  opened_ = true;
  return true;
}

const EntityInfo* IndexReader::Entity(int64_t id) const {
  // Ids are 1, 2, 3, ... in order; look where it should be, then search.
  if (id >= 1 && static_cast<size_t>(id) <= entities_.size() && entities_[id - 1].entity == id) {
    return &entities_[id - 1];
  }
  auto it = std::lower_bound(entities_.begin(), entities_.end(), id,
                             [](const EntityInfo& e, int64_t v) { return e.entity < v; });
  return it != entities_.end() && it->entity == id ? &*it : nullptr;
}

ClassInfoRow* IndexReader::Class(int32_t class_id) {
  auto it = classes_.find(class_id);
  return it == classes_.end() ? nullptr : &it->second;
}

bool IndexReader::LoadFields(ClassInfoRow* c, std::string* error) {
  if (c->fields_loaded) return true;
  sqlite3_reset(fields_);
  sqlite3_bind_int(fields_, 1, c->class_id);
  c->fields.clear();
  c->by_name.clear();
  c->ambiguous.clear();
  c->packed_fields.clear();
  c->text_bytes.clear();
  // Texts past 2 GiB would not have a result length: damage.
  bool too_long = false;
  auto pack = [&](std::string_view text) {
    const ClassInfoRow::PackedText t{static_cast<uint32_t>(c->text_bytes.size()),
                                     ResultLength(text)};
    c->text_bytes.append(text);
    c->text_bytes.push_back('\0');
    too_long |= c->text_bytes.size() > INT32_MAX;
    return t;
  };
  c->packed_name = pack(c->name);
  const bool ok = EachRow(
      fields_, "fields",
      [&] {
        // Field ids are dense from 0 in each class: the next row's id is
        // the count so far, so the list grows only with rows read.
        int64_t id = 0;
        if (!IntColumn(fields_, 0, 0, UINT32_MAX, &id) ||
            static_cast<size_t>(id) != c->fields.size()) {
          *error = Damaged("table fields, class_id " + std::to_string(c->class_id),
                           "field_id " + ColumnForMessage(fields_, 0) + " where " +
                               std::to_string(c->fields.size()) +
                               " was due (a class's field ids are 0, 1, 2, ...)");
          return false;
        }
        FieldInfo f;
        f.field_id = static_cast<uint32_t>(id);
        f.name = std::string(BlobColumn(fields_, 1));
        f.path = std::string(BlobColumn(fields_, 2));
        f.type = std::string(BlobColumn(fields_, 3));
        const std::string_view short_name = BlobColumn(fields_, 4);
        if (short_name != f.name) c->ambiguous[std::string(short_name)].push_back(f.field_id);
        c->by_name[f.name] = f.field_id;
        c->packed_fields.push_back({pack(f.name), pack(f.path), pack(f.type)});
        if (too_long) {
          *error = Damaged("table fields, class_id " + std::to_string(c->class_id),
                           "the names, paths and types take more than 2 GiB");
          return false;
        }
        c->fields.push_back(std::move(f));
        return true;
      },
      error);
  if (!ok) {
    c->fields.clear();
    c->by_name.clear();
    c->ambiguous.clear();
    c->packed_fields.clear();
    c->text_bytes.clear();
    return false;
  }
  // A short name that is also a field's own name names that field.
  for (auto it = c->ambiguous.begin(); it != c->ambiguous.end();) {
    it = c->by_name.count(it->first) ? c->ambiguous.erase(it) : std::next(it);
  }
  c->fields_loaded = true;
  return true;
}

}  // namespace gem::sqlext
