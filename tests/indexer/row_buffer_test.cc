// RowBuffer: rows recorded now and inserted later hold copies of their
// values, bind in column order, keep each table's recorded order (whether
// they go one or many to a statement run), and stop at the first failure.
#include "indexer/row_buffer.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>
#include <vector>

#include "indexer/sqlite_db.h"

namespace gem::index {
namespace {

class RowBufferTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.Open(":memory:").ok());
    ASSERT_TRUE(db_.Exec("CREATE TABLE t(a, b, c, d, e);"
                         "CREATE TABLE u(k INTEGER PRIMARY KEY, v);")
                    .ok());
    ASSERT_TRUE(inserts_[0].Prepare(&db_, "t(a, b, c, d, e)", 5).ok());
    ASSERT_TRUE(inserts_[1].Prepare(&db_, "u(k, v)", 2).ok());
  }

  // Each row of `sql`'s result as "v1|v2|...", values as typeof:value.
  std::vector<std::string> Rows(const char* sql) {
    std::vector<std::string> out;
    sqlite3_stmt* s = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db_.handle(), sql, -1, &s, nullptr), SQLITE_OK);
    while (sqlite3_step(s) == SQLITE_ROW) {
      std::string row;
      for (int i = 0; i < sqlite3_column_count(s); ++i) {
        if (i) row += '|';
        switch (sqlite3_column_type(s, i)) {
          case SQLITE_INTEGER: row += "int:" + std::to_string(sqlite3_column_int64(s, i)); break;
          case SQLITE_FLOAT: row += "real:" + std::to_string(sqlite3_column_double(s, i)); break;
          case SQLITE_TEXT:
            row += "text:" + std::string(reinterpret_cast<const char*>(sqlite3_column_text(s, i)),
                                         sqlite3_column_bytes(s, i));
            break;
          case SQLITE_BLOB:
            row += "blob:" + std::string(static_cast<const char*>(sqlite3_column_blob(s, i)),
                                         sqlite3_column_bytes(s, i));
            break;
          default: row += "null"; break;
        }
      }
      out.push_back(row);
    }
    sqlite3_finalize(s);
    return out;
  }

  Db db_;
  Insert inserts_[2];
};

TEST_F(RowBufferTest, ValuesAreCopiedAndBoundInOrder) {
  RowBuffer rows;
  std::string scratch = "first";
  rows.Begin(0).Int(-7).Real(2.5).Text(scratch).Blob(std::string("a\0b", 3)).Null();
  // The caller reuses its buffer before the rows run (the indexer does).
  scratch = "second, longer than the first";
  rows.Begin(1).Int(1).Text(scratch);
  scratch.assign(100, 'x');
  rows.Begin(0).Null().Null().Null().Null().Int(INT64_MIN);
  EXPECT_FALSE(rows.empty());
  ASSERT_TRUE(rows.RunAll(inserts_).ok());
  EXPECT_EQ(Rows("SELECT * FROM t ORDER BY rowid"),
            (std::vector<std::string>{
                "int:-7|real:2.500000|text:first|blob:" + std::string("a\0b", 3) + "|null",
                "null|null|null|null|int:" + std::to_string(INT64_MIN)}));
  EXPECT_EQ(Rows("SELECT * FROM u"),
            (std::vector<std::string>{"int:1|text:second, longer than the first"}));
  rows.clear();
  EXPECT_TRUE(rows.empty());
  ASSERT_TRUE(rows.RunAll(inserts_).ok());
  EXPECT_EQ(Rows("SELECT count(*) FROM t"), (std::vector<std::string>{"int:2"}));
}

TEST_F(RowBufferTest, StopsAtTheFirstFailure) {
  RowBuffer rows;
  rows.Begin(1).Int(5).Text("kept");
  rows.Begin(1).Int(5).Text("duplicate key");
  rows.Begin(1).Int(6).Text("never run");
  Status s = rows.RunAll(inserts_);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("UNIQUE"), std::string::npos) << s.ToString();
  EXPECT_EQ(Rows("SELECT k, v FROM u ORDER BY k"), (std::vector<std::string>{"int:5|text:kept"}));
}

