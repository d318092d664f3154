#include "core/events/table_spec.h"

#include <vector>

namespace gem {

const char kAutoIdDoc[] = "the row's number: rows are numbered in the order they are written";

std::string CreateTableSql(const TableSpec& t) {
  struct Line {
    std::string text, doc;
  };
  std::vector<Line> lines;
  if (t.auto_id) lines.push_back({"id INTEGER PRIMARY KEY", kAutoIdDoc});
  for (const TableColumn& c : t.columns) lines.push_back({c.name + " " + c.type, c.doc});
  if (!t.constraints.empty()) lines.push_back({t.constraints, ""});
  std::string sql = "CREATE TABLE " + t.name + "(";
  if (!t.comment.empty()) sql += "  -- " + t.comment;
  for (size_t i = 0; i < lines.size(); ++i) {
    // The comma goes before the comment: a comment runs to the line's end.
    sql += "\n  " + lines[i].text;
    if (i + 1 < lines.size()) sql += ",";
    if (!lines[i].doc.empty()) sql += "  -- " + lines[i].doc;
  }
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
