#include "core/table_spec.h"

namespace gem {

std::string CreateTableSql(const TableSpec& t) {
  std::string sql;
  if (!t.comment.empty()) sql += "-- " + t.comment + "\n";
  sql += "CREATE TABLE " + t.name + "(\n";
  bool first = true;
  auto line = [&](const std::string& text) {
    if (!first) sql += ",\n";
    sql += "  " + text;
    first = false;
  };
  if (t.auto_id) line("id INTEGER PRIMARY KEY");
  for (const TableColumn& c : t.columns) line(c.name + " " + c.type);
  if (!t.constraints.empty()) line(t.constraints);
  sql += "\n)";
  if (t.without_rowid) sql += " WITHOUT ROWID";
  return sql + ";\n";
}

std::string InsertTargetOf(const TableSpec& t) {
  std::string target = t.name + "(";
  for (size_t i = 0; i < t.columns.size(); ++i) {
    if (i) target += ", ";
    target += t.columns[i].name;
  }
  return target + ")";
}

}  // namespace gem