TEST_F(RowBufferTest, AStatementOutOfRangeIsAnError) {
  RowBuffer rows;
  rows.Begin(2).Int(1);
  EXPECT_FALSE(rows.RunAll(inserts_).ok());
}

TEST_F(RowBufferTest, ARowWithoutAValuePerColumnIsAnErrorAndNothingIsInserted) {
  RowBuffer rows;
  rows.Begin(1).Int(1).Text("fine");
  rows.Begin(1).Int(2);
  EXPECT_FALSE(rows.RunAll(inserts_).ok());
  EXPECT_EQ(Rows("SELECT count(*) FROM u"), (std::vector<std::string>{"int:0"}));
}

// More rows than one statement run takes, of two tables interleaved, with
// NULLs that follow values in the same parameter: each table gets its rows
// in recorded order, NULLs stay NULL.
TEST_F(RowBufferTest, ManyRowsKeepEachTablesOrder) {
  ASSERT_GT(inserts_[0].rows_per_many(), 1);
  const int n = inserts_[0].rows_per_many() * 3 + 5;
  RowBuffer rows;
  std::vector<std::string> want_t, want_u;
  for (int i = 0; i < n; ++i) {
    if (i % 2 == 0) {
      rows.Begin(0).Int(i).Null().Text("t" + std::to_string(i)).Null().Real(i * 0.5);
      want_t.push_back("int:" + std::to_string(i) + "|null|text:t" + std::to_string(i) +
                       "|null|real:" + std::to_string(i * 0.5));
    } else {
      rows.Begin(0).Null().Int(-i).Null().Blob("b").Null();
      want_t.push_back("null|int:" + std::to_string(-i) + "|null|blob:b|null");
    }
    rows.Begin(1).Int(1000 - i).Text(std::to_string(i));
    want_u.push_back("int:" + std::to_string(1000 - i) + "|text:" + std::to_string(i));
  }
  ASSERT_TRUE(rows.RunAll(inserts_).ok());
  EXPECT_EQ(Rows("SELECT * FROM t ORDER BY rowid"), want_t);
  EXPECT_EQ(Rows("SELECT * FROM u ORDER BY k DESC"), want_u);
}

// Runs of NULLs recorded as one tag stand for that many values, between
// and after others, many rows to a run too: a parameter a row before bound
// is NULL again.
TEST_F(RowBufferTest, NullRunsStandForThatManyNulls) {
  RowBuffer rows;
  rows.Begin(0).Int(1).Nulls(3).Text("x");
  rows.Begin(0).Nulls(5);
  rows.Begin(0).Nulls(2).Real(0.5).Nulls(1).Int(9);
  rows.Begin(1).Nulls(1).Text("k null");
  for (int i = 0; i < inserts_[0].rows_per_many() + 1; ++i) rows.Begin(0).Int(i).Nulls(4);
  ASSERT_TRUE(rows.RunAll(inserts_).ok());
  std::vector<std::string> got = Rows("SELECT * FROM t ORDER BY rowid");
  ASSERT_EQ(got.size(), 4u + inserts_[0].rows_per_many());
  EXPECT_EQ(got[0], "int:1|null|null|null|text:x");
  EXPECT_EQ(got[1], "null|null|null|null|null");
  EXPECT_EQ(got[2], "null|null|real:0.500000|null|int:9");
  EXPECT_EQ(got.back(),
            "int:" + std::to_string(inserts_[0].rows_per_many()) + "|null|null|null|null");
  EXPECT_EQ(Rows("SELECT count(*) FROM u"), (std::vector<std::string>{"int:1"}));
  // A run counts towards the row's values: too few is still an error.
  RowBuffer short_row;
  short_row.Begin(0).Int(1).Nulls(3);
  EXPECT_FALSE(short_row.RunAll(inserts_).ok());
}

}  // namespace
}  // namespace gem::index
